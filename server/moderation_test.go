package server_test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/sshterm"
	"parlor/internal/testkit/testclock"
	"parlor/server"
	"parlor/store"
)

// named connects key to the API and names it, so that the server knows the key (an
// admin may ban or mute only a key that has been here).
func named(t *testing.T, s *e2e.Server, key e2e.Key, name string) *e2e.API {
	t.Helper()
	a := s.API(t, name, key)
	a.Send(map[string]any{"op": "hello", "name": name})
	a.Expect("hello")
	return a
}

// until waits for an API event of type typ, skipping others.
func until(a *e2e.API, typ string) map[string]any {
	return a.Until(typ, func(m map[string]any) bool { return m["type"] == typ })
}

// refusedAtLogin logs in with a banned key as OpenSSH does (the key, then a guest's
// keyboard-interactive) and returns what the server told it: the login must fail, the
// key refused before any session and no guest let in instead.
func refusedAtLogin(t *testing.T, s *e2e.Server, key e2e.Key) string {
	t.Helper()
	told, err := s.TryLogin(t, key)
	if err == nil {
		t.Fatalf("a banned key logged in (told %q)", told)
	}
	return told
}

// TestAdminConsoleRefusesEveryoneElse: a player who is not an admin is refused every
// admin command, with a non-zero exit status, and nothing changes.
func TestAdminConsoleRefusesEveryoneElse(t *testing.T) {
	admin, vic, other := e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })
	s.FromManyAddresses() // more commands than one address may open connections for at once
	named(t, s, vic, "Vic")
	for _, cmd := range []string{"admin", "admin bans", "admin players", "admin ban key " + vic.Fingerprint() + " spam",
		"admin mute " + vic.Fingerprint() + " loud", "admin broadcast hello", "admin audit"} {
		errOut := mustFail(t, s, other, cmd, "")
		wantHas(t, cmd, errOut, "only the server's admins")
		guestOut := mustFail(t, s, e2e.Guest, cmd, "")
		wantHas(t, cmd+" as a guest", guestOut, "only the server's admins")
	}
	if out := mustRun(t, s, admin, "admin bans", ""); out != "" {
		t.Errorf("bans after refusals: %q", out)
	}
	if out := mustRun(t, s, admin, "admin mutes", ""); out != "" {
		t.Errorf("mutes after refusals: %q", out)
	}
	if out := mustRun(t, s, admin, "admin audit", ""); out != "" {
		t.Errorf("audit log after refusals: %q", out)
	}
}

// TestAdminConsoleRefusesBadInput: every bad command says what is wrong and changes
// nothing.
func TestAdminConsoleRefusesBadInput(t *testing.T) {
	admin, admin2, vic, stranger := e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint(), admin2.Fingerprint()} })
	s.FromManyAddresses()
	named(t, s, vic, "Vic")
	named(t, s, admin2, "Boss")
	fp := vic.Fingerprint()
	for cmd, want := range map[string]string{
		"admin ban key SHA256:nonsense spam":             "not a key fingerprint",
		"admin ban key " + stranger.Fingerprint() + " x": "has been here",
		"admin ban key " + admin.Fingerprint() + " x":    "cannot ban yourself",
		"admin ban key " + admin2.Fingerprint() + " x":   "an admin's",
		"admin ban key " + fp:                            "give a reason",
		"admin ban key " + fp + " for 0m spam":           "out of range",
		"admin ban key " + fp + " for 300w spam":         "out of range",
		"admin ban key " + fp + " for soon spam":         "not a duration",
		"admin ban addr 203.0.113.0/33 flood":            "not an address or a CIDR",
		"admin ban addr 2001:db8::g/32 flood":            "not an address or a CIDR",
		"admin ban addr 127.0.0.0/8 flood":               "your own address",
		"admin ban nick Vic spam":                        "ban what?",
		"admin unban 99":                                 "no ban 99",
		"admin unban x":                                  "not a ban's ID",
		"admin unmute " + fp:                             "is not muted",
		"admin mute " + fp:                               "give a reason",
		"admin close ZZZZ go away":                       "no table",
		"admin close ZZZZ":                               "close CODE MESSAGE",
		"admin frobnicate":                               "unknown command",
		"admin audit many":                               "not a count",
	} {
		wantHas(t, cmd, mustFail(t, s, admin, cmd, ""), want)
	}
	for _, list := range []string{"admin bans", "admin mutes", "admin audit"} {
		if out := mustRun(t, s, admin, list, ""); out != "" {
			t.Errorf("%s after refusals: %q", list, out)
		}
	}
}

