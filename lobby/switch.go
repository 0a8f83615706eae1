package lobby

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"parlor/playertext"
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

// common is the options every game has (bot skill, away players) of opts: a switch keeps
// their values, where a game's own start from its defaults, even where another game has
// one of the same key (a "timer" is another limit in each).
func common(opts rules.Options) rules.Options {
	kept := rules.Options{}
	for _, o := range append(slices.Clip(rules.CommonOptions), awayOption) {
		if v, ok := opts[o.Key]; ok {
			kept[o.Key] = v
		}
	}
	return kept
}

// seating is spec's options from kept for seated players: its defaults, or, when they
// seat fewer, the first other choice of one option that seats them all (Quadrant's team
// mode for eight or more).
func seating(spec *rules.Spec, kept rules.Options, seated int) (rules.Options, error) {
	opts, err := checkOptions(spec, kept)
	if err != nil {
		return nil, err
	}
	_, max := spec.PlayerRange(opts)
	if seated <= max {
		return opts, nil
	}
	for _, o := range spec.Options {
		for _, c := range o.Choices {
			try := cloneOptions(opts)
			try[o.Key] = c
			if _, m := spec.PlayerRange(try); seated <= m {
				return try, nil
			}
		}
	}
	return nil, told(ErrSeats, "%s seats at most %d players and %d are seated: remove someone first", spec.Name, max, seated)
}

// ErrSeats is a switch to a game that seats fewer players than the table has.
var ErrSeats = rules.Sentinel("lobby.seats", "the game seats fewer players than are seated")

// switchGame makes spec the table's game, between games: its options from their defaults
// (keeping the values of the options every game has), its deck the built-in one, the
// shared packs it plays, and the table waiting for its first game; actor is who switched.
// more are the other options of the same change: one the new game refuses refuses the
// switch too, before anything changed. The caller sets them on the new game.
func (t *Table) switchGame(spec *rules.Spec, more rules.Options, actor string, now time.Time) error {
	if spec == t.spec {
		return nil
	}
	_, deck := more[OptDeck]
	if _, content := more[OptContent]; deck || content {
		return fmt.Errorf("%w: choose the deck once the table plays %s: its choices are that game's", rules.ErrBadOption, spec.Name)
	}
	opts, err := seating(spec, common(t.opts), len(t.seats))
	if err != nil {
		return err
	}
	with := cloneOptions(opts)
	for k, v := range gameOptions(more) {
		with[k] = v
	}
	checked, err := checkOptions(spec, with)
	if err != nil {
		return err
	}
	if _, max := spec.PlayerRange(checked); len(t.seats) > max {
		return told(ErrSeats, "%s with those options seats at most %d players and %d are seated: remove someone first", spec.Name, max, len(t.seats))
	}
	t.spec, t.opts = spec, opts
	t.deck, t.mix = nil, false
	var dropped []string
	t.shared = slices.DeleteFunc(t.shared, func(tp tablePack) bool {
		_, ok := t.fits(tp.Pack.Kind)
		if !ok {
			dropped = append(dropped, tp.Label)
		}
		return !ok
	})
	if t.state == StateFinished {
		// The last game's screen is of another game: the table waits for its next.
		t.state, t.game = StateWaiting, nil
	}
	for i, s := range t.seats {
		if s.bot != nil {
			s.bot = t.newBot(i)
		}
	}
	t.system(now, "%s switched to %s; its options start at their defaults.", actor, spec.Name)
	if len(dropped) > 0 {
		t.system(now, "%s cannot play the shared packs %s: they are no longer offered (share them again at a table that plays them).", spec.Name, rules.List(dropped))
	}
	t.changed(now)
	return nil
}
