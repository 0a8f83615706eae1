package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The errors every game's Apply shares: the seat cannot play, or the game cannot be
// played, whatever the action says. Their texts carry no game's name, so a screen shows
// them as they are.
var (
	ErrSpectator     = Sentinel("rules.spectator", "spectators cannot play")
	ErrNoSuchSeat    = Sentinel("rules.no_such_seat", "no such seat")
	ErrGameOver      = Sentinel("rules.game_over", "the game is over")
	ErrUnknownAction = Sentinel("rules.unknown_action", "unknown action")
)

// Preamble is how every game's Apply begins, so that each game checks the same things
// the same way, in the same order:
//
//   - g.Tick(now): a deadline that now has passed acts first, so an action sent after it
//     meets the game as the deadline left it, whoever calls Apply (the table's actor
//     ticks before every action too, so for a table this changes nothing);
//   - a spectator (ErrSpectator) or a seat not at the table (ErrNoSuchSeat) cannot act;
//   - nobody acts once the game is over (ErrGameOver, as Outcome tells it);
//   - the action names its type (ErrBadAction otherwise), which Preamble returns for the
//     game to dispatch on.
//
// players is the number of seats. Only the tick can have changed g when Preamble fails:
// g is as Tick(now) would have left it.
func Preamble(g Game, seat, players int, action json.RawMessage, now time.Time) (string, error) {
	g.Tick(now)
	switch {
	case seat == Spectator:
		return "", ErrSpectator
	case seat < 0 || seat >= players:
		return "", fmt.Errorf("%w: seat %d (seats are 0 to %d)", ErrNoSuchSeat, seat, players-1)
	}
	if _, over := g.Outcome(); over {
		return "", ErrGameOver
	}
	return ActionType(action)
}

// UnknownAction is the error for an action of type typ the game does not have; types
// are the ones it has, named in the error.
func UnknownAction(typ string, types ...string) error {
	quoted := make([]string, len(types))
	for i, t := range types {
		quoted[i] = strconv.Quote(t)
	}
	if len(quoted) == 0 {
		return fmt.Errorf("%w %q", ErrUnknownAction, typ)
	}
	return fmt.Errorf("%w %q: use %s", ErrUnknownAction, typ, Or(quoted))
}

// Or writes items as a choice: "A", "A or B", "A, B or C".
func Or(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