// TestAdminBansAKey: a ban ends the banned player's live session with the message, is
// refused at login with why and until when, lists, audits, and lifts; other players go
// on.
func TestAdminBansAKey(t *testing.T) {
	admin, vic, ann := e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })
	live := named(t, s, vic, "Vic")
	bystander := named(t, s, ann, "Ann")
	fp := vic.Fingerprint()

	players := mustRun(t, s, admin, "admin players", "")
	wantHas(t, "players", players, "Vic\t"+fp+"\t127.0.0.1\t", "Ann\t"+ann.Fingerprint())

	out := mustRun(t, s, admin, "admin ban key "+fp+" for 2h spamming the chat", "")
	wantHas(t, "ban", out, "ban 1: key "+fp+" until ", "spamming the chat", "(1 session ended)")
	bye := until(live, "bye")
	wantHas(t, "the live session's goodbye", bye["reason"].(string), "Your key is banned", "spamming the chat", "It ends ")

	before := metric(t, s, `parlor_refused_total{reason="banned"}`)
	told := refusedAtLogin(t, s, vic)
	wantHas(t, "login of a banned key", told, "Your key is banned from this parlor server: spamming the chat. It ends ")
	if after := metric(t, s, `parlor_refused_total{reason="banned"}`); after != before+1 {
		t.Errorf("refused banned = %v after a banned key's login, want %v", after, before+1)
	}
	if told, err := s.TryLogin(t, ann); err != nil {
		t.Errorf("another key was refused: %v (told %q)", err, told)
	} else if told != "" {
		t.Errorf("another key was told %q at login", told)
	}
	mustRun(t, s, ann, "help", "") // others are unaffected
	bystander.Send(map[string]any{"op": "games"})
	bystander.Expect("games")

	wantHas(t, "bans", mustRun(t, s, admin, "admin bans", ""), "1\tkey\t"+fp+"\tuntil ", admin.Fingerprint(), "spamming the chat")
	wantHas(t, "audit", mustRun(t, s, admin, "admin audit", ""), admin.Fingerprint()+"\tban\tkey "+fp+"\tspamming the chat")

	wantHas(t, "unban", mustRun(t, s, admin, "admin unban 1", ""), "ban 1 lifted")
	mustRun(t, s, vic, "help", "")
	audit := strings.Split(strings.TrimSpace(mustRun(t, s, admin, "admin audit 1", "")), "\n")
	if len(audit) != 1 || !strings.Contains(audit[0], "\tunban\t1") {
		t.Errorf("audit 1 = %q, want the unban alone", audit)
	}
}

// TestAdminMuteBroadcastClose: mutes list and lift; a broadcast reaches every live
// session; closing a table tells its players the operator's message.
func TestAdminMuteBroadcastClose(t *testing.T) {
	admin, vic := e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })
	a := named(t, s, vic, "Vic")
	fp := vic.Fingerprint()
	wantHas(t, "mute", mustRun(t, s, admin, "admin mute "+fp+" for 1h shouting", ""), "muted "+fp+" until ", "shouting")
	wantHas(t, "mutes", mustRun(t, s, admin, "admin mutes", ""), fp+"\tuntil ", "shouting")
	wantHas(t, "unmute", mustRun(t, s, admin, "admin unmute "+fp, ""), "unmuted "+fp)
	if out := mustRun(t, s, admin, "admin mutes", ""); out != "" {
		t.Errorf("mutes after unmute: %q", out)
	}

	wantHas(t, "broadcast", mustRun(t, s, admin, "admin broadcast Restart at noon", ""), "sent to 1 session")
	if got := until(a, "broadcast"); got["text"] != "Restart at noon" {
		t.Errorf("broadcast event = %v", got)
	}

	a.Send(map[string]any{"op": "create", "game": "topfive"})
	code := until(a, "joined")["code"].(string)
	wantHas(t, "tables", mustRun(t, s, admin, "admin tables", ""), code+"\ttopfive\t")
	wantHas(t, "close", mustRun(t, s, admin, "admin close "+code+" Please keep it friendly", ""), "closed "+code)
	left := until(a, "left")
	wantHas(t, "left", left["reason"].(string), "Please keep it friendly")
	wantHas(t, "audit", mustRun(t, s, admin, "admin audit", ""), "\tclose\t"+code+"\tPlease keep it friendly", "\tbroadcast\t-\tRestart at noon")
}

