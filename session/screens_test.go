package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parlor/assets"
	_ "parlor/games"
	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/rules/rulestest"
	"parlor/session/gameui"
	"parlor/session/gameui/gameuitest"
)

// harness drives a root model directly, without a program: keys in, frames out.
type harness struct {
	t     *testing.T
	ctx   context.Context
	m     *Model
	l     *lobby.Lobby
	clock *testclock.Clock // the lobby's and the session's, moved by the test
}

func newHarness(t *testing.T, name string, w, h int) *harness {
	t.Helper()
	return newHarnessOn(t, name, w, h, lobby.Config{})
}

// newHarnessOn is newHarness on a lobby of cfg, with the built-in content and a test clock.
func newHarnessOn(t *testing.T, name string, w, h int, cfg lobby.Config) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := testclock.New(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	cfg.Content, cfg.Clock = assets.Load, c
	l := lobby.New(ctx, cfg)
	m := New(ctx, Options{Lobby: l, Player: lobby.Player{ID: "SHA256:" + name, Name: name}, Now: c.Now})
	t.Cleanup(func() {
		m.leaveTable()
		cancel()
		_ = l.Shutdown(context.Background())
	})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return &harness{t: t, ctx: ctx, m: m, l: l, clock: c}
}

func (h *harness) press(keys ...string) {
	for _, k := range keys {
		h.m.Update(gameuitest.Key(k))
	}
}

// lines is the screen as plain text, one string per row.
func (h *harness) lines() []string {
	h.m.dirty = true
	v := h.m.View()
	return strings.Split(ansi.Strip(v.Content), "\n")
}

func (h *harness) screen() string { return strings.Join(h.lines(), "\n") }

// flat is the screen as one line of words: wrapped sentences read whole.
func (h *harness) flat() string { return strings.Join(strings.Fields(h.screen()), " ") }

// pump delivers table updates to the model until cond holds.
func (h *harness) pump(cond func() bool) {
	h.t.Helper()
	for i := 0; i < 200 && !cond(); i++ {
		mem := h.m.table.member
		if mem == nil {
			h.t.Fatal("not at a table")
		}
		ctx, cancel := context.WithTimeout(h.ctx, 50*time.Millisecond)
		u, ok, _ := mem.Next(ctx)
		cancel()
		if ok {
			h.m.Update(updateMsg{mem, u})
		}
	}
	if !cond() {
		h.t.Fatalf("condition never met; screen:\n%s", h.screen())
	}
}

// closeTable closes the player's table and leaves it: a player hosts at most
// lobby.MaxHostedTables open tables, and a started game stays open when its host leaves.
func (h *harness) closeTable() {
	h.t.Helper()
	if mem := h.m.table.member; mem != nil {
		if err := lobby.Run(mem, lobby.CloseTable{}); err != nil {
			h.t.Fatal(err)
		}
		for ok := true; ok; _, ok, _ = mem.Next(h.ctx) { // until the lobby has let it go
		}
	}
	h.m.leaveTable()
}

// sitAt creates a table of game with bots filling it and starts it.
func (h *harness) sitAt(game string, opts rules.Options, players int) {
	h.t.Helper()
	h.m.enter(h.l.Create(h.m.o.Player, game, opts, true))
	for i := 1; i < players; i++ {
		if err := lobby.Run(h.m.table.member, lobby.AddBot{}); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := lobby.Run(h.m.table.member, lobby.Start{}); err != nil {
		h.t.Fatal(err)
	}
	h.pump(func() bool { return h.m.table.showGame() })
}

// checkFrame fails if the frame is not exactly w×h or its footer cuts an entry.
func (h *harness) checkFrame(where string) {
	h.t.Helper()
	lines := h.lines()
	if len(lines) != h.m.height {
		h.t.Fatalf("%s: %d rows, want %d", where, len(lines), h.m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != h.m.width {
			h.t.Fatalf("%s: row %d is %d wide, want %d: %q", where, i, w, h.m.width, l)
		}
	}
	foot := strings.TrimRight(lines[len(lines)-1], " ")
	if strings.HasSuffix(foot, "…") && !strings.HasSuffix(foot, " …") {
		h.t.Errorf("%s: the footer cuts an entry: %q", where, foot)
	}
	if foot == "" {
		h.t.Errorf("%s: no key hints", where)
	}
}

// lastSentence is the last sentence of a rules text.
func lastSentence(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	last := strings.TrimPrefix(lines[len(lines)-1], "- ")
	parts := strings.Split(strings.TrimSuffix(last, "."), ". ")
	return strings.Join(strings.Fields(parts[len(parts)-1]), " ")
}

// scrollToFind pages through the help until text is on screen.
func (h *harness) scrollToFind(text string) bool {
	for i := 0; i < 40; i++ {
		if strings.Contains(h.flat(), text) {
			return true
		}
		h.press("pgdown")
	}
	return strings.Contains(h.flat(), text)
}

func TestHelpScrollsToTheLastSentenceOfEveryGamesRules(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.press("c")
	for i, spec := range h.m.create.games {
		h.m.create.game, h.m.create.opts = i, spec.Defaults()
		h.press("?")
		if !h.m.help {
			t.Fatal("? did not open the help")
		}
		h.checkFrame(spec.Name + " help")
		if !strings.Contains(h.screen(), strings.ToUpper(spec.Name)) {
			t.Errorf("%s: the help does not start with the rules:\n%s", spec.Name, h.screen())
		}
		if !h.scrollToFind(lastSentence(spec.Rules)) {
			t.Errorf("%s: never reached %q:\n%s", spec.Name, lastSentence(spec.Rules), h.screen())
		}
		h.press("end")
		all := strings.Contains(h.screen(), "all shown") // a test game's one paragraph fits
		if !(all || strings.Contains(h.screen(), "100%")) || !strings.Contains(h.screen(), "create the table") {
			t.Errorf("%s: end does not show the keys and 100%%:\n%s", spec.Name, h.screen())
		}
		h.press("home")
		if !(all || strings.Contains(h.screen(), " 0%")) {
			t.Errorf("%s: home does not go back to the top:\n%s", spec.Name, h.screen())
		}
		h.press("esc")

		// The create screen itself scrolls the same rules.
		h.checkFrame(spec.Name + " create")
		if !h.scrollToFind(lastSentence(spec.Rules)) {
			t.Errorf("%s: the create screen never shows %q:\n%s", spec.Name, lastSentence(spec.Rules), h.screen())
		}
	}
}

func TestLobbyHelpExplainsParlorAndListsTheGames(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.press("?")
	h.checkFrame("lobby help")
	if !strings.Contains(h.flat(), "party games with friends over SSH") {
		t.Fatalf("no word about parlor:\n%s", h.screen())
	}
	for _, g := range rules.Games() {
		if !h.scrollToFind("• " + g.Name + " (") {
			t.Errorf("%s is not listed:\n%s", g.Name, h.screen())
		}
	}
}

// The lobby's help tells of packs, and gives the commands from a shell with the port
// players reach the server on.
func TestLobbyHelpGivesTheShellCommands(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.o.SSH = func(flags ...string) string { // as the server gives it
		return strings.Join(append(append([]string{"ssh"}, flags...), "-p", "2299", "HOST"), " ")
	}
	for _, want := range []string{"ssh -t -p 2299 HOST join ABCD", "ssh -p 2299 HOST pack help", "Your own words"} {
		h.press("?") // from the top each time
		found := h.scrollToFind(want)
		h.press("esc")
		if !found {
			t.Errorf("the lobby's help never says %q", want)
		}
	}
}

func TestTableScreenScrollsTheRules(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "talltale", nil, true))
	h.pump(func() bool { return h.m.table.u.Table.Code != "" })
	h.checkFrame("table")
	h.press("tab", "tab") // to the rules panel
	spec, _ := rules.Lookup("talltale")
	found := false
	for i := 0; i < 40 && !found; i++ {
		found = strings.Contains(h.flat(), lastSentence(spec.Rules))
		h.press("pgdown")
	}
	if !found {
		t.Fatalf("the table's rules never reach %q:\n%s", lastSentence(spec.Rules), h.screen())
	}
	h.press("?")
	if !h.scrollToFind("Keys: the table") {
		t.Fatalf("the table's help has no keys:\n%s", h.screen())
	}
}

