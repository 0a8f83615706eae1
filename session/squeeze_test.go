package session

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
	ft "parlor/rules/fingertip"
	fs "parlor/rules/foresight"
	qd "parlor/rules/quadrant"
	tt "parlor/rules/talltale"
	tf "parlor/rules/topfive"
	"parlor/session/gameui"
	"parlor/session/gameui/gameuitest"
)

// squeeze is one table of the squeeze test: a game and options, its longest texts, what
// its seats do through their screens, and what must be whole on every screen.
type squeeze struct {
	name    string
	game    string
	players int
	opts    rules.Options
	content map[string][]byte
	move    func(t *testing.T, check checker) gameuitest.Move // nil: the bots play
	played  func(v rules.View) bool                           // the view shows move's longest text
	check   checker
}

// checker fails t unless a screen (its lines, drawn plain or not) keeps what it must.
type checker func(t *testing.T, where string, v rules.View, plain bool, lines []string)

// inBox checks a screen while a text box holds the longest text, before it is sent.
func inBox(t *testing.T, check checker, seat int, s gameui.Screen) {
	t.Helper()
	if !s.Typing() {
		t.Fatalf("seat %d: the text box lost its focus", seat)
	}
	squeezeCheck(t, fmt.Sprintf("seat %d, the text box full", seat), s, nil, check)
}

// longName is the name of seat i, 16 columns wide (the longest a name may be): a seat
// number, then wide CJK characters, emoji, capitals or accented letters by turn. The
// number and the character after it (tag) tell the seats apart on screen.
func longName(i int) string {
	fill := []string{"漢字漢字漢字漢", "🎲🙂🎲🙂🎲🙂🎲", "WWWWWWWWWWWWWW", "ŴïđéÑåmęΩmȩgåË"}[i%4]
	return fmt.Sprintf("%02d", i) + fill
}

// tag is what of seat i's name is on screen however narrow its column.
func tag(i int) string { return string([]rune(longName(i))[:3]) }

// fill repeats words (separated by spaces) and ends with end, exactly w columns in all.
func fill(words []string, w int, end string) string {
	var b strings.Builder
	for i := 0; ; i = (i + 1) % len(words) {
		next := words[i] + " "
		if ansi.StringWidth(b.String()+next)+ansi.StringWidth(end) > w {
			break
		}
		b.WriteString(next)
	}
	text := strings.TrimRight(b.String(), " ") // as the sanitiser would
	for ansi.StringWidth(text)+ansi.StringWidth(end) < w {
		text += "x"
	}
	return text + end
}

var (
	// The longest clue and story the rules allow, with wide characters and emoji.
	longClue  = fill([]string{"wide", "open", "sky", "漢字", "🙂"}, ft.ClueMax, "")
	longStory = fill([]string{"once", "upon", "a", "time", "漢字", "🙂", "we", "sailed", "far"}, tt.MaxStory-len(" And it ended."), ".") + " And it ended."
)

// topics is a Top Five deck of topics as long as a topic may be.
func topics() []byte {
	var b strings.Builder
	for i := range tf.MinTopics {
		fmt.Fprintf(&b, "%s %03d\n", strings.Repeat("Longest topic ", 3)[:tf.MaxTopicWidth-4], i)
	}
	return []byte(b.String())
}

