package rules

// Option keys and values of the options every game has.
const (
	OptBots     = "bots" // bot skill
	SkillEasy   = "easy"
	SkillNormal = "normal"
	SkillSharp  = "sharp"

	// OptAway is the "away players" option: what happens to the seat of a player whose
	// connection is gone while a game runs, so that no phase waits forever on someone
	// who left. The table acts on it, not the game.
	OptAway    = "away"
	AwayBot    = "bot after 60s" // a bot plays the seat after 60 s away, until the player returns
	AwayHost   = "wait for host" // the host decides: let a bot play the seat, or wait
	AwayTimers = "game timers"   // only the game's own time limits move the game on
)

// CommonOptions are the table options every game has. Register appends them to each
// game's own options, so the lobby, the help screens and the API list them like any other
// and CheckOptions checks them; a game reads them from Setup.Options or BotSetup.Options.
var CommonOptions = []Option{
	{Key: OptBots, Name: "Bot skill", Help: "easy bots misjudge more and play slower; sharp bots read the game best and play quickly",
		Choices: []string{SkillEasy, SkillNormal, SkillSharp}, Default: SkillNormal},
	{Key: OptAway, Name: "Away players", Help: "when a player's connection is gone: a bot plays for them after 60 s until they return, the host decides, or only the game's timers (a phase with no time limit then waits until the host lets a bot play)",
		Choices: []string{AwayBot, AwayHost, AwayTimers}, Default: AwayBot},
}

// Skill is the bot skill chosen in o: SkillEasy, SkillNormal or SkillSharp (the default
// when the option is missing or unknown, e.g. in a test's bare setup).
func Skill(o Options) string {
	switch v := o[OptBots]; v {
	case SkillEasy, SkillSharp:
		return v
	}
	return SkillNormal
}
