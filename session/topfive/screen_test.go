package topfive

import (
	"fmt"
	"parlor/session/gameui/gameuitest"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	tf "parlor/rules/topfive"
	"parlor/session/gameui"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func deck() []byte {
	var b strings.Builder
	for i := range tf.MinTopics {
		fmt.Fprintf(&b, "A rather long topic name number %03d\n", i)
	}
	return []byte(b.String())
}

func newGame(t *testing.T, names []string, opts rules.Options) *tf.Game {
	t.Helper()
	g, err := tf.New(rules.Setup{Names: names, Seed: 5, Options: opts, Now: t0,
		Content: map[string][]byte{tf.TopicsFile: deck()}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func press(s *Screen, keys ...string) any {
	var last any
	for _, k := range keys {
		if a, _ := s.Update(gameuitest.Key(k)); a != nil {
			last = a
		}
	}
	return last
}

// render draws at 80×19 and checks the frame's bounds.
func render(t *testing.T, s *Screen, names []string, plain bool) string {
	t.Helper()
	out := s.Render(gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: t0, Seat: s.seat, Names: names, Plain: plain})
	lines := strings.Split(out, "\n")
	if len(lines) > gameui.AreaHeight {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Fatalf("line %d is %d wide: %q", i, w, l)
		}
	}
	if plain && strings.Contains(out, "\x1b[") {
		t.Fatal("plain frame has escape codes")
	}
	if err := gameuitest.FooterError(80, s.Keys(), s.Typing()); err != nil {
		t.Fatal(err)
	}
	return ansi.Strip(out)
}

func mustContain(t *testing.T, screen string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(screen, p) {
			t.Errorf("screen lacks %q:\n%s", p, screen)
		}
	}
}

func TestGuesserRanks(t *testing.T) {
	names := []string{"Sarah", "Marie", "Eric"}
	g := newGame(t, names, nil)
	s := New(1)
	s.SetView(g.View(1))
	screen := render(t, s, names, false)
	mustContain(t, screen, "Player of Honour: Sarah", "Guess how Sarah", g.View(1).(tf.View).Topics[0], "Players")

	if a := press(s, "enter"); a != nil {
		t.Fatalf("an empty ranking was sent: %v", a)
	}
	mustContain(t, render(t, s, names, true), "missing ranks 1, 2, 3, 4 and 5", "marker is missing (press m)")

	// 1, 2, 3 then 2 again on topic 4: rank 2 moves there instead of repeating.
	press(s, "1", "2", "3", "2")
	if s.draft.ranks != [tf.Hand]int{1, 0, 3, 2, 0} {
		t.Fatalf("draft %v", s.draft.ranks)
	}
	// And it says so, as Quadrant does for a number moved to another token.
	topics := g.View(1).(tf.View).Topics
	mustContain(t, render(t, s, names, true), fmt.Sprintf("Rank 2 moved from %s: it has none now.", topics[1]))
	press(s, "up", "up", "up", "5", "4") // topic 1 gets 5, then topic 2 gets 4 (rank 3 is gone)
	if s.draft.ranks != [tf.Hand]int{1, 5, 4, 2, 0} {
		t.Fatalf("draft %v", s.draft.ranks)
	}
	press(s, "m")
	if a := press(s, "enter"); a != nil {
		t.Fatalf("sent an incomplete ranking %v (draft %v)", a, s.draft.ranks)
	}
	mustContain(t, render(t, s, names, true), "Not yet: the ranking is missing rank 3.")
	// Fill it properly: topic i gets rank i+1, marker on topic 0.
	s.draft.cursor = 0
	press(s, "1", "2", "3", "4", "5", "up", "up", "up", "up", "m")
	a := press(s, "enter")
	r, ok := a.(tf.Rank)
	if !ok || fmt.Sprint(r.Ranks) != "[1 2 3 4 5]" || r.Marker == nil || *r.Marker != 0 {
		t.Fatalf("action %#v", a)
	}
	if err := g.Apply(1, rules.Encode(a), t0); err != nil {
		t.Fatal(err)
	}
	if again := press(s, "enter"); again != nil {
		t.Fatal("sent twice")
	}
	s.SetView(g.View(1))
	mustContain(t, render(t, s, names, false), "Your ranking is in", "(!)")
	if len(s.Keys()) != 0 {
		t.Fatalf("keys after submitting: %v", s.Keys())
	}
}

func TestHonourHasNoMarker(t *testing.T) {
	names := []string{"Sarah", "Marie", "Eric"}
	g := newGame(t, names, nil)
	s := New(0)
	s.SetView(g.View(0))
	for _, k := range s.Keys() {
		if k.Keys == "m" {
			t.Fatal("the Player of Honour is offered the marker")
		}
	}
	press(s, "m")
	mustContain(t, render(t, s, names, true), "You are the Player of Honour", "No marker this round")
	a := press(s, "5", "4", "3", "2", "1", "enter")
	if r, ok := a.(tf.Rank); !ok || r.Marker != nil {
		t.Fatalf("action %#v", a)
	}
	if err := g.Apply(0, rules.Encode(a), t0); err != nil {
		t.Fatal(err)
	}
}

// playAll plays a whole game through screens (for every seat) at 80×19, rendering each
// seat and a spectator at every change.
func playAll(t *testing.T, names []string, opts rules.Options) (*tf.Game, map[string]bool) {
	g := newGame(t, names, opts)
	screens := []*Screen{New(rules.Spectator)}
	for seat := range names {
		screens = append(screens, New(seat))
	}
	seen := map[string]bool{}
	now := t0
	changed := true
	for step := 0; step < 2000; step++ {
		now = now.Add(time.Second)
		changed = g.Tick(now) || changed
		acted := false
		for _, s := range screens {
			s.SetView(g.View(s.seat))
			for _, plain := range []bool{false, true} {
				if !changed {
					break // rendering an unchanged view again proves nothing
				}
				screen := render(t, s, names, plain)
				seen[s.v.Phase] = true
				if s.v.Phase == tf.PhaseRanking {
					for _, topic := range s.v.Topics { // no topic row gives way, no topic is cut
						if !strings.Contains(screen, topic) {
							t.Fatalf("%d players, seat %d, %s: topic %q is missing:\n%s", len(names), s.seat, s.v.Phase, topic, screen)
						}
					}
				}
				for _, l := range strings.Split(screen, "\n") {
					seen[strings.TrimSpace(l)] = true
				}
			}
			if s.seat < 0 {
				if len(s.Keys()) != 0 || press(s, "1", "m", "enter") != nil {
					t.Fatal("a spectator can act")
				}
				continue
			}
			var a any
			if s.editing() {
				if s.needsMarker() {
					a = press(s, "2", "1", "3", "5", "4", "m", "enter")
				} else {
					a = press(s, "2", "1", "3", "5", "4", "enter")
				}
			} else if s.v.Phase == tf.PhaseResults {
				a = press(s, "enter")
			}
			if a != nil {
				if err := g.Apply(s.seat, rules.Encode(a), now); err != nil {
					t.Fatalf("seat %d: %v", s.seat, err)
				}
				acted = true
			}
		}
		changed = acted
		if g.View(0).Head().Over {
			for _, s := range screens {
				s.SetView(g.View(s.seat))
				render(t, s, names, false)
			}
			return g, seen
		}
	}
	t.Fatal("the game did not end")
	return nil, nil
}

func TestWholeGameRenders(t *testing.T) {
	names := []string{"Sarah", "Marie", "Eric"}
	g, seen := playAll(t, names, nil)
	res, _ := g.Outcome()
	for _, want := range []string{tf.PhaseRanking, tf.PhaseReveal, tf.PhaseResults, tf.PhaseOver} {
		if !seen[want] {
			t.Errorf("never saw phase %s", want)
		}
	}
	s := New(0)
	s.SetView(g.View(0))
	final := render(t, s, names, false)
	// The game-over screen has the score sheet and the last round's breakdown.
	mustContain(t, final, "Game over", res.Summary, "Score sheet", " 6 Eric ranks", "Total", "Last round:", "Player of Honour, scores as the best Guesser")
	if !seen["Sarah's ranking, revealed from 5 to 1  (✓ right, ! marker)"] {
		t.Error("the reveal heading was never shown")
	}
}

func TestDuoWording(t *testing.T) {
	names := []string{"Ann", "Ben"}
	_, seen := playAll(t, names, rules.Options{tf.OptVariant: tf.VariantDuo})
	found := false
	for l := range seen {
		if strings.HasPrefix(l, "You matched ") && strings.HasSuffix(l, " of 5 this round.") {
			found = true
		}
		if strings.Contains(l, "Guesser") {
			t.Errorf("duo screen talks of Guessers: %q", l)
		}
		// Two players: "the others" is one, and the prompt names them.
		if strings.Contains(l, "Waiting for the others") {
			t.Errorf("duo screen: %q", l)
		}
	}
	if !found {
		t.Error("never said \"You matched N of 5\"")
	}
	role := false
	for l := range seen {
		role = role || strings.HasPrefix(l, "Rank these topics by your own taste.")
	}
	if !role {
		t.Error("duo role line missing")
	}
}

// The last round's points stay beside every player through the next round's ranking,
// not only for the few seconds of the results.
func TestLastRoundStaysVisible(t *testing.T) {
	names := []string{"Sarah", "Marie", "Eric"}
	g := newGame(t, names, nil)
	now := t0
	for {
		now = now.Add(time.Second)
		g.Tick(now)
		if g.View(0).Head().Round == 2 {
			break
		}
		for seat := range names {
			s := New(seat)
			s.SetView(g.View(seat))
			var a any
			if s.editing() && s.needsMarker() {
				a = press(s, "2", "1", "3", "5", "4", "m", "enter")
			} else if s.editing() {
				a = press(s, "2", "1", "3", "5", "4", "enter")
			}
			if a != nil {
				if err := g.Apply(seat, rules.Encode(a), now); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s := New(1)
	s.SetView(g.View(1))
	screen := render(t, s, names, true)
	mustContain(t, screen, "last", "+7")
}

// The round number is in the session's title bar: the game area does not repeat it.
func TestRoundIsNotRepeated(t *testing.T) {
	names := []string{"Sarah", "Marie", "Eric"}
	g := newGame(t, names, nil)
	s := New(1)
	s.SetView(g.View(1))
	if out := render(t, s, names, true); strings.Contains(out, "Round 1 of") || !strings.Contains(out, "Player of Honour: Sarah") {
		t.Errorf("round repeated, or the Player of Honour missing:\n%s", out)
	}
	for _, l := range g.View(1).Head().Log {
		if strings.Contains(l, "of 6") {
			t.Errorf("the log repeats the round count: %q", l)
		}
	}
}

// From 120×40 the topics stand apart and the score sheet so far is under the round.
func TestLargeTerminalSpacesTopicsAndShowsTheSheet(t *testing.T) {
	names := []string{"Sarah", "Marie", "Eric"}
	g := newGame(t, names, nil)
	now := t0
	for g.View(0).Head().Round < 2 { // play round 1, so the sheet has a row
		now = now.Add(time.Second)
		g.Tick(now)
		for seat := range names {
			s := New(seat)
			s.SetView(g.View(seat))
			if s.editing() && s.v.Round == 1 {
				a := press(s, "2", "1", "3", "5", "4", "m", "enter")
				if err := g.Apply(seat, rules.Encode(a), now); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s := New(1)
	s.SetView(g.View(1))
	draw := func(w, h int) []string {
		return gameuitest.Area(t, s.Render(gameui.Frame{Width: w, Height: h, Seat: 1, Names: names}), w, h)
	}
	small, large := draw(80, gameui.AreaHeight), draw(gameuitest.Width120x40, gameuitest.Height120x40)
	gap := func(lines []string) int {
		return gameuitest.Index(lines, s.v.Topics[1]) - gameuitest.Index(lines, s.v.Topics[0])
	}
	if gap(small) != 1 || gap(large) != 2 {
		t.Errorf("topics %d apart at 80×24, %d at 120×40:\n%s\n\n%s", gap(small), gap(large), strings.Join(small, "\n"), strings.Join(large, "\n"))
	}
	if gameuitest.Index(small, "Score sheet") >= 0 || gameuitest.Index(large, "Score sheet") < 0 || gameuitest.Index(large, "Total") < 0 {
		t.Errorf("the score sheet belongs to large terminals only:\n%s\n\n%s", strings.Join(small, "\n"), strings.Join(large, "\n"))
	}
}

// Mid-reveal in duo, the total does not have this round yet: "You matched 1 of 1" above
// "Together: 0 points after 1 of 10 rounds" read as a contradiction.
func TestDuoRevealDoesNotShowTheOldTotalAsTheRound(t *testing.T) {
	names := []string{"Ann", "Ben"}
	g := duoRevealing(t, names)
	s := New(0)
	s.SetView(g.View(0))
	if s.v.Phase != tf.PhaseReveal || s.v.Tally != nil {
		t.Fatalf("not mid-reveal: %s, tally %v", s.v.Phase, s.v.Tally)
	}
	if out := render(t, s, names, true); strings.Contains(out, "Together: 0 points after 1") {
		t.Fatalf("mid-reveal:\n%s", out)
	}
}

// The duo reveal's columns name both players whole where the area has the room: they
// were cut to "Annabelle …" even at 120 columns.
func TestDuoRevealNamesBothPlayers(t *testing.T) {
	names := []string{"Annabelle Smythe", "Benedict Cumbers"}
	g := duoRevealing(t, names)
	s := New(0)
	s.SetView(g.View(0))
	out := s.Render(gameui.Frame{Width: 88, Height: 35, Now: t0, Seat: 0, Plain: true})
	if !strings.Contains(out, "Annabelle Smythe") || !strings.Contains(out, "Benedict Cumbers") {
		t.Fatalf("the duo reveal at 88 columns:\n%s", out)
	}
}

// duoRevealing is a duo game of names in its first round's reveal: both ranked 1 to 5
// through their screens, and the reveal's first step shown.
func duoRevealing(t *testing.T, names []string) *tf.Game {
	t.Helper()
	g := newGame(t, names, rules.Options{tf.OptVariant: tf.VariantDuo})
	for seat := range names {
		s := New(seat)
		s.SetView(g.View(seat))
		if err := g.Apply(seat, rules.Encode(press(s, "1", "2", "3", "4", "5", "enter")), t0); err != nil {
			t.Fatal(err)
		}
	}
	g.Tick(t0.Add(2 * time.Second))
	return g
}

// A duo's final screen speaks to the pair as "you", and to a spectator of them.
func TestDuoFinalSpeaksToWhoIsWatching(t *testing.T) {
	names := []string{"Ann", "Ben"}
	g := duoRevealing(t, names)
	for _, seat := range []int{0, rules.Spectator} {
		v := g.View(seat).(tf.View)
		v.Over, v.Scores = true, []int{23, 23}
		s := New(seat)
		s.SetView(v)
		out := render(t, s, names, true)
		want := "Together you scored 23 of 50"
		if seat < 0 {
			want = "Together Ann and Ben scored 23 of 50"
		}
		if !strings.Contains(out, want) {
			t.Errorf("seat %d: no %q:\n%s", seat, want, out)
		}
	}
}

// A spectator of a duo's reveal reads of the pair by name, not "you".
func TestDuoRevealSpeaksToASpectatorOfThePair(t *testing.T) {
	names := []string{"Ann", "Ben"}
	g := duoRevealing(t, names)
	s := New(rules.Spectator)
	s.SetView(g.View(rules.Spectator))
	out := render(t, s, names, true)
	mustContain(t, out, "Their two rankings", "Ann and Ben matched")
	if strings.Contains(out, "You matched") || strings.Contains(out, "Your two") {
		t.Fatalf("the spectator is spoken to as a player:\n%s", out)
	}
	s = New(0)
	s.SetView(g.View(0))
	mustContain(t, render(t, s, names, true), "Your two rankings", "You matched")
}

// TestAWideTopicShowsWhole: a topic is limited to MaxTopicWidth columns, so one in
// Japanese as wide as that (20 characters) shows whole where an English one of the same
// width does: while ranking and in the reveal of a three-player table.
func TestAWideTopicShowsWhole(t *testing.T) {
	kana := []rune("漢字仮名交じり文東京大阪京都奈良神戸横浜名古屋札幌仙台広島福岡")
	var b strings.Builder
	for i := range tf.MinTopics {
		fmt.Fprintf(&b, "N%03d %sx\n", i, string(kana[i%10:i%10+17])) // 40 columns
	}
	names := []string{"Sarah", "Marie", "Eric"}
	g, err := tf.New(rules.Setup{Names: names, Seed: 5, Now: t0, Content: map[string][]byte{tf.TopicsFile: []byte(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	whole := func(s *Screen) {
		t.Helper()
		for _, plain := range []bool{false, true} {
			screen := render(t, s, names, plain)
			for _, topic := range s.v.Topics {
				if rules.Width(topic) != tf.MaxTopicWidth {
					t.Fatalf("topic %q is %d columns", topic, rules.Width(topic))
				}
				if strings.Contains(screen, topic[:4]) && !strings.Contains(screen, topic) {
					t.Fatalf("seat %d, %s: topic %q is cut:\n%s", s.seat, s.v.Phase, topic, screen)
				}
			}
		}
	}
	screens := []*Screen{New(0), New(1), New(2)}
	for _, s := range screens {
		s.SetView(g.View(s.seat))
		whole(s)
		press(s, "1", "2", "3", "4", "5")
		if s.needsMarker() {
			press(s, "m")
		}
		a := press(s, "enter")
		if a == nil {
			t.Fatalf("seat %d sent no ranking", s.seat)
		}
		if err := g.Apply(s.seat, rules.Encode(a), t0); err != nil {
			t.Fatal(err)
		}
	}
	revealed := false
	for now := t0; now.Before(t0.Add(30 * time.Second)); now = now.Add(time.Second) {
		g.Tick(now)
		for _, s := range screens {
			s.SetView(g.View(s.seat))
			whole(s)
			revealed = revealed || s.v.Phase == tf.PhaseReveal
		}
	}
	if !revealed {
		t.Fatal("the reveal never came")
	}
}
