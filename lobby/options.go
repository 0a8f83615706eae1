package lobby

import (
	"fmt"
	"slices"

	"parlor/rules"
)

// The "away players" option: what happens to the seat of a player whose connection is
// gone while a game runs, so that no phase waits forever on someone who left. It is
// about connections, not a game's rules: the table acts on it (away.go), and every game
// has it, listed after the game's own options (and rules.CommonOptions) and before the
// deck. Its value is kept among the game's options (Table.opts), as the table log has
// always recorded it.
const (
	OptAway    = "away"
	AwayBot    = "bot after 60s" // a bot plays the seat after 60 s away, until the player returns
	AwayHost   = "wait for host" // the host decides: let a bot play the seat, or wait
	AwayTimers = "game timers"   // only the game's own time limits move the game on
)

// awayOption is the away players option.
var awayOption = rules.Option{Key: OptAway, Name: "Away players", Help: "when a player's connection is gone: a bot plays for them after 60 s until they return, the host decides, or only the game's timers (a phase with no time limit then waits until the host lets a bot play)",
	Choices: []string{AwayBot, AwayHost, AwayTimers}, Default: AwayBot}

// checkOptions is spec.CheckOptions for the options a table keeps with its game's: the
// game's own and away players. It returns them with their defaults filled in, or an
// error naming the bad key or value.
func checkOptions(spec *rules.Spec, o rules.Options) (rules.Options, error) {
	away, set := o[OptAway]
	if set {
		if !slices.Contains(awayOption.Choices, away) {
			return nil, fmt.Errorf("%w: %s must be one of %v, not %q", rules.ErrBadOption, awayOption.Name, awayOption.Choices, away)
		}
		o = cloneOptions(o)
		delete(o, OptAway)
	} else {
		away = awayOption.Default
	}
	out, err := spec.CheckOptions(o)
	if err != nil {
		return nil, err
	}
	out[OptAway] = away
	return out, nil
}

// forGame is the table's options as its game takes them: without away players, which no
// game knows (and Top Five, which checks its options again, would refuse).
func forGame(o rules.Options) rules.Options {
	out := cloneOptions(o)
	delete(out, OptAway)
	return out
}

// Games lists every registered game, by name, each with the options a table of it has
// whatever its deck: the game's own, then away players. (The deck's are a table's:
// Lobby.TableOptions.)
func Games() []*rules.Spec {
	games := rules.Games()
	for i, g := range games {
		with := *g
		with.Options = append(slices.Clip(g.Options), awayOption)
		games[i] = &with
	}
	return games
}