func TestFootersFitAt80Columns(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.checkFrame("lobby")
	h.press("tab")
	h.checkFrame("lobby code box")
	h.press("esc", "N")
	h.checkFrame("name")
	h.press("esc", "c")
	for range h.m.create.games {
		h.checkFrame("create " + h.m.create.spec().Name)
		h.press("right")
	}
	h.press("esc")
	// Every game, and each variant or mode with screens of its own, with at least three
	// players where it may.
	for _, spec := range rules.Games() {
		for _, tb := range rulestest.Tables(spec) {
			if _, hi := spec.PlayerRange(tb.Options); tb.Players < 3 && hi >= 3 {
				tb.Players = 3
			}
			name := tb.Name(spec)
			h.closeTable()
			h.sitAt(spec.ID, tb.Options, tb.Players)
			h.checkFrame(name + " game")
			h.press("esc")
			h.checkFrame(name + " table during the game")
			h.press("esc", "v")
			h.checkFrame(name + " log")
			h.press("esc", "/")
			h.checkFrame(name + " chat")
			h.press("esc")
		}
	}
}

func TestQuestionMarkTypesInTextBoxesAndF1OpensHelp(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "talltale", nil, true))
	h.pump(func() bool { return h.m.table.u.Table.Code != "" })
	h.press("enter", "w", "h", "y", "?")
	if h.m.help || h.m.table.chat.value() != "why?" {
		t.Fatalf("? in the chat box: help %v, text %q", h.m.help, h.m.table.chat.value())
	}
	if !strings.Contains(h.screen(), "f1 help") {
		t.Fatalf("the chat box does not say which key opens the help:\n%s", h.screen())
	}
	h.m.Update(tea.KeyPressMsg{Code: tea.KeyF1})
	if !h.m.help {
		t.Fatal("f1 did not open the help from a text box")
	}
	h.press("esc")
	if h.m.help || h.m.table.chat.value() != "why?" {
		t.Fatalf("closing the help lost the text: %q", h.m.table.chat.value())
	}
}

func TestStatusClearsAfterAFewSecondsAndOnANewPhase(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.setStatus("slow down: too many messages at once", true)
	h.m.Update(tickMsg(h.clock.Now().Add(time.Second)))
	if h.m.status == "" {
		t.Fatal("the status went away after a second")
	}
	h.m.Update(tickMsg(h.clock.Now().Add(statusFor)))
	if h.m.status != "" {
		t.Fatalf("the status stayed %s", statusFor)
	}

	h.sitAt("topfive", nil, 3)
	h.m.setStatus("an old error", true)
	u := h.m.table.u
	h.m.table.u.View = nil // so the next update is a new phase for the screen
	h.m.Update(updateMsg{h.m.table.member, u})
	if h.m.status != "" {
		t.Fatal("a new phase left the old status over the prompt")
	}
}

func TestHeldArrowKeyNeverTripsTheRateLimit(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("quadrant", nil, 4)
	h.pump(func() bool { return h.m.table.u.View.Head().Phase == qd.PhasePlacement })
	// 20 steps right to the edge, then 30 left: more moves than the limit's burst.
	for i := 0; i < 30; i++ {
		h.press("right")
	}
	for i := 0; i < 30; i++ {
		h.press("left")
		if h.m.statusErr && strings.Contains(h.m.status, "slow down") {
			t.Fatalf("held arrow: %q after %d presses left", h.m.status, i+1)
		}
	}
	if len(h.m.table.pending) > 1 {
		t.Fatalf("moves were not collapsed: %d waiting", len(h.m.table.pending))
	}
	for i := 0; i < 10 && len(h.m.table.pending) > 0; i++ {
		h.clock.Advance(time.Second) // the limit refills
		h.m.Update(retryMsg{h.m.table.member})
	}
	if len(h.m.table.pending) > 0 || h.m.status != "" {
		t.Fatalf("held-back moves not sent: %d pending, status %q", len(h.m.table.pending), h.m.status)
	}
	h.pump(func() bool {
		v, _ := rules.ViewAs[qd.View](h.m.table.u.View)
		for _, tok := range v.Tokens {
			if tok.Seat == h.m.table.seat() {
				return tok.X == qd.MaxX-30
			}
		}
		return false
	})
}

func TestWideNamesInTitleAndNameBox(t *testing.T) {
	for _, name := range []string{"漢字漢字漢字漢字", "🎲 Zoë 🙂"} {
		h := newHarness(t, name, 80, 24)
		title := h.lines()[0]
		if ansi.StringWidth(title) != 80 || !strings.Contains(title, "you are "+name) {
			t.Errorf("title with %q: %q (%d wide)", name, title, ansi.StringWidth(title))
		}
		h.press("N")
		if !strings.Contains(h.screen(), "Name: ["+name) {
			t.Errorf("name box with %q:\n%s", name, h.screen())
		}
		h.checkFrame("name box " + name)
	}
	// 16 columns is the limit: a ninth CJK character (18 columns) is refused.
	h := newHarness(t, "Zed", 80, 24)
	h.press("N", "backspace", "backspace", "backspace")
	for _, r := range "漢字漢字漢字漢字漢" {
		h.press(string(r))
	}
	if got := h.m.name.input.value(); got != "漢字漢字漢字漢字" {
		t.Fatalf("name box holds %q (%d columns)", got, ansi.StringWidth(got))
	}
	if !strings.Contains(h.m.status, "at most 16") {
		t.Fatalf("no word on the limit: %q", h.m.status)
	}
	if _, err := CheckName("漢字漢字漢字漢字漢字漢字漢字漢字"); err == nil || !strings.Contains(err.Error(), "counts 32") {
		t.Fatalf("16 CJK characters: %v", err)
	}
	if _, err := CheckName(strings.Repeat("a", 40)); err == nil || !strings.Contains(err.Error(), "counts 40") {
		t.Fatalf("40 characters: %v", err)
	}
}

