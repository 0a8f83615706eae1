package server

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/ssh"

	"parlor/cluster"
	"parlor/lobby"
	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

// The operator console: one dispatcher (Server.adminRun) for "ssh host admin …", the
// API's "admin" op and the TUI's admin screen, so the three cannot drift. Every command
// answers with lines, one per result; a refusal is an error and changes nothing; every
// change writes an audit entry.

const adminUsage = `players                          the players online: name, key, address, client, tables
tables                           the open tables
reports [N]                      the newest N reports (default 20)
bans                             the bans in force
mutes                            the server-wide mutes in force
ban key SHA256:… [for D] REASON  ban a key (D: 30m, 2h, 1d, 1w; none: for good)
ban addr CIDR [for D] REASON     ban an address or range, IPv4 or IPv6 (203.0.113.0/24)
unban ID                         lift a ban
mute SHA256:… [for D] REASON     mute a player everywhere: their chat and free text are refused
unmute SHA256:…                  lift a mute
close CODE MESSAGE               close a table, telling its players MESSAGE
broadcast MESSAGE                a line to everyone online
audit [N]                        the newest N moderation actions (default 20)
help                             this text`

// Bounds of a timed ban or mute.
const (
	minModeration = time.Minute
	maxModeration = 5 * 365 * 24 * time.Hour
)

var (
	errNotAdmin = errors.New("admin: only the server's admins (--admins) may use admin commands")
	fingerprint = regexp.MustCompile(`^SHA256:[A-Za-z0-9+/]{43}$`)
	durationRe  = regexp.MustCompile(`^([0-9]{1,6})(m|h|d|w)$`)
)

// serveAdmin runs "ssh host admin …": the lines on standard output and status 0, or the
// refusal on standard error and status 1.
func (s *Server) serveAdmin(sess ssh.Session, args []string) {
	player, _ := s.identify(sess)
	ctx, cancel := context.WithTimeout(sess.Context(), 30*time.Second)
	defer cancel()
	lines, err := s.adminRun(ctx, player, args)
	if err != nil {
		fail(sess, err.Error())
		return
	}
	for _, l := range lines {
		fmt.Fprintln(sess, l)
	}
	_ = sess.Exit(0)
}

// console is an admin's session.Console: the admin screen runs the same commands.
type console struct {
	s     *Server
	admin lobby.Player
}

// Admin runs one console command.
func (c console) Admin(ctx context.Context, args []string) ([]string, error) {
	return c.s.adminRun(ctx, c.admin, args)
}

// adminRun runs one console command for an admin.
func (s *Server) adminRun(ctx context.Context, admin lobby.Player, args []string) ([]string, error) {
	if admin.Guest || !slices.Contains(s.cfg.Admins, admin.ID) {
		return nil, errNotAdmin
	}
	if len(args) == 0 {
		args = []string{"help"}
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "help":
		return strings.Split(adminUsage, "\n"), nil
	case "players":
		return s.adminPlayers(ctx), nil
	case "tables":
		return s.adminTables(admin), nil
	case "reports":
		n, err := countArg(rest)
		if err != nil {
			return nil, err
		}
		return s.adminReports(ctx, n)
	case "bans":
		return s.adminBans(ctx)
	case "mutes":
		return s.adminMutes(ctx)
	case "audit":
		n, err := countArg(rest)
		if err != nil {
			return nil, err
		}
		return s.adminAudit(ctx, n)
	case "ban":
		return s.adminBan(ctx, admin, rest)
	case "unban":
		return s.adminUnban(ctx, admin, rest)
	case "mute":
		return s.adminMute(ctx, admin, rest)
	case "unmute":
		return s.adminUnmute(ctx, admin, rest)
	case "close":
		return s.adminClose(ctx, admin, rest)
	case "broadcast":
		return s.adminBroadcast(ctx, admin, rest)
	}
	return nil, fmt.Errorf("admin: unknown command %q: try admin help", playertext.Short(verb, 20))
}

// countArg reads the optional N of "audit [N]" and "reports [N]".
func countArg(rest []string) (int, error) {
	switch len(rest) {
	case 0:
		return 20, nil
	case 1:
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 1 || n > 10000 {
			return 0, fmt.Errorf("admin: %q is not a count from 1 to 10000", playertext.Short(rest[0], 20))
		}
		return n, nil
	}
	return 0, errors.New("admin: too many words: give at most a count")
}