// TestBannedAddressIsRefusedBeforeTheKeyExchange: a banned address's live sessions end,
// and its new connections are closed before the key exchange and counted.
func TestBannedAddressIsRefusedBeforeTheKeyExchange(t *testing.T) {
	admin, vic := e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })
	s.FromManyAddresses() // the admin and the victim come from different addresses
	live := named(t, s, vic, "Vic")
	var addr string
	for _, line := range strings.Split(mustRun(t, s, admin, "admin players", ""), "\n") {
		if f := strings.Split(line, "\t"); len(f) > 2 && f[1] == vic.Fingerprint() {
			addr = f[2]
		}
	}
	if addr == "" {
		t.Fatal("the victim is not in the list of players")
	}
	wantHas(t, "ban addr", mustRun(t, s, admin, "admin ban addr "+addr+"/32 flooding", ""), "addr "+addr+"/32 for good: flooding", "(1 session ended)")
	wantHas(t, "bye", until(live, "bye")["reason"].(string), "Your address is banned", "flooding")

	before := metric(t, s, `parlor_refused_total{reason="banned"}`)
	if _, err := sshterm.Dial(s.AddrString(), "vic", vic, net.ParseIP(addr), 5*time.Second); err == nil {
		t.Fatal("a banned address got through the key exchange")
	}
	if after := metric(t, s, `parlor_refused_total{reason="banned"}`); after != before+1 {
		t.Errorf("refused banned = %v, want %v", after, before+1)
	}
	// Another address (a new one for every dial here) still gets in.
	mustRun(t, s, vic, "help", "")
}

// TestBansSurviveARestart: a ban stored in SQLite holds after the server restarts.
func TestBansSurviveARestart(t *testing.T) {
	admin, vic := e2e.NewKey(t), e2e.NewKey(t)
	open := sqliteOpener(t)
	edit := func(_ int, c *server.Config) { c.Admins = []string{admin.Fingerprint()} }
	st := open()
	s := e2e.StartNodes(t, []store.Store{st}, edit)[0]
	named(t, s, vic, "Vic").Close()
	mustRun(t, s, admin, "admin ban key "+vic.Fingerprint()+" cheating", "")
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	_ = st.Close()

	st = open()
	t.Cleanup(func() { _ = st.Close() })
	s = e2e.StartNodes(t, []store.Store{st}, edit)[0]
	wantHas(t, "after the restart", refusedAtLogin(t, s, vic), "Your key is banned from this parlor server: cheating. It is for good.")
	wantHas(t, "bans after the restart", mustRun(t, s, admin, "admin bans", ""), "\tkey\t"+vic.Fingerprint()+"\tforever\t")
}

// TestClusterBanHoldsOnEveryNode: a ban made on one node refuses a login on another, and
// ends the banned player's session there; a broadcast reaches every node's sessions.
func TestClusterBanHoldsOnEveryNode(t *testing.T) {
	admin, vic := e2e.NewKey(t), e2e.NewKey(t)
	c := startClusterWith(t, 2, func(_ int, cfg *server.Config) { cfg.Admins = []string{admin.Fingerprint()} })
	live := named(t, c.nodes[1], vic, "Vic")
	mustRun(t, c.nodes[0], admin, "admin ban key "+vic.Fingerprint()+" for 1d abuse", "")
	wantHas(t, "bye on the other node", until(live, "bye")["reason"].(string), "Your key is banned", "abuse")
	wantHas(t, "login on the other node", refusedAtLogin(t, c.nodes[1], vic), "Your key is banned from this parlor server: abuse.")

	// A broadcast made on one node reaches the sessions of every node.
	ann := named(t, c.nodes[1], e2e.NewKey(t), "Ann")
	wantHas(t, "broadcast", mustRun(t, c.nodes[0], admin, "admin broadcast Maintenance tonight", ""), "sent to every node")
	if got := until(ann, "broadcast"); got["text"] != "Maintenance tonight" {
		t.Errorf("broadcast on the other node = %v", got)
	}

	// An admin on one node closes a table another node runs.
	ann.Send(map[string]any{"op": "create", "game": "topfive"})
	code := until(ann, "joined")["code"].(string)
	wantHas(t, "close elsewhere", mustRun(t, c.nodes[0], admin, "admin close "+code+" Closing early", ""), "closed "+code)
	if left := until(ann, "left"); left["why"] != "closed" || !strings.Contains(fmt.Sprint(left["reason"]), "Closing early") {
		t.Errorf("left = %v: the players are told the operator's message", left)
	}
}