func TestTableScreenSaysWhenItIsYourTurn(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	h.press("esc")
	if !strings.Contains(h.screen(), "The game is waiting for you: press esc to go back to it.") {
		t.Fatalf("no word that the game waits for me:\n%s", h.screen())
	}
}

func TestHelpShowsTheWholePrompt(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	prompt := h.m.table.u.View.Head().Prompt
	h.press("?")
	if !strings.Contains(h.flat(), "Now "+prompt) {
		t.Fatalf("the help does not start with the prompt %q:\n%s", prompt, h.screen())
	}
}

func TestBigTerminalHasASidePanelWithTheLog(t *testing.T) {
	h := newHarness(t, "Zed", 120, 40)
	h.sitAt("fingertip", nil, 3)
	h.checkFrame("fingertip at 120×40")
	if !strings.Contains(h.screen(), "Log and chat") || !strings.Contains(h.screen(), "The game has started") {
		t.Fatalf("no side panel at 120×40:\n%s", h.screen())
	}
}

func TestFeedShowsWholeEntriesNotTails(t *testing.T) {
	ts := tableScreen{feed: []string{"short one", "a long entry " + strings.Repeat("word ", 30) + "END"}}
	got := ansi.Strip(strings.Join(ts.feedTail(80, 1), "\n"))
	if !strings.HasPrefix(strings.TrimSpace(got), "a long entry") || !strings.HasSuffix(strings.TrimSpace(got), "…") {
		t.Fatalf("one line of feed: %q", got)
	}
	got = ansi.Strip(strings.Join(ts.feedTail(80, 4), "\n"))
	if !strings.Contains(got, "short one") || !strings.Contains(got, "END") {
		t.Fatalf("four lines of feed: %q", got)
	}
	// A word longer than the line (a pasted link) shows its start, not just the name.
	ts = tableScreen{feed: []string{"Ben: " + strings.Repeat("x", 200)}}
	got = ansi.Strip(strings.Join(ts.feedTail(80, 1), "\n"))
	if !strings.HasPrefix(strings.TrimSpace(got), "Ben: xxxxxxxx") || ansi.StringWidth(got) > 80 {
		t.Fatalf("one line of a long word: %q", got)
	}
}

func TestTableKeysLeaveTheGamesKeysAlone(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("quadrant", nil, 4)
	h.pump(func() bool { return h.m.table.u.View.Head().Phase == qd.PhasePlacement })
	h.press("L") // Quadrant: move the token right, fast
	if h.m.table.logOpen {
		t.Fatal("L opened the log instead of moving the token")
	}
	h.pump(func() bool {
		v, _ := rules.ViewAs[qd.View](h.m.table.u.View)
		for _, tok := range v.Tokens {
			if tok.Seat == h.m.table.seat() {
				return tok.X > 0
			}
		}
		return false
	})
	h.press("v")
	if !h.m.table.logOpen {
		t.Fatal("v did not open the log")
	}
}

func TestInGameChatShowsTheConversationWhileTyping(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	long := "a rather long message " + strings.Repeat("that goes on ", 8) + "THE END"
	if err := lobby.Run(h.m.table.member, lobby.Chat{Text: long}); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return strings.Contains(strings.Join(h.m.table.feed, " "), "THE END") })
	h.press("/")
	h.checkFrame("chatting")
	if flat := h.flat(); !strings.Contains(flat, strings.Join(strings.Fields(long), " ")) || !strings.Contains(flat, "The game has started") {
		t.Fatalf("the conversation is not readable while typing:\n%s", h.screen())
	}
}

func TestSixteenColourTerminalGetsThePalettesOwnColours(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.o.AskName, h.m.screen = true, screenName
	h.m.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI})
	h.m.dirty = true
	out := h.m.View().Content
	if strings.Contains(out, "38;2;") {
		t.Fatalf("true colour sent to a 16-colour terminal: %q", out)
	}
	// "Welcome to parlor!" is the accent: bright yellow (93), never the error's bright red (91).
	i := strings.Index(out, "Welcome to parlor!")
	if i < 0 || !strings.Contains(out[max(0, i-12):i], "93m") {
		t.Fatalf("the welcome is not in the accent colour: %q", out[max(0, i-30):i+20])
	}
}

func TestConfirmQuestionsFit(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	for _, k := range []string{"q", "ctrl+c"} {
		if k == "ctrl+c" {
			h.m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		} else {
			h.press(k)
		}
		h.checkFrame("confirm after " + k)
		if last := h.lines()[23]; !strings.Contains(last, "y: yes") {
			t.Fatalf("confirm after %s: %q", k, last)
		}
		h.press("n")
	}
}

// TestLongNoticesWrapInsteadOfBeingCut: a notice or an error that does not fit its
// line at 80 columns wraps onto the lines below it, on every screen, and the frame stays
// 80×24. Leaving a started game and a fourth table are two such notices.
func TestLongNoticesWrapInsteadOfBeingCut(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	var codes []string
	for range lobby.MaxHostedTables {
		h.sitAt("topfive", nil, 3)
		codes = append(codes, h.m.table.u.Table.Code)
		h.press("q", "y") // leave the started game: it goes on with bots
		h.checkFrame("the lobby after leaving a game")
		if want := "You left the table. Your seat is kept while the game runs: join it again to come back."; !strings.Contains(h.flat(), want) {
			t.Fatalf("after leaving, the lobby does not say %q:\n%s", want, h.screen())
		}
	}
	slices.Sort(codes)
	h.press("c", "enter") // the create screen, then create
	h.checkFrame("the create screen")
	if want := "close one first (" + rules.List(codes) + "; join one you left by its code)"; !strings.Contains(h.flat(), want) {
		t.Fatalf("the fourth table's refusal does not say %q:\n%s", want, h.screen())
	}

	h = newHarness(t, "Amy", 80, 24)
	h.sitAt("topfive", nil, 3)
	long := "a notice long enough to need two lines at eighty columns, so that it wraps below its own line and ends here"
	h.m.setStatus(long, true)
	h.checkFrame("the game screen")
	if !strings.Contains(h.flat(), long) {
		t.Fatalf("the game screen cuts a long notice:\n%s", h.screen())
	}
	h.press("esc")
	h.m.setStatus(long, false)
	h.checkFrame("the table's room")
	if !strings.Contains(h.flat(), long) {
		t.Fatalf("the room cuts a long notice:\n%s", h.screen())
	}
}