// timed reads "[for D] REASON…": until is zero for good.
func timed(now time.Time, words []string) (until time.Time, reason string, err error) {
	if len(words) >= 2 && words[0] == "for" {
		d, err := parseDuration(words[1])
		if err != nil {
			return time.Time{}, "", err
		}
		until, words = now.Add(d), words[2:]
	}
	reason = playertext.Short(strings.Join(words, " "), 200)
	if strings.TrimSpace(reason) == "" {
		return time.Time{}, "", errors.New("admin: give a reason: it is told to the player and kept in the audit log")
	}
	return until, reason, nil
}

// parseDuration reads 30m, 2h, 1d, 1w, within the bounds of a timed ban or mute.
func parseDuration(s string) (time.Duration, error) {
	m := durationRe.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("admin: %q is not a duration: write a number and m, h, d or w (30m, 2h, 1d, 1w)", playertext.Short(s, 20))
	}
	n, _ := strconv.Atoi(m[1])
	unit := map[string]time.Duration{"m": time.Minute, "h": time.Hour, "d": 24 * time.Hour, "w": 7 * 24 * time.Hour}[m[2]]
	d := time.Duration(n) * unit
	if d < minModeration || d > maxModeration {
		return 0, fmt.Errorf("admin: %s is out of range: from 1m to 5 years (260w); leave \"for\" out for good", s)
	}
	return d, nil
}

// knownKey checks a fingerprint's form, and that its player has been here.
func (s *Server) knownKey(ctx context.Context, fp string) error {
	if !fingerprint.MatchString(fp) {
		return fmt.Errorf("admin: %q is not a key fingerprint: write it as ssh-keygen -lf prints it (SHA256:…, 50 characters)", playertext.Short(fp, 60))
	}
	if _, err := s.store.Player(ctx, fp); errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("admin: no player with key %s has been here", fp)
	} else if err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	return nil
}

func (s *Server) audit(ctx context.Context, by, action, target, reason string) {
	err := s.store.AddAudit(ctx, store.AuditEntry{At: s.mod.now(), By: by, Action: action, Target: target, Reason: reason})
	if s.wrote(err) != nil {
		s.log.Error("could not write the audit log", "action", action, "target", target, "err", err)
	}
	s.log.Info("moderation", "by", by, "action", action, "target", target, "reason", reason)
}

func (s *Server) adminBan(ctx context.Context, admin lobby.Player, rest []string) ([]string, error) {
	if len(rest) < 2 {
		return nil, errors.New("admin: ban key SHA256:… [for D] REASON, or ban addr CIDR [for D] REASON")
	}
	kind, target := rest[0], rest[1]
	now := s.mod.now()
	until, reason, err := timed(now, rest[2:])
	if err != nil {
		return nil, err
	}
	switch kind {
	case store.BanKey:
		switch {
		case target == admin.ID:
			return nil, errors.New("admin: you cannot ban yourself")
		case slices.Contains(s.cfg.Admins, target):
			return nil, errors.New("admin: that key is an admin's: take it out of --admins first")
		}
		if err := s.knownKey(ctx, target); err != nil {
			return nil, err
		}
	case store.BanAddr:
		p, err := parseCIDR(target)
		if err != nil {
			return nil, err
		}
		target = p.String()
		if a, err := netip.ParseAddr(admin.Addr); err == nil && p.Contains(a.Unmap()) {
			return nil, fmt.Errorf("admin: %s holds your own address: you cannot ban yourself", target)
		}
	default:
		return nil, fmt.Errorf("admin: ban what? ban key SHA256:… or ban addr CIDR, not %q", playertext.Short(kind, 20))
	}
	b, err := s.store.AddBan(ctx, store.Ban{Kind: kind, Target: target, Reason: reason, By: admin.ID, At: now, Until: until})
	if s.wrote(err) != nil {
		return nil, fmt.Errorf("admin: the ban was not stored: %w", err)
	}
	s.audit(ctx, admin.ID, "ban", kind+" "+target, reason)
	s.mod.enforced(b.ID) // here, below, so the count says how many sessions it ended
	if err := s.mod.refresh(ctx); err != nil {
		s.log.Warn("could not read the bans again", "err", err)
	}
	ended := rules.Count(s.endCovered(b), "session") + " ended"
	if s.node != nil {
		// The other nodes read the ban within a second and end their own sessions.
		ended += " on this node; the other nodes end theirs within a second"
	}
	return []string{fmt.Sprintf("ban %d: %s %s %s: %s (%s)", b.ID, kind, target, untilPhrase(until), reason, ended)}, nil
}

