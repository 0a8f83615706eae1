package rules

// Option keys and values of the options every game has.
const (
	OptBots     = "bots" // bot skill
	SkillEasy   = "easy"
	SkillNormal = "normal"
	SkillSharp  = "sharp"
)

// CommonOptions are the table options every game has. Register appends them to each
// game's own options, so the lobby, the help screens and the API list them like any other
// and CheckOptions checks them; a game reads them from Setup.Options or BotSetup.Options.
// (What happens to an away player's seat is a table's option, not a game's: the lobby
// has it.)
var CommonOptions = []Option{
	{Key: OptBots, Name: "Bot skill", Help: "easy bots misjudge more and play slower; sharp bots read the game best and play quickly",
		Choices: []string{SkillEasy, SkillNormal, SkillSharp}, Default: SkillNormal},
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