// TestRoomFootersFitAt80Columns: in every state of a table's room (host or not, seated
// or watching, before, during and after a game, with or without a Deck option, each
// panel in focus), the footer's two lines at 80 columns, with the seat keys the seats
// panel shows when they do not fit there, show every key the room has, none cut.
func TestRoomFootersFitAt80Columns(t *testing.T) {
	deck := []rules.Option{{Key: lobby.OptDeck, Name: "Deck"}}
	for _, host := range []bool{false, true} {
		for _, seat := range []int{0, rules.Spectator} {
			for _, state := range []string{lobby.StateWaiting, lobby.StatePlaying} {
				for _, played := range []bool{false, true} {
					for _, choices := range [][]rules.Option{nil, deck} {
						for panel := range panels {
							ts := tableScreen{panel: panel, u: lobby.Update{Host: host, Seat: seat,
								Table: lobby.TableInfo{State: state, Choices: choices, Seats: []lobby.SeatInfo{{Name: "Zed"}}}}}
							if played {
								ts.u.View = rules.View(struct{ rules.Header }{})
							}
							lines, seatKeysIn := ts.roomFooter(80)
							keys := ts.roomFooterKeys(nil)
							if !seatKeysIn { // the seats panel shows them under its heading
								lines = append(lines, footerLines(34-2, ts.seatKeys()...)...)
							}
							keys = append(keys, ts.seatKeys()...)
							all := ansi.Strip(strings.Join(lines, " · "))
							where := fmt.Sprintf("host %v, seat %d, %s, a game before %v, deck %v, panel %d", host, seat, state, played, choices != nil, panel)
							if strings.Contains(all, "…") {
								t.Errorf("%s: the footer cuts its keys:\n%s", where, strings.Join(lines, "\n"))
								continue
							}
							for _, k := range keys {
								if h := k.Help(); !strings.Contains(all, h.Key+" "+h.Desc) {
									t.Errorf("%s: the footer lacks %q:\n%s", where, h.Key+" "+h.Desc, strings.Join(lines, "\n"))
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestAGuestIsNotOfferedPacksToShare: packs are kept under an SSH key, so a guest's room
// has no "share your packs" key; a keyed player's has.
func TestAGuestIsNotOfferedPacksToShare(t *testing.T) {
	for _, guest := range []bool{false, true} {
		ts := tableScreen{u: lobby.Update{Seat: 0, Table: lobby.TableInfo{State: lobby.StateWaiting,
			Choices: []rules.Option{{Key: lobby.OptDeck, Name: "Deck"}}, Seats: []lobby.SeatInfo{{Name: "Zed", Guest: guest}}}}}
		if got := slices.ContainsFunc(ts.roomKeys(), func(b key.Binding) bool { return b.Help().Key == "p" }); got == guest {
			t.Errorf("guest %v: the room offers packs to share: %v", guest, got)
		}
	}
}

// TestRoomShowsEverySeatOfAFullTable: fourteen seats, the chat and a notice at 80×24 do
// not fit beside each other; the seats column shows those around the picked one and how many
// more are above and below, and ↑↓ bring every seat into view. The host's seat keys show
// with them.
func TestRoomShowsEverySeatOfAFullTable(t *testing.T) {
	h := newHarness(t, "Amy", 80, 24)
	h.sitAt("quadrant", rules.Options{qd.OptMode: qd.ModeTeam}, qd.TeamMax)
	h.press("esc")
	h.checkFrame("the room of a full table")
	// A notice on two lines leaves the seats one line short.
	notice := func() {
		h.m.setStatus("a notice long enough to need two lines at eighty columns, so that it wraps below its own line", false)
	}
	notice()
	names := h.names()
	seatLine := func(i int) string { return fmt.Sprintf("%d %s ", i+1, names[i]) } // as the seats column shows it
	if !strings.Contains(h.screen(), "↓ 2 more") || strings.Contains(h.screen(), seatLine(len(names)-1)) {
		t.Fatalf("a full table's room does not say more seats are below:\n%s", h.screen())
	}
	if !strings.Contains(h.flat(), "a bot plays for them") || !strings.Contains(h.flat(), "H make host") {
		t.Fatalf("the host's seat keys are not on screen:\n%s", h.screen())
	}
	seen := map[int]bool{}
	for range names {
		for i := range names {
			if strings.Contains(h.screen(), seatLine(i)) {
				seen[i] = true
			}
		}
		h.press("down") // a key takes the notice away
		notice()
		h.checkFrame("moving down the seats")
	}
	if len(seen) != len(names) {
		t.Fatalf("only %d of %d seats came into view: %v", len(seen), len(names), seen)
	}
	if !strings.Contains(h.screen(), "↑ 2 more") {
		t.Fatalf("at the last seat, the room does not say more seats are above:\n%s", h.screen())
	}
}

// names are the names at the harness's table.
func (h *harness) names() []string { return h.m.table.names() }

// TestTheLobbyTakesYouBackToEverySeat: a player who left two running games sees both in
// the lobby, and enter on either table takes its seat back (it does not watch it).
func TestTheLobbyTakesYouBackToEverySeat(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	var codes []string
	for range 2 {
		h.sitAt("topfive", nil, 3)
		codes = append(codes, h.m.table.u.Table.Code)
		h.press("q", "y")
	}
	for _, code := range codes {
		if !strings.Contains(h.screen(), "Your Top Five table "+code) {
			t.Fatalf("the lobby does not offer the way back to %s:\n%s", code, h.screen())
		}
	}
	for _, code := range codes {
		h.m.lobby.refresh(h.l, h.m.o.Player)
		h.m.lobby.sel = slices.IndexFunc(h.m.lobby.tables, func(t lobby.TableInfo) bool { return t.Code == code })
		h.press("enter")
		h.pump(func() bool { return h.m.table.u.Table.Code == code && h.m.table.u.Seat >= 0 })
		if h.m.table.u.Seat != 0 {
			t.Fatalf("enter on %s: seat %d, want the player's own seat 0", code, h.m.table.u.Seat)
		}
		h.press("esc", "q", "y")
	}
}

// TestAGuestIsToldLeavingParlorGivesUpTheSeat: a guest's seat is tied to its
// connection, so quitting parlor mid-game does not promise it back (leaving for the
// lobby does: the same connection takes it back).
func TestAGuestIsToldLeavingParlorGivesUpTheSeat(t *testing.T) {
	h := newHarness(t, "Gus", 80, 24)
	h.m.o.Player.Guest = true
	h.sitAt("topfive", nil, 3)
	h.m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if last := h.lines()[23]; !strings.Contains(last, "A guest cannot come back") {
		t.Fatalf("quitting as a guest asks %q", last)
	}
	h.press("n", "q")
	if last := h.lines()[23]; !strings.Contains(last, "Your seat waits for you while it runs") {
		t.Fatalf("leaving for the lobby as a guest asks %q", last)
	}
}

// TestASpectatorsChatIsMarkedOnTheGameScreen: anyone may watch under a seated player's
// name, so a spectator's chat line says "(watching)" on the game screen and in its log,
// as it does in the room.
func TestASpectatorsChatIsMarkedOnTheGameScreen(t *testing.T) {
	h := newHarness(t, "Zed", 120, 40)
	h.sitAt("topfive", nil, 3)
	w, err := h.l.Watch(lobby.Player{ID: "guest:0f0f0f0f0f0f", Name: "Zed", Guest: true}, h.m.table.u.Table.Code)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(w, lobby.Chat{Text: "I am Zed"}); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return strings.Contains(h.screen(), "I am Zed") })
	if !strings.Contains(h.screen(), "Zed (watching): I am Zed") {
		t.Fatalf("the spectator's line is not marked:\n%s", h.screen())
	}
	h.press("v")
	if !strings.Contains(h.screen(), "Zed (watching): I am Zed") {
		t.Fatalf("the log does not mark the spectator's line:\n%s", h.screen())
	}
}

// TestTheRoomShowsHowLongAPlayerHasBeenAwayAtOnce: the room opened from a game with no
// clock (no tick since the player left) says how long they have been away as it is,
// not as of the last news from the table.
func TestTheRoomShowsHowLongAPlayerHasBeenAwayAtOnce(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "topfive", rules.Options{"timer": "off", lobby.OptAway: lobby.AwayHost}, true))
	ben, err := h.l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, h.m.table.member.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(h.m.table.member, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(h.m.table.member, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return h.m.table.showGame() })
	lobby.Run(ben, lobby.Disconnect{})
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) > 1 && h.m.table.u.Table.Seats[1].Away })
	h.clock.Advance(75 * time.Second)
	h.press("esc")
	if !strings.Contains(h.screen(), "Ben (away 75 s)") {
		t.Fatalf("the room does not say Ben has been away 75 s:\n%s", h.screen())
	}
}

// TestTheLogStartsWithTheTablesLines: who sat down and "the game has started" come
// before the game's first events in the log, for a player and a late spectator alike.
func TestTheLogStartsWithTheTablesLines(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	w := newHarness(t, "Wes", 80, 24)
	w.l = h.l
	w.m.o.Lobby = h.l
	w.m.enter(h.l.Watch(w.m.o.Player, h.m.table.u.Table.Code))
	w.pump(func() bool { return w.m.table.showGame() })
	for _, s := range []*harness{h, w} {
		feed := strings.Join(s.m.table.feed, "\n")
		started, first := strings.Index(feed, "The game has started"), strings.Index(feed, "Player of Honour")
		if started < 0 || first < 0 || started > first {
			t.Fatalf("%s's log does not start with the table's lines:\n%s", s.m.o.Player.Name, feed)
		}
	}
}

// keyless is a game screen in a phase with nothing to do (a reveal, say): no keys.
type keyless struct{ gameui.Screen }

func (keyless) Keys() []gameui.Key { return nil }

// TestHelpSaysWhenTheGameHasNoKeysNow: the help's "the game now" section says there is
// nothing to do rather than standing empty.
func TestHelpSaysWhenTheGameHasNoKeysNow(t *testing.T) {
	if help := helpWith(t, func(g gameui.Screen) gameui.Screen { return keyless{g} }); !strings.Contains(help, "Keys: the game now none: nothing to do until the next phase") {
		t.Fatalf("the help's keys of the game now:\n%s", help)
	}
}

// helpWith is the help's words at a Top Five table whose game screen is wrap's.
func helpWith(t *testing.T, wrap func(gameui.Screen) gameui.Screen) string {
	t.Helper()
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	h.m.table.game = wrap(h.m.table.game)
	return strings.Join(strings.Fields(ansi.Strip(strings.Join(h.m.helpLines(80), " "))), " ")
}

// TestATooSmallTerminalShowsTheQuitQuestion: q at a game on a terminal below 80×24 asks
// first, as it does at full size, and the question is on screen.
func TestATooSmallTerminalShowsTheQuitQuestion(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	h.m.Update(tea.WindowSizeMsg{Width: 30, Height: 8})
	h.press("q")
	if !strings.Contains(h.flat(), "Leave parlor mid-game? Your seat waits for you. y: yes · other keys: no") {
		t.Fatalf("the question is not on the small screen:\n%s", h.screen())
	}
}

// TestAPasteTooLongForAChatMessageSaysSo: the chat box keeps its first chatMax
// characters of a paste and says the rest was left out, rather than cutting it silently.
func TestAPasteTooLongForAChatMessageSaysSo(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	h.press("/")
	h.m.Update(tea.PasteMsg{Content: strings.Repeat("word ", 60)})
	if n := len([]rune(h.m.table.chatBox().value())); n != chatMax {
		t.Fatalf("the box holds %d characters, want %d", n, chatMax)
	}
	if !strings.Contains(h.flat(), "the rest of the paste was left out") {
		t.Fatalf("the cut paste is not explained:\n%s", h.screen())
	}
}

// TestAPasteOutsideATextBoxIsNotKeys: a paste with no text box open does nothing but
// say how to chat; with the chat open, its lines go into the box as one message to
// send, not as several.
func TestAPasteOutsideATextBoxIsNotKeys(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	h.m.Update(tea.PasteMsg{Content: "good luck all\rm12345\r"})
	if !strings.Contains(h.flat(), "The paste was not used: press / to chat, then paste.") {
		t.Fatalf("a paste outside a text box is not explained:\n%s", h.screen())
	}
	if h.m.table.chatting {
		t.Fatal("the paste opened the chat")
	}
	h.press("/")
	h.m.Update(tea.PasteMsg{Content: "good luck all\rm12345\r"})
	if got := h.m.table.chatBox().value(); got != "good luck all m12345 " {
		t.Fatalf("the chat box holds %q", got)
	}
}

// TestAPromptAndItsWaitingAreTwoSentences: a game's prompt without a full stop ("You
// have voted; waiting for the others") gets one before the table adds whom it waits for.
func TestAPromptAndItsWaitingAreTwoSentences(t *testing.T) {
	for in, want := range map[string]string{"waiting for the others": "waiting for the others.", "Done.": "Done.", "Ready?": "Ready?", "so…": "so…", "": ""} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTheTitleNamesYouAsTheTableDoes: a second "Zed" at a table is "Zed²" there, and
// the title says so too.
func TestTheTitleNamesYouAsTheTableDoes(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	host, err := h.l.Create(lobby.Player{ID: "SHA256:other", Name: "Zed"}, "topfive", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	h.m.enter(h.l.Join(h.m.o.Player, host.Code()))
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 2 && h.m.table.u.Seat == 1 })
	if title := h.lines()[0]; !strings.Contains(title, "you: Zed²") {
		t.Fatalf("the title: %q", title)
	}
}

// TestTheLobbyOffersROnlyWithASeat: "r back to your seat" is in the lobby's footer only
// when a table holds a seat for the player, and r without one says so.
func TestTheLobbyOffersROnlyWithASeat(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	if strings.Contains(h.screen(), "r back to your seat") {
		t.Fatalf("the lobby offers r with no seat:\n%s", h.screen())
	}
	h.press("r")
	if !strings.Contains(h.screen(), "No table holds a seat for you now.") {
		t.Fatalf("r without a seat says nothing:\n%s", h.screen())
	}
	h.sitAt("topfive", nil, 3)
	h.press("q", "y")
	if !strings.Contains(h.screen(), "r back to your seat") {
		t.Fatalf("the lobby does not offer r with a seat:\n%s", h.screen())
	}
}

// TestRemovingAPersonAsksFirst: the host's x on a person's seat asks before it removes
// them (a stray key must not throw a friend out); n keeps them, y removes them.
func TestRemovingAPersonAsksFirst(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "topfive", nil, false))
	if _, err := h.l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, h.m.table.member.Code()); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 2 })
	h.press("down", "x")
	if last := h.lines()[23]; !strings.Contains(last, "Remove Ben from the table? y: yes") {
		t.Fatalf("x on Ben asks %q", last)
	}
	h.press("n")
	if got := h.l.SeatedAt("SHA256:ben"); len(got) != 1 {
		t.Fatalf("n removed Ben: he is seated at %v", got)
	}
	h.press("x", "y")
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 1 })
}

