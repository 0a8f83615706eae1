package rules_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	"parlor/rules/rulestest"
)

// terminalKeys finds words that only make sense at a keyboard: the JSON API shows
// prompts, errors and help as they are, so they must speak without terminal keys (the
// screens add their own key hints).
var terminalKeys = regexp.MustCompile(`(?i)\b(press|presses|pressing|enter|esc|escape|tab|space|spacebar|ctrl|pgup|pgdn|backspace|keys?)\b|[←→↑↓]|\bwith [a-z]\b|\(enter`)

func checkKeyFree(t *testing.T, what, text string) {
	t.Helper()
	if m := terminalKeys.FindString(text); m != "" {
		t.Errorf("%s mentions the terminal key %q: %q", what, m, text)
	}
}

// gameTable is one game at one table: its options and players.
type gameTable struct {
	id   string
	name string // for the subtest
	n    int
	opts rules.Options
}

// everyGame is every registered game, and each variant or mode that has prompts of its
// own (rulestest.Tables), with the fewest players it allows but at least three where it
// may, so that a prompt waits for more than one other player.
func everyGame() []gameTable {
	var out []gameTable
	for _, spec := range rules.Games() {
		for _, tb := range rulestest.Tables(spec) {
			if _, hi := spec.PlayerRange(tb.Options); tb.Players < 3 && hi >= 3 {
				tb.Players = 3
			}
			out = append(out, gameTable{id: spec.ID, name: tb.Name(spec), n: tb.Players, opts: tb.Options})
		}
	}
	return out
}

// No prompt, error or help text of any game speaks of terminal keys.
func TestAPITextHasNoTerminalKeys(t *testing.T) {
	for _, spec := range rules.Games() {
		checkKeyFree(t, spec.ID+" how to play", spec.HowToPlay)
		checkKeyFree(t, spec.ID+" summary", spec.Summary)
		for _, o := range spec.Options {
			checkKeyFree(t, spec.ID+" option "+o.Key, o.Help)
		}
	}
	for _, c := range everyGame() {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.id, c.n, c.opts, 1)
			seen := map[string]bool{}
			// Every seat's prompt through the first rounds, and the errors of actions
			// sent at the wrong time or with nonsense.
			for step := 0; step < 60; step++ {
				for seat := rules.Spectator; seat < c.n; seat++ {
					if p := g.View(seat).Head().Prompt; !seen[p] {
						seen[p] = true
						checkKeyFree(t, "prompt", p)
					}
					for _, raw := range []string{`{"type":"nope"}`, `{}`, `{"type":"rank","ranks":[1,1,1,1,1]}`, `{"type":"clue","text":""}`, `{"type":"point","card":12}`, `{"type":"story","text":"x"}`, `{"type":"token","card":-1}`, `{"type":"vote","votes":{}}`, `{"type":"submit"}`, `{"type":"lock"}`, `{"type":"ready"}`, `{"type":"discard","card":999}`} {
						if err := g.Apply(seat, []byte(raw), time.Time{}); err != nil && !seen[err.Error()] {
							seen[err.Error()] = true
							checkKeyFree(t, "error", err.Error())
						}
					}
				}
				g.Tick(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(step) * 30 * time.Second))
			}
		})
	}
}

// A seat's prompt says what it may do now on one line of an 80-column terminal, even
// with the longest names a player may pick (16 characters): the screens wrap a longer
// one onto a second line, which the game area's events give up. A list of whom the table waits for may be cut (the help shows the prompt whole),
// not what comes before it.
func TestPromptsFitEightyColumns(t *testing.T) {
	for _, c := range everyGame() {
		t.Run(c.name, func(t *testing.T) {
			names := make([]string, c.n)
			for i := range names {
				names[i] = string(rune('A'+i)) + "bcdefghijklmnop"
			}
			seen := map[string]bool{}
			playNamed(t, c.id, names, c.opts, 3, func(g rules.Game) {
				for seat := rules.Spectator; seat < c.n; seat++ {
					p := g.View(seat).Head().Prompt
					if seen[p] {
						continue
					}
					seen[p] = true
					what := p // before the list of names it waits for
					if i := strings.Index(strings.ToLower(p), "waiting for "); i >= 0 {
						what = p[:i+len("waiting for")]
					}
					if w := ansi.StringWidth(what); w > 80 {
						t.Errorf("seat %d: a prompt %d columns wide: %q", seat, w, p)
					}
				}
			})
		})
	}
}