// TestTimedBansAndMutesExpire: a timed ban stops refusing its key once its time has
// passed on the server's clock, and drops out of the list; so does a timed mute.
func TestTimedBansAndMutesExpire(t *testing.T) {
	admin, vic := e2e.NewKey(t), e2e.NewKey(t)
	clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()}; c.Clock = clock })
	named(t, s, vic, "Vic").Close()
	fp := vic.Fingerprint()
	wantHas(t, "ban", mustRun(t, s, admin, "admin ban key "+fp+" for 2h cool off", ""), "until 2026-11-29 14:00 UTC")
	mustRun(t, s, admin, "admin mute "+fp+" for 1d shouting", "")
	wantHas(t, "banned", refusedAtLogin(t, s, vic), "cool off. It ends 2026-11-29 14:00 UTC.")

	clock.Advance(2*time.Hour - time.Minute)
	refusedAtLogin(t, s, vic)
	clock.Advance(time.Minute)
	mustRun(t, s, vic, "help", "")
	if out := mustRun(t, s, admin, "admin bans", ""); out != "" {
		t.Errorf("bans after the ban ended: %q", out)
	}
	wantHas(t, "mutes", mustRun(t, s, admin, "admin mutes", ""), fp+"\tuntil 2026-11-30T12:00:00Z")
	clock.Advance(22 * time.Hour)
	if out := mustRun(t, s, admin, "admin mutes", ""); out != "" {
		t.Errorf("mutes after the mute ended: %q", out)
	}
}

// TestAdminOverTheAPI: the API's admin op runs the console's commands for an admin and
// refuses everyone else.
func TestAdminOverTheAPI(t *testing.T) {
	admin, vic := e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })
	v := named(t, s, vic, "Vic")
	a := named(t, s, admin, "Boss")
	v.Send(map[string]any{"op": "admin", "id": 1, "args": []string{"bans"}})
	if e := until(v, "error"); !strings.Contains(e["error"].(string), "only the server's admins") {
		t.Errorf("a player's admin op: %v", e)
	}
	a.Send(map[string]any{"op": "admin", "id": 2, "args": []string{"mute", vic.Fingerprint(), "for", "1h", "shouting"}})
	got := until(a, "admin")
	if lines, _ := got["lines"].([]any); len(lines) != 1 || !strings.Contains(lines[0].(string), "muted "+vic.Fingerprint()) {
		t.Errorf("admin mute over the API = %v", got)
	}
	a.Send(map[string]any{"op": "admin", "id": 3, "args": []string{"ban", "addr", "10.0.0.0/40", "x"}})
	if e := until(a, "error"); !strings.Contains(e["error"].(string), "not an address or a CIDR") {
		t.Errorf("a bad CIDR over the API: %v", e)
	}
	a.Send(map[string]any{"op": "admin", "id": 4, "args": []string{"bans"}})
	if got := until(a, "admin"); len(got["lines"].([]any)) != 0 {
		t.Errorf("bans after a refusal = %v", got)
	}
}