// TestALongWordInChatIsReadWhole: a chat message of one 200-character word (a pasted
// link) wraps at the line's end in the room's chat and in the log, none of it cut.
func TestALongWordInChatIsReadWhole(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	msg := "LONGPASTE-" + strings.Repeat("abcdefghij", 18) + "-END"
	if err := lobby.Run(h.m.table.member, lobby.Chat{Text: msg}); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return strings.Contains(strings.Join(h.m.table.feed, ""), "-END") })
	h.press("v")
	if got := strings.Join(strings.Fields(h.screen()), ""); !strings.Contains(got, msg) {
		t.Fatalf("the log cuts the message:\n%s", h.screen())
	}
	h.press("esc", "esc")
	if got := strings.Join(strings.Fields(h.screen()), ""); !strings.Contains(got, msg) {
		t.Fatalf("the room's chat cuts the message:\n%s", h.screen())
	}
}

// TestEveryTooSmallTerminalSaysTheSizeItNeeds: at every width from 15 to 79 the message
// says 80×24 whole (it is the one thing the player needs to know).
func TestEveryTooSmallTerminalSaysTheSizeItNeeds(t *testing.T) {
	for w := 15; w < MinWidth; w++ { // below 15 even the short form cannot fit
		lines := tooSmall(w, 10)
		if all := strings.Join(lines, " "); !strings.Contains(all, "80×24") || strings.Contains(all, "…") {
			t.Fatalf("at %d columns: %q", w, lines)
		}
	}
}

