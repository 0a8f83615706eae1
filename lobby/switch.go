package lobby

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"parlor/internal/playertext"
	"parlor/rules"
)

// OptGame is the table's Game option: the host switches the table to another game between
// games, so that friends play several games at one table. Its values are the games' names.
const OptGame = "game"

// gameOption is the Game option's choices: every game, by name.
func gameOption() rules.Option {
	var names []string
	for _, g := range rules.Games() {
		names = append(names, g.Name)
	}
	return rules.Option{Key: OptGame, Name: "Game",
		Help:    "the game the table plays next; the new game's options start from their defaults",
		Choices: names}
}

// gameNamed is the game called name (its name or id, in any case).
func gameNamed(name string) (*rules.Spec, error) {
	for _, g := range rules.Games() {
		if strings.EqualFold(g.Name, name) || strings.EqualFold(g.ID, name) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w: no game %q: the games are %s", rules.ErrBadOption, playertext.Short(name, 30), strings.Join(gameOption().Choices, ", "))
}

// switchGame makes spec the table's game, between games: its options from their defaults
// (keeping the value of an option both games have), its deck the built-in one, the shared
// packs it plays, and the table waiting for its first game; actor is who switched.
func (t *Table) switchGame(spec *rules.Spec, actor string, now time.Time) error {
	if spec == t.spec {
		return nil
	}
	if err := t.beforeStart(); err != nil {
		return err
	}
	kept := rules.Options{} // the values the new game takes too: bot skill, away players
	for _, o := range spec.Options {
		if v, ok := t.opts[o.Key]; ok && slices.Contains(o.Choices, v) {
			kept[o.Key] = v
		}
	}
	opts, err := spec.CheckOptions(kept)
	if err != nil {
		if opts, err = spec.CheckOptions(nil); err != nil {
			return err
		}
	}
	if _, max := spec.PlayerRange(opts); len(t.seats) > max {
		return fmt.Errorf("%s seats at most %d players and %d are seated: remove someone first", spec.Name, max, len(t.seats))
	}
	t.spec, t.opts = spec, opts
	t.deck, t.mix = nil, false
	t.shared = slices.DeleteFunc(t.shared, func(tp tablePack) bool { _, ok := t.fits(tp.Pack.Kind); return !ok })
	if t.state == StateFinished {
		// The last game's screen is of another game: the table waits for its next.
		t.state, t.game = StateWaiting, nil
	}
	for i, s := range t.seats {
		if s.bot != nil {
			s.bot = t.newBot(i)
		}
	}
	t.system(now, "%s switched the table to %s: its options start from their defaults.", actor, spec.Name)
	t.changed(now)
	return nil
}