// TestAdminScreen: an admin's lobby offers the admin screen (nobody else's does); it
// lists the players online, bans the selected one's key with a reason typed at its
// prompt, lists the ban and lifts it; a player is shown a broadcast on their screen, and
// a banned player's screen ends with the message.
func TestAdminScreen(t *testing.T) {
	admin := e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })
	ann, annKey := newPlayer(t, s, "Ann")
	if strings.Contains(ann.Screen(), "A admin") {
		t.Errorf("a player's lobby offers the admin screen:\n%s", ann.Screen())
	}
	boss := s.Connect(t, "boss", admin, "", 100, 30)
	boss.WaitFor("Welcome to parlor")
	boss.Press("ctrl+u", "Boss", "enter")
	boss.WaitFor("Open tables", "A admin")
	boss.Press("A")
	boss.WaitFor("parlor · admin", "[players]", "Ann  "+annKey.Fingerprint())

	mustRun(t, s, admin, "admin broadcast Tea break in five", "")
	ann.WaitFor("From the operators: Tea break in five")

	for !strings.Contains(boss.Screen(), "› Ann") {
		boss.Press("down")
		boss.WaitFor("›")
	}
	boss.Press("b")
	boss.WaitFor("[ban key " + annKey.Fingerprint()[:20])
	boss.Paste("rude names")
	boss.Press("enter")
	boss.WaitFor("ban 1: key " + annKey.Fingerprint()[:20])
	if err := ann.Ended(); err == nil {
		t.Error("the banned player's session ended with status 0")
	}
	if !strings.Contains(ann.Screen(), "Your key is banned from this parlor server: rude names.") {
		t.Errorf("the banned player's screen:\n%s", ann.Screen())
	}

	boss.Press("tab", "tab", "tab")
	boss.WaitFor("[bans]", "› 1  key  "+annKey.Fingerprint())
	boss.Press("u")
	boss.WaitFor("ban 1 lifted", "Nothing to list.")
	boss.Press(":")
	boss.Paste("frobnicate")
	boss.Press("enter")
	boss.WaitFor("unknown command")
	boss.Press("esc")
	boss.WaitFor("Open tables")
}

// TestClusterAdminListsEveryNodesPlayers: in a cluster, admin players lists the players
// of every node — name, key, address, client, tables, and the node — and an address
// banned on one node ends the session it covers on another.
func TestClusterAdminListsEveryNodesPlayers(t *testing.T) {
	admin, vic, ann := e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t)
	c := startClusterWith(t, 2, func(_ int, cfg *server.Config) { cfg.Admins = []string{admin.Fingerprint()} })
	c.nodes[1].FromManyAddresses() // Vic comes from an address of his own
	v := named(t, c.nodes[1], vic, "Vic")
	v.Send(map[string]any{"op": "create", "game": "topfive"})
	code := until(v, "joined")["code"].(string)
	a := named(t, c.nodes[0], ann, "Ann")
	a.Send(map[string]any{"op": "join", "code": code})
	until(a, "joined")

	// The admin's API connection asks until node-1's presence (its players, and that
	// Ann sits at its table) has reached node-0.
	op := named(t, c.nodes[0], admin, "Boss")
	var vicLine, annLine string
	deadline := time.Now().Add(e2e.Wait)
	for id := 1; time.Now().Before(deadline) && (vicLine == "" || !strings.Contains(annLine, code)); id++ {
		op.Send(map[string]any{"op": "admin", "id": id, "args": []string{"players"}})
		vicLine, annLine = "", ""
		lines, _ := until(op, "admin")["lines"].([]any)
		for _, l := range lines {
			switch line := l.(string); {
			case strings.HasPrefix(line, "Vic\t"):
				vicLine = line
			case strings.HasPrefix(line, "Ann\t"):
				annLine = line
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	f := strings.Split(vicLine, "\t")
	if len(f) != 7 || f[1] != vic.Fingerprint() || !strings.HasPrefix(f[2], "127.1.") || !strings.HasPrefix(f[3], "SSH-2.0-") ||
		f[4] != "api" || f[5] != code || f[6] != "node-1" {
		t.Fatalf("Vic's line on node-0 = %q: want name, key, address, client, api, %s, node-1", vicLine, code)
	}
	wantHas(t, "Ann's line", annLine, "Ann\t"+ann.Fingerprint()+"\t127.0.0.1\t", "\tapi\t"+code+"\tnode-0")

	wantHas(t, "ban addr", mustRun(t, c.nodes[0], admin, "admin ban addr "+f[2]+" flooding", ""), "for good: flooding")
	wantHas(t, "bye on the other node", until(v, "bye")["reason"].(string), "Your address is banned", "flooding")
	a.Send(map[string]any{"op": "games"})
	a.Expect("games") // Ann, at another address, plays on
}