// TestTheLastSecondsSayTheTableWaitsForYou: in a phase's last 15 seconds, the title of a
// player the table still waits for says so beside the time; a minute before, it does not.
func TestTheLastSecondsSayTheTableWaitsForYou(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3) // Zed ranks: the table waits for him, 90 s
	if title := h.lines()[0]; strings.Contains(title, "waiting for you") {
		t.Fatalf("with 90 s left the title hurries: %q", title)
	}
	h.clock.Advance(80 * time.Second)
	h.m.Update(tickMsg(h.clock.Now()))
	if title := h.lines()[0]; !strings.Contains(title, "0:10 left · waiting for you") {
		t.Fatalf("with 10 s left the title: %q", title)
	}
}

// TestASeatsMarksAreNeverCut: a 16-column name away with a bot playing for it keeps its
// marks in the room's seats column; the name gives way.
func TestASeatsMarksAreNeverCut(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	ts := tableScreen{u: lobby.Update{Seat: 0, Host: true, Table: lobby.TableInfo{State: lobby.StatePlaying, Seats: []lobby.SeatInfo{
		{Name: "Zed", Host: true},
		{Name: "WWWWWWWWWWWWWWWW", Away: true, AwaySince: now.Add(-3 * time.Minute), StandIn: true},
	}}}}
	m := &Model{now: now}
	out := ansi.Strip(strings.Join(ts.renderRoom(m, 80, 24), "\n"))
	if !strings.Contains(out, "(away 3 min, a bot plays)") {
		t.Fatalf("the away seat's marks are cut:\n%s", out)
	}
}

// TestTheHelpListsTheHostsSeatKeysWhateverIsInFocus: the room shows the seat keys while
// the seats are in focus; the help lists them for the host always.
func TestTheHelpListsTheHostsSeatKeysWhateverIsInFocus(t *testing.T) {
	for panel := range panels {
		ts := tableScreen{panel: panel, u: lobby.Update{Host: true, Seat: 0, Table: lobby.TableInfo{State: lobby.StateWaiting, Seats: []lobby.SeatInfo{{Name: "Zed"}}}}}
		if !slices.ContainsFunc(ts.roomKeys(), func(b key.Binding) bool { return b.Help().Key == "x" }) {
			t.Errorf("panel %d: the help does not list x", panel)
		}
	}
}

// moreKeyed is a game screen with a key its footer leaves out for room.
type moreKeyed struct{ gameui.Screen }

func (moreKeyed) MoreKeys() []gameui.Key { return []gameui.Key{{Keys: "arrows+enter", Help: "point"}} }

// TestTheHelpListsTheKeysTheFooterLeavesOut: a game's other keys (gameui.MoreKeys) are in
// the help's "the game now".
func TestTheHelpListsTheKeysTheFooterLeavesOut(t *testing.T) {
	if help := helpWith(t, func(g gameui.Screen) gameui.Screen { return moreKeyed{g} }); !strings.Contains(help, "arrows+enter point") {
		t.Fatalf("the help lacks the other keys:\n%s", help)
	}
}

// TestSmallLinesAreWhole: the lobby's table-code line ends whole at 80 columns, and the
// seats' names line up past seat 9.
func TestSmallLinesAreWhole(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.press("tab")
	for _, l := range h.lines() {
		if strings.Contains(l, "Table code:") && (strings.Contains(l, "…") || !strings.Contains(l, "a friend gave you")) {
			t.Fatalf("the code line is cut: %q", l)
		}
	}
	h.press("esc")
	h.sitAt("quadrant", rules.Options{qd.OptMode: qd.ModeTeam}, qd.TeamMax)
	h.press("esc")
	col := func(name string) int {
		for _, l := range h.lines() {
			if i := strings.Index(l, name+" team "); i >= 0 {
				return ansi.StringWidth(l[:i])
			}
		}
		t.Fatalf("no %s:\n%s", name, h.screen())
		return 0
	}
	if a, b := col("Bot Hal"), col("Bot Ivy"); a != b { // seats 9 and 10
		t.Fatalf("seat 9's name starts at column %d, seat 10's at %d:\n%s", a, b, h.screen())
	}
}

// TestTheChatBoxScrollsByColumns: a message of wide characters keeps its end and the
// cursor on screen in the chat box (gameui.BoxLine), as the clue box does.
func TestTheChatBoxScrollsByColumns(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt("topfive", nil, 3)
	h.press("/")
	h.m.Update(tea.PasteMsg{Content: strings.Repeat("漢", 60) + "END"})
	h.checkFrame("the chat box")
	for _, l := range h.lines() {
		if strings.HasPrefix(strings.TrimSpace(l), "say:") {
			if !strings.Contains(l, "END") || !strings.Contains(l, "…漢") {
				t.Fatalf("the chat box hides its end: %q", l)
			}
			return
		}
	}
	t.Fatalf("no chat box:\n%s", h.screen())
}

// promptView is a view with another prompt.
type promptView struct {
	rules.View
	prompt string
}

func (v promptView) Head() rules.Header {
	h := v.View.Head()
	h.Prompt = v.prompt
	return h
}