// questions is a Foresight deck of questions and answers as long as they may be.
func questions() []byte {
	var b strings.Builder
	for i := range 40 {
		q := fill([]string{"Which", "of", "these", "would", "you", "rather"}, fs.MaxQuestionLen, fmt.Sprintf("%03d?", i))
		fmt.Fprintf(&b, "family | %s", q)
		for c := range fs.MaxChoices {
			fmt.Fprintf(&b, " | %s", fill([]string{"an", "answer"}, fs.MaxChoiceLen, fmt.Sprintf("%c%c", 'A'+i%26, 'a'+c)))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// mustShow fails unless every part is on the screen.
func mustShow(t *testing.T, where string, lines []string, parts ...string) {
	t.Helper()
	screen := strings.Join(lines, "\n")
	for _, p := range parts {
		if !strings.Contains(screen, p) {
			t.Fatalf("%s: %q lost its row:\n%s", where, p, screen)
		}
	}
}

// everySeat fails unless every seat's name but the viewer's (who may be "you") is on
// the screen.
func everySeat(t *testing.T, where string, v rules.View, lines []string) {
	t.Helper()
	for i := range v.Head().Scores { // a score per seat
		if i != v.Head().Seat {
			mustShow(t, where, lines, tag(i))
		}
	}
}

// typeInto types text into a screen's text box key by key.
func typeInto(s gameui.Screen, text string) {
	for _, r := range text {
		s.Update(gameuitest.Key(string(r)))
	}
}

func fingertipSqueeze(players int) squeeze {
	return squeeze{
		name: fmt.Sprintf("Fingertip, %d players", players), game: ft.ID, players: players,
		move: func(t *testing.T, check checker) gameuitest.Move {
			return func(seat int, s gameui.Screen, bot any) any {
				if _, clue := bot.(ft.Clue); !clue {
					return bot
				}
				if !s.Typing() {
					s.Update(gameuitest.Key("enter")) // opens the clue box
				}
				typeInto(s, longClue)
				inBox(t, check, seat, s)
				a, _ := s.Update(gameuitest.Key("enter"))
				return a
			}
		},
		played: func(v rules.View) bool { fv, _ := rules.ViewAs[ft.View](v); return fv.Clue == longClue },
		check: func(t *testing.T, where string, view rules.View, plain bool, lines []string) {
			v, _ := rules.ViewAs[ft.View](view)
			if v.Over {
				return
			}
			everySeat(t, where, view, lines)
			for _, c := range v.Square {
				if plain { // descriptions instead of pictures
					mustShow(t, where, lines, strings.Fields(c.Alt)[0])
					continue
				}
				for _, l := range c.Art {
					if l = strings.TrimSpace(l); l != "" {
						mustShow(t, where, lines, l)
					}
				}
			}
		},
	}
}

func talltaleSqueeze(players int) squeeze {
	return squeeze{
		name: fmt.Sprintf("Tall Tale, %d players", players), game: tt.ID, players: players,
		move: func(t *testing.T, check checker) gameuitest.Move {
			return func(seat int, s gameui.Screen, bot any) any {
				if _, story := bot.(tt.Story); !story {
					return bot
				}
				if !s.Typing() {
					s.Update(gameuitest.Key("enter")) // back into the box
				}
				s.Update(tea.PasteMsg{Content: longStory})
				inBox(t, check, seat, s)
				a, _ := s.Update(gameuitest.Key("enter"))
				if a == nil { // warned of a forbidden word: send anyway
					a, _ = s.Update(gameuitest.Key("enter"))
				}
				return a
			}
		},
		played: func(v rules.View) bool { tv, _ := rules.ViewAs[tt.View](v); return tv.Story == longStory },
		check: func(t *testing.T, where string, view rules.View, plain bool, lines []string) {
			v, _ := rules.ViewAs[tt.View](view)
			switch {
			case v.Phase == tt.PhaseOver:
				return
			case v.Phase == tt.PhaseReveal && v.Reveal != nil:
				if !v.Reveal.TimedOut && !strings.Contains(strings.Join(strings.Fields(strings.Join(lines, " ")), " "), v.Story) {
					t.Fatalf("%s: the reveal does not show the whole story:\n%s", where, strings.Join(lines, "\n"))
				}
				for _, k := range v.Reveal.Kept {
					mustShow(t, where, lines, k.Card.Name)
				}
				everySeat(t, where, view, lines)
			case v.Phase == tt.PhaseDiscard && v.Hand != nil:
				for _, ill := range v.Hand.Drawn {
					mustShow(t, where, lines, ill.Name)
				}
			}
			for _, b := range v.Boards { // the board on screen keeps every illustration
				title := strings.ToUpper(b.Colour[:1]) + b.Colour[1:] + " board"
				if gameuitest.Index(lines, "["+title+"]") < 0 {
					continue
				}
				for _, ill := range b.Illustrations {
					mustShow(t, where, lines, ill.Name)
				}
			}
		},
	}
}

// squeezes are every game in each of its modes, at the most players it takes.
func squeezes() []squeeze {
	topfive := func(t *testing.T, where string, view rules.View, _ bool, lines []string) {
		v, _ := rules.ViewAs[tf.View](view)
		switch {
		case v.Over:
		case v.Phase == tf.PhaseRanking:
			mustShow(t, where, lines, v.Topics...)
			everySeat(t, where, view, lines)
		case v.Variant == tf.VariantDuo:
			mustShow(t, where, lines, "same?")
		case v.Tally == nil || !v.Tally.Forfeit:
			mustShow(t, where, lines, "points this round")
		}
	}
	foresight := func(t *testing.T, where string, view rules.View, plain bool, lines []string) {
		v, _ := rules.ViewAs[fs.View](view)
		if v.Over {
			return
		}
		everySeat(t, where, view, lines)
		if v.Phase == fs.PhaseAnswering {
			for i := range v.Choices {
				mustShow(t, where, lines, fmt.Sprintf(" %d  ", i+1))
			}
		}
	}
	quadrant := func(t *testing.T, where string, view rules.View, plain bool, lines []string) {
		v, _ := rules.ViewAs[qd.View](view)
		if top := gameuitest.Index(lines, "▲"); top >= 0 && v.Phase != qd.PhaseOver {
			// The plane: the vertical criterion, eleven rows, the ticks under it.
			if ticks := gameuitest.Index(lines, "╵"); ticks-top < 12 {
				t.Fatalf("%s: the plane has %d rows:\n%s", where, ticks-top-1, strings.Join(lines, "\n"))
			}
		}
	}
	return []squeeze{
		{name: "Top Five, 8 players", game: tf.ID, players: 8, content: map[string][]byte{tf.TopicsFile: topics()}, check: topfive},
		{name: "Top Five duo", game: tf.ID, players: 2, opts: rules.Options{tf.OptVariant: tf.VariantDuo}, content: map[string][]byte{tf.TopicsFile: topics()}, check: topfive},
		fingertipSqueeze(ft.MaxPlayers),
		{name: "Foresight, 8 players", game: "foresight", players: 8, opts: rules.Options{"rounds": "5"},
			content: map[string][]byte{fs.QuestionsFile: questions()}, check: foresight},
		{name: "Quadrant, 7 players", game: qd.ID, players: 7, check: quadrant},
		{name: "Quadrant teams, 14 players", game: qd.ID, players: qd.TeamMax, opts: rules.Options{qd.OptMode: qd.ModeTeam}, check: quadrant},
		talltaleSqueeze(6),
	}
}

// squeezeCheck draws a screen at 80×24's game area, plain and in colour, and checks it:
// no line wider than 80 columns, no more rows than the area, a footer of whole entries
// and every picture, board and row the game must keep (check, given the view v; a screen
// whose text box is being filled is checked against nothing but the size).
func squeezeCheck(t *testing.T, where string, s gameui.Screen, v rules.View, check checker) {
	t.Helper()
	seat := rules.Spectator
	if v != nil {
		seat = v.Head().Seat
	}
	for _, plain := range []bool{true, false} {
		out := s.Render(gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: gameuitest.Start, Plain: plain, Seat: seat})
		lines := gameuitest.Area(t, out, 80, gameui.AreaHeight)
		if err := gameuitest.FooterError(80, s.Keys(), s.Typing()); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if check != nil && v != nil {
			check(t, fmt.Sprintf("%s (plain %v)", where, plain), v, plain, lines)
		}
	}
}

// longChat is a chat message longer than the lobby keeps (it cuts it to its limit).
var longChat = fill([]string{"a", "rather", "long", "message", "漢字", "🙂"}, 300, " END")

// Every phase of every game, seen from every seat and by a spectator, keeps its pictures,
// boards and rows at 80×24 with the longest names and texts, and its footer fits; the
// large layout of 120×40 stays inside its area.
func TestNothingSqueezesAt80x24(t *testing.T) {
	// In the session: the longest name in the title, the longest chat in the feed and in
	// the chat box leave the frame 80×24 with a footer of whole entries.
	for _, sq := range squeezes() {
		t.Run("chat, "+sq.name, func(t *testing.T) {
			h := newHarness(t, longName(0), 80, 24)
			h.sitAt(sq.game, sq.opts, sq.players)
			if err := lobby.Run(h.m.table.member, lobby.Chat{Text: longChat}); err != nil {
				t.Fatal(err)
			}
			h.pump(func() bool { return strings.Contains(strings.Join(h.m.table.feed, " "), "漢字") })
			h.checkFrame(sq.name + ", the longest chat in the feed")
			h.press("/")
			for _, r := range longChat {
				h.press(string(r))
			}
			h.checkFrame(sq.name + ", the longest chat in the box")
		})
	}
	for _, sq := range squeezes() {
		t.Run(sq.name, func(t *testing.T) {
			t.Parallel()
			names := make([]string, sq.players)
			for i := range names {
				names[i] = longName(i)
				if w := ansi.StringWidth(names[i]); w != 16 {
					t.Fatalf("name %q is %d columns", names[i], w)
				}
			}
			table := gameuitest.NewTable(t, sq.game, names, sq.opts, sq.content, 7)
			phases := map[string]bool{}
			played := sq.played == nil
			seen := map[int]string{} // the view each seat's screen was last checked with
			var move gameuitest.Move
			if sq.move != nil {
				move = sq.move(t, sq.check)
			}
			table.Play(t, move, func(seat int, s gameui.Screen) {
				v := table.Game.View(seat)
				phases[v.Head().Phase] = true
				played = played || sq.played(v)
				b, _ := json.Marshal(v)
				if string(b) == seen[seat] {
					return // the same view draws the same screen
				}
				seen[seat] = string(b)
				where := fmt.Sprintf("%s, seat %d, round %d, %s", sq.name, seat, v.Head().Round, v.Head().Phase)
				squeezeCheck(t, where, s, v, sq.check)
				// The large layout of a 120×40 terminal stays inside its area too.
				w, h := gameuitest.Width120x40, gameuitest.Height120x40
				gameuitest.Area(t, s.Render(gameui.Frame{Width: w, Height: h, Now: gameuitest.Start, Seat: seat}), w, h)
			}, nil)
			if !table.Over() || len(phases) < 3 {
				t.Fatalf("the game did not go through its phases: %v", phases)
			}
			if !played {
				t.Fatal("the longest text never reached the table")
			}
			t.Logf("phases: %v", slices.Sorted(maps.Keys(phases)))
		})
	}
}