// parseCIDR reads an address range, or one address as a range of one.
func parseCIDR(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return p.Masked(), nil
	}
	if a, err := netip.ParseAddr(s); err == nil && a.Zone() == "" {
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	return netip.Prefix{}, fmt.Errorf("admin: %q is not an address or a CIDR range (203.0.113.0/24, 2001:db8::/32)", playertext.Short(s, 60))
}

func (s *Server) adminUnban(ctx context.Context, admin lobby.Player, rest []string) ([]string, error) {
	if len(rest) != 1 {
		return nil, errors.New("admin: unban ID (see admin bans)")
	}
	id, err := strconv.ParseInt(rest[0], 10, 64)
	if err != nil || id < 1 {
		return nil, fmt.Errorf("admin: %q is not a ban's ID (see admin bans)", playertext.Short(rest[0], 20))
	}
	err = s.store.RemoveBan(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("admin: there is no ban %d", id)
	}
	if s.wrote(err) != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	s.audit(ctx, admin.ID, "unban", strconv.FormatInt(id, 10), "")
	_ = s.mod.refresh(ctx)
	return []string{fmt.Sprintf("ban %d lifted", id)}, nil
}

func (s *Server) adminMute(ctx context.Context, admin lobby.Player, rest []string) ([]string, error) {
	if len(rest) < 1 {
		return nil, errors.New("admin: mute SHA256:… [for D] REASON")
	}
	target := rest[0]
	if target == admin.ID {
		return nil, errors.New("admin: you cannot mute yourself")
	}
	if err := s.knownKey(ctx, target); err != nil {
		return nil, err
	}
	now := s.mod.now()
	until, reason, err := timed(now, rest[1:])
	if err != nil {
		return nil, err
	}
	if err := s.wrote(s.store.SetMute(ctx, store.Mute{Player: target, Reason: reason, By: admin.ID, At: now, Until: until})); err != nil {
		return nil, fmt.Errorf("admin: the mute was not stored: %w", err)
	}
	s.audit(ctx, admin.ID, "mute", target, reason)
	_ = s.mod.refresh(ctx)
	return []string{fmt.Sprintf("muted %s %s: %s", target, untilPhrase(until), reason)}, nil
}

func (s *Server) adminUnmute(ctx context.Context, admin lobby.Player, rest []string) ([]string, error) {
	if len(rest) != 1 {
		return nil, errors.New("admin: unmute SHA256:…")
	}
	err := s.store.RemoveMute(ctx, rest[0])
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("admin: %s is not muted", playertext.Short(rest[0], 60))
	}
	if s.wrote(err) != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	s.audit(ctx, admin.ID, "unmute", rest[0], "")
	_ = s.mod.refresh(ctx)
	return []string{"unmuted " + rest[0]}, nil
}

func (s *Server) adminClose(ctx context.Context, admin lobby.Player, rest []string) ([]string, error) {
	if len(rest) < 2 {
		return nil, errors.New("admin: close CODE MESSAGE: the message is what the table's players are told")
	}
	code := strings.ToUpper(rest[0])
	msg := playertext.Short(strings.Join(rest[1:], " "), 200)
	notice := lobby.Closed{Why: lobby.WhyClosed, Text: "An operator closed this table: " + msg}
	err := s.lobby.CloseTable(code, notice)
	if errors.Is(err, lobby.ErrNoTable) && s.node != nil {
		// Another node runs it: an admin holds the host's controls at every table.
		err = s.closeElsewhere(admin, code, msg)
	}
	if err != nil {
		return nil, fmt.Errorf("admin: close %s: %w", code, err)
	}
	s.audit(ctx, admin.ID, "close", code, msg)
	return []string{"closed " + code}, nil
}

// closeElsewhere closes a table another node of the cluster runs, as its host would,
// with the operator's message.
func (s *Server) closeElsewhere(admin lobby.Player, code, msg string) error {
	place, err := s.lobby.Watch(admin, code)
	if err != nil {
		return err
	}
	_, err = place.Call(lobby.CloseTable{Message: msg})
	if err != nil {
		_, _ = place.Call(lobby.Leave{})
	}
	return err
}

func (s *Server) adminBroadcast(ctx context.Context, admin lobby.Player, rest []string) ([]string, error) {
	msg := strings.TrimSpace(playertext.Short(strings.Join(rest, " "), 200))
	if msg == "" {
		return nil, errors.New("admin: broadcast MESSAGE")
	}
	if s.node != nil {
		// Every node hands it to its own sessions, this one too (broadcastHere).
		if err := s.node.Broadcast(msg); err != nil {
			return nil, fmt.Errorf("admin: the broadcast was not sent: %w", err)
		}
		s.audit(ctx, admin.ID, "broadcast", "", msg)
		return []string{"sent to every node"}, nil
	}
	n := s.broadcastHere(msg)
	s.audit(ctx, admin.ID, "broadcast", "", msg)
	return []string{fmt.Sprintf("sent to %s", rules.Count(n, "session"))}, nil
}