// TestALongPromptIsWhole: a prompt wider than the screen (a Fingertip turn's summary with
// long names) wraps onto a second line at 80×24, in the event line's place, and beside
// the side panel at 120×40, where the game area gives up a line for it; never cut.
func TestALongPromptIsWhole(t *testing.T) {
	long := "Turn over: Nobody found card 8; it and 3 wrong cards are discarded. Bartholomew Jone has no card to give back."
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		h := newHarness(t, "Amy", size[0], size[1])
		h.sitAt("topfive", nil, 3)
		h.m.table.u.View = promptView{h.m.table.u.View, long}
		h.checkFrame(fmt.Sprintf("%dx%d", size[0], size[1]))
		if !strings.Contains(h.flat(), long) {
			t.Fatalf("%dx%d: the prompt is not whole:\n%s", size[0], size[1], h.screen())
		}
	}
}

// TestRemovingAfterTheSeatsChangedAsksAgain: if the seats change while the host is asked
// whether to remove Ben (Cat, seated before him, leaves), y does not remove whoever sits
// in that seat now.
func TestRemovingAfterTheSeatsChangedAsksAgain(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "topfive", nil, false))
	code := h.m.table.member.Code()
	cat, err := h.l.Join(lobby.Player{ID: "SHA256:cat", Name: "Cat"}, code)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, code); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 3 })
	h.press("down", "down", "x") // Ben, seat 3
	lobby.Run(cat, lobby.Leave{})
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 2 })
	h.press("y")
	if got := h.l.SeatedAt("SHA256:ben"); len(got) != 1 {
		t.Fatalf("y removed Ben from a seat he no longer held, or someone else: %v", got)
	}
	if !strings.Contains(h.screen(), "The seats changed") {
		t.Fatalf("nothing says why nobody was removed:\n%s", h.screen())
	}
}

// With more open tables than the lobby has rows, the selected table is always on screen
// and marked, so enter joins the table the player sees; the rows not shown are counted.
func TestLobbyListKeepsTheSelectionInView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {100, 30}} {
		h := newHarness(t, "Zed", size[0], size[1])
		// Zed holds a seat at a table of his own (a notice line above the list).
		if _, err := h.l.Create(h.m.o.Player, "topfive", nil, false); err != nil {
			t.Fatal(err)
		}
		for i := range 40 { // more than fit at 120×40, with or without the notice of his own table
			p := lobby.Player{ID: fmt.Sprintf("SHA256:host%d", i), Name: fmt.Sprintf("Host%d", i)}
			if _, err := h.l.Create(p, "quadrant", nil, false); err != nil {
				t.Fatal(err)
			}
		}
		h.m.lobby.refresh(h.l, h.m.o.Player)
		for step := 0; step <= len(h.m.lobby.tables); step++ {
			h.checkFrame("lobby")
			want := h.m.lobby.tables[h.m.lobby.sel].Code
			var marked []string
			for _, l := range h.lines() {
				if strings.HasPrefix(l, "▸") {
					marked = append(marked, l)
				}
			}
			if len(marked) != 1 || !strings.Contains(marked[0], want) {
				t.Fatalf("%v, row %d (%s) selected: marked rows %q\n%s", size, h.m.lobby.sel, want, marked, h.screen())
			}
			if step == 0 && !strings.Contains(h.flat(), "more below") {
				t.Errorf("%v: nothing says more tables are below:\n%s", size, h.screen())
			}
			h.press("down")
		}
		if !strings.Contains(h.flat(), "more above") {
			t.Errorf("%v: at the end, nothing says tables are above:\n%s", size, h.screen())
		}
		h.press("up")
	}
}

// With few tables the lobby lists every game below them.
func TestLobbyListsTheGamesBelowAFewTables(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	for i := range 3 {
		p := lobby.Player{ID: fmt.Sprintf("SHA256:host%d", i), Name: fmt.Sprintf("Host%d", i)}
		if _, err := h.l.Create(p, "quadrant", nil, false); err != nil {
			t.Fatal(err)
		}
	}
	h.m.lobby.refresh(h.l, h.m.o.Player)
	for _, g := range rules.Games() {
		if !strings.Contains(h.screen(), g.Name) {
			t.Errorf("%s is not listed:\n%s", g.Name, h.screen())
		}
	}
}

// A code typed for a table whose game has started (or that is full) takes the player
// to watch it, saying why, as enter on its row in the list does: not an error that
// tells them to watch.
func TestJoiningAStartedGameByCodeWatchesIt(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	host := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	a, err := h.l.Create(host, "topfive", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	h.press("tab")
	for _, r := range strings.ToLower(a.Code()) {
		h.press(string(r))
	}
	h.press("enter")
	if h.m.screen != screenTable {
		t.Fatalf("not at the table:\n%s", h.screen())
	}
	h.pump(func() bool { return h.m.table.u.Table.Code != "" })
	if h.m.table.u.Seat >= 0 || !strings.Contains(h.flat(), "you are watching it") {
		t.Fatalf("seat %d:\n%s", h.m.table.u.Seat, h.screen())
	}
	// The room says so too, once the notice has gone.
	h.press("esc")
	h.m.status = ""
	if !strings.Contains(h.flat(), "You can take a seat when it ends.") {
		t.Errorf("the room does not tell a spectator when they can sit:\n%s", h.screen())
	}
}

// While a table code is typed, the bottom line shows the keys that work in the box, not
// the lobby's (c would type a c).
func TestLobbyFooterWhileTypingACode(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.press("tab")
	h.checkFrame("code box")
	lines := h.lines()
	foot := lines[len(lines)-1]
	if strings.Contains(foot, "create") || !strings.Contains(foot, "enter join") || !strings.Contains(foot, "esc cancel") {
		t.Errorf("footer while typing a code: %q", foot)
	}
}

// A seat's marks give way before its name is cut to nothing: a guest host in a team
// game read "▸ 1 g… team A ★host (guest) ← you".
func TestRoomSeatKeepsTheNameBesideManyMarks(t *testing.T) {
	h := newHarness(t, "gabby", 80, 24)
	h.m.o.Player.Guest = true
	h.m.enter(h.l.Create(h.m.o.Player, "quadrant", rules.Options{qd.OptMode: qd.ModeTeam}, false))
	for range 9 {
		if err := lobby.Run(h.m.table.member, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 10 })
	if !strings.Contains(h.screen(), " 1 gabby ") || !strings.Contains(h.screen(), "← you") {
		t.Fatalf("the host's seat:\n%s", h.screen())
	}
}

// A pack's long name keeps its end on the options' rows, so two packs that differ at
// their end stay apart, and the row keeps its ›.
func TestLongPackNamesStayApart(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.press("c")
	c := h.m.createBox()
	c.game = slices.IndexFunc(c.games, func(g *rules.Spec) bool { return g.ID == "quadrant" })
	var rows []string
	for _, name := range []string{"Team offsite words for spring A", "Team offsite words for spring B"} {
		c.opts = c.spec().Defaults()
		c.opts[lobby.OptDeck] = name
		for _, l := range h.lines() {
			if strings.Contains(l, "Deck") && strings.Contains(l, "‹") {
				rows = append(rows, l)
			}
		}
	}
	if len(rows) != 2 || rows[0] == rows[1] || !strings.Contains(rows[1], "ring B ›") {
		t.Errorf("the deck rows: %q", rows)
	}
}

// TestAPlayerTheGameWaitsLongForIsNamedWithTheWayOn: at a game with no clock, a player
// who is here but does nothing holds everyone up without end. After a minute (the
// table's HeldUpBy) the host reads where the prompt is how to let a bot play for them,
// and the others that the host can.
func TestAPlayerTheGameWaitsLongForIsNamedWithTheWayOn(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, testgame.ID, rules.Options{"timer": "off"}, false))
	code := h.m.table.member.Code()
	if _, err := h.l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, code); err != nil {
		t.Fatal(err)
	}
	c := newHarness(t, "Cat", 80, 24)
	c.l, c.m.o.Lobby = h.l, h.l
	c.m.enter(h.l.Join(c.m.o.Player, code))
	if err := lobby.Run(h.m.table.member, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*harness{h, c} {
		p.pump(func() bool { return p.m.table.showGame() })
		p.press("1")
	}
	waitingForBen := func(p *harness) func() bool {
		return func() bool { v := p.m.table.u.View; return v != nil && slices.Equal(v.Head().Waiting, []int{1}) }
	}
	h.pump(waitingForBen(h))
	c.pump(waitingForBen(c))
	if strings.Contains(h.flat(), "kept the table waiting") {
		t.Fatalf("the hint before a minute:\n%s", h.screen())
	}
	h.clock.Advance(61 * time.Second) // the lobby's next tick tells the table
	for _, p := range []*harness{h, c} {
		p.pump(func() bool { return len(p.m.table.u.Table.HeldUpBy) > 0 })
	}
	if want := "Ben has kept the table waiting over a minute: press esc, pick their seat (tab, ↑↓), then a: a bot plays for them."; !strings.Contains(h.flat(), want) {
		t.Fatalf("the host is not told how to go on:\n%s", h.screen())
	}
	if want := "Ben has kept the table waiting over a minute: the host can let a bot play for them."; !strings.Contains(c.flat(), want) {
		t.Fatalf("another player is not told:\n%s", c.screen())
	}
}

// TestARefusedActionReadsWithoutTheGamesID: a game's errors start with its id for the
// logs; the player reads the refusal without it.
func TestARefusedActionReadsWithoutTheGamesID(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, testgame.ID, nil, false))
	if _, err := h.l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, h.m.table.member.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(h.m.table.member, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	h.pump(func() bool { return h.m.table.showGame() })
	h.press("1", "2")
	if flat := h.flat(); !strings.Contains(flat, "You have already picked") || strings.Contains(flat, "pick: you") {
		t.Fatalf("the refusal:\n%s", h.screen())
	}
}

// TestHelpAtTheEndSaysTheGameIsOver: with no keys left at the end, the help says the
// game is over and where to go, not that something comes next.
func TestHelpAtTheEndSaysTheGameIsOver(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt(testgame.ID, rules.Options{"rounds": "1"}, 2)
	h.press("1")
	h.pump(func() bool { v := h.m.table.u.View; return v != nil && v.Head().Over })
	h.m.table.game = keyless{h.m.table.game}
	help := strings.Join(strings.Fields(ansi.Strip(strings.Join(h.m.helpLines(80), " "))), " ")
	if !strings.Contains(help, "Keys: the game now none: the game is over (esc: the table, where the host can start another)") {
		t.Fatalf("the help at the end:\n%s", help)
	}
}

// TestAHostWhoHoldsTheGameUpIsNudged: when the one the game waits for is the host,
// nobody else can let a bot play: the others read that they may nudge them.
func TestAHostWhoHoldsTheGameUpIsNudged(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, testgame.ID, rules.Options{"timer": "off"}, false))
	c := newHarness(t, "Cat", 80, 24)
	c.l, c.m.o.Lobby = h.l, h.l
	c.m.enter(h.l.Join(c.m.o.Player, h.m.table.member.Code()))
	if err := lobby.Run(h.m.table.member, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	c.pump(func() bool { return c.m.table.showGame() })
	c.press("1")
	h.clock.Advance(61 * time.Second)
	c.pump(func() bool { return len(c.m.table.u.Table.HeldUpBy) > 0 })
	if want := "Zed, the host, has kept the table waiting over a minute: nudge them in the chat (/)."; !strings.Contains(c.flat(), want) {
		t.Fatalf("the others are not told:\n%s", c.screen())
	}
}

// TestTheEndsLineIsWhole: at the end a game's line says who won and why, and the way on;
// with many winners that is three lines at 80 columns, and all of it shows.
func TestTheEndsLineIsWhole(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.sitAt(testgame.ID, rules.Options{"rounds": "1"}, 2)
	h.press("1")
	h.pump(func() bool { v := h.m.table.u.View; return v != nil && v.Head().Over })
	v := h.m.table.u.View.(testgame.View)
	v.Prompt = "Game over, the square cannot be refilled: Alexandra, Benedict, Bot Ada and Dorothea share the victory with 0 cards each."
	h.m.table.u.View = v
	if flat := h.flat(); !strings.Contains(flat, v.Prompt+" Press esc for the table: the host can start another game.") {
		t.Fatalf("the end's line is cut:\n%s", h.screen())
	}
}

// TestTheGameRowPassesOverGamesTooSmall: ←→ on the Game row goes on past a game that
// seats fewer than are at the table, and says which it passed over.
func TestTheGameRowPassesOverGamesTooSmall(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "quadrant", nil, false))
	for range 6 {
		if err := lobby.Run(h.m.table.member, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 7 })
	h.m.table.panel, h.m.table.optSel = panelOptions, 0 // the Game row
	h.press("right")
	h.pump(func() bool { return h.m.table.u.Table.Game == "topfive" })
	if !strings.Contains(h.flat(), "Passed over Tall Tale: too few seats for the 7 players here.") {
		t.Fatalf("the passing over is not said:\n%s", h.screen())
	}
}

// TestTabPassesOverRulesNotShown: on a short terminal where the rules beside the options
// are only "press ? to read them", tab does not focus them (keys would page them unseen).
func TestTabPassesOverRulesNotShown(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.enter(h.l.Create(h.m.o.Player, "talltale", nil, false))
	for _, line := range []string{"one", "two", "three"} {
		if err := lobby.Run(h.m.table.member, lobby.Chat{Text: line}); err != nil {
			t.Fatal(err)
		}
	}
	h.pump(func() bool { return chatIn(h.m.table.u, "three") })
	if !strings.Contains(h.screen(), "press ? to read them") {
		t.Fatalf("the rules are shown; the test needs them not to be:\n%s", h.screen())
	}
	h.m.table.panel = panelSeats
	h.press("tab", "tab")
	if h.m.table.panel != panelSeats {
		t.Fatalf("tab focused panel %d, want the seats again past the hidden rules", h.m.table.panel)
	}
}

func chatIn(u lobby.Update, text string) bool {
	for _, c := range u.Chat {
		if c.Text == text {
			return true
		}
	}
	return false
}