// broadcastHere shows msg to every session of this server; it returns how many.
func (s *Server) broadcastHere(msg string) int {
	n := 0
	for _, ls := range s.live() {
		if ls.broadcast != nil {
			ls.broadcast(msg)
			n++
		}
	}
	return n
}

// adminPlayers lists the players online: this server's, or in a cluster every node's,
// with the node as a last column.
func (s *Server) adminPlayers(ctx context.Context) []string {
	if s.node == nil {
		return playerLines(s.localSessions(ctx), false)
	}
	all, silent, err := s.node.Roster(ctx)
	if err != nil || len(silent) > 0 {
		s.log.Warn("admin players: some nodes did not answer; their players are not listed", "nodes", silent, "err", err)
	}
	if err != nil {
		all = s.localSessions(ctx)
	}
	return playerLines(all, true)
}

// localSessions describes this server's sessions for the operators' list.
func (s *Server) localSessions(ctx context.Context) []cluster.Session {
	var out []cluster.Session
	for _, ls := range s.live() {
		name := ls.name // what the session started with; the name a key picked since is stored
		if !strings.HasPrefix(ls.id, "guest:") {
			if p, err := s.store.Player(ctx, ls.id); err == nil {
				name = p.Name
			}
		}
		out = append(out, cluster.Session{Name: name, ID: ls.id, Addr: ls.addr, Client: ls.client, Kind: ls.kind,
			Tables: s.lobby.SeatedAt(ls.id)})
	}
	return out
}

// playerLines is the players list, one sorted line each; withNode adds the node.
func playerLines(sessions []cluster.Session, withNode bool) []string {
	out := make([]string, 0, len(sessions))
	for _, ss := range sessions {
		f := []string{orDash(ss.Name), ss.ID, ss.Addr, orDash(ss.Client), ss.Kind, orDash(strings.Join(ss.Tables, ","))}
		if withNode {
			f = append(f, ss.Node)
		}
		out = append(out, strings.Join(f, "\t"))
	}
	slices.Sort(out)
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (s *Server) adminTables(admin lobby.Player) []string {
	var out []string
	for _, t := range s.lobby.Tables(admin) {
		var names []string
		for _, seat := range t.Seats {
			if seat.Name != "" {
				names = append(names, seat.Name)
			}
		}
		vis := "public"
		if t.Private {
			vis = "private"
		}
		out = append(out, strings.Join([]string{t.Code, t.Game, t.State, vis, orDash(strings.Join(names, ","))}, "\t"))
	}
	return out
}

func (s *Server) adminReports(ctx context.Context, n int) ([]string, error) {
	rs, err := s.store.Reports(ctx, n)
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%d\t%s\t%s\t%s %s\t%s %s\t%s", r.ID, stamp(r.At), r.Table, r.ByName, r.ByID, r.AboutName, r.AboutID, r.Reason))
	}
	return out, nil
}

func (s *Server) adminBans(ctx context.Context) ([]string, error) {
	bs, err := s.store.Bans(ctx, s.mod.now())
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	var out []string
	for _, b := range bs {
		out = append(out, fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s", b.ID, b.Kind, b.Target, endText(b.Until), b.By, b.Reason))
	}
	return out, nil
}

func (s *Server) adminMutes(ctx context.Context) ([]string, error) {
	ms, err := s.store.Mutes(ctx, s.mod.now())
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%s\t%s\t%s\t%s", m.Player, endText(m.Until), m.By, m.Reason))
	}
	return out, nil
}

func (s *Server) adminAudit(ctx context.Context, n int) ([]string, error) {
	es, err := s.store.Audit(ctx, n)
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	var out []string
	for _, e := range es {
		out = append(out, strings.Join([]string{stamp(e.At), e.By, e.Action, orDash(e.Target), orDash(e.Reason)}, "\t"))
	}
	return out, nil
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// endText is a ban's or mute's end in a list: a time, or "forever".
func endText(until time.Time) string {
	if until.IsZero() {
		return "forever"
	}
	return "until " + stamp(until)
}

// untilPhrase is how long a ban or a mute lasts, in the console's answer.
func untilPhrase(until time.Time) string {
	if until.IsZero() {
		return "for good"
	}
	return "until " + until.UTC().Format("2006-01-02 15:04 UTC")
}
