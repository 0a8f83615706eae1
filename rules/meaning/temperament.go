package meaning

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"
)

// Temperament is one bot's character: how far its private judgement strays from the
// shared meaning model, and how quickly it plays. Its opinions are stable, like a
// person's: the same bot judges the same thing the same way all game long, but two bots
// (two seeds) disagree, so they do not read each other telepathically.
type Temperament struct {
	seed  uint64
	Noise float64 // standard deviation of its misjudgement, in attribute steps
	Pace  float64 // multiplies its thinking times: above 1 is slower
	// skillPace is the skill's own pace, around which Pace varies: it scales the
	// shortest reaction (React), so that no bot of a skill is quicker than the skill.
	skillPace float64
	// Recall is the share of an entry's associated words the bot thinks of: people do
	// not all think of the same words, so neither do bots.
	Recall float64
}

// Skill levels: the base noise and pace of each bot skill (rules.SkillEasy, …).
var skills = map[string]struct{ noise, pace, recall float64 }{
	"easy":   {noise: 0.75, pace: 1.5, recall: 0.45},
	"normal": {noise: 0.38, pace: 1.0, recall: 0.6},
	"sharp":  {noise: 0.25, pace: 0.7, recall: 0.75},
}

// NewTemperament draws a bot's temperament for skill (an unknown skill plays as
// "normal") from seed: its noise and pace vary around the skill's by up to a quarter.
func NewTemperament(skill string, seed uint64) Temperament {
	s, ok := skills[skill]
	if !ok {
		s = skills["normal"]
	}
	r := rand.New(rand.NewPCG(seed, 0x7e3a))
	return Temperament{
		seed:      seed,
		Noise:     s.noise * (0.8 + 0.4*r.Float64()),
		Pace:      s.pace * (0.8 + 0.4*r.Float64()),
		Recall:    s.recall,
		skillPace: s.pace,
	}
}

// Opinion is the bot's stable private offset for what (e.g. "criterion/word"): a normal
// draw with the temperament's Noise, the same every time it is asked.
func (t Temperament) Opinion(what string) float64 {
	return t.rand(what).NormFloat64() * t.Noise
}

// Think scales a thinking time by the bot's pace.
func (t Temperament) Think(d time.Duration) time.Duration {
	return time.Duration(float64(d) * t.Pace)
}

// Reaction is how long people take over one kind of step of a game, from the moment it
// appears on their screen (a clue, a story, a new round) to their move: the time to
// read it and to find their answer. A bot that acts sooner than people can read leaves
// them no chance in a race.
type Reaction struct {
	Median time.Duration // a normal bot's median, for a choice of middling difficulty
	Least  time.Duration // the shortest a normal bot ever takes
}

// reactSpread is the standard deviation of the log of a reaction time: half of a bot's
// reactions to like steps fall within about 0.8 to 1.25 times its median.
const reactSpread = 0.35

// React is how long the bot takes over a step of kind r, which what names (such as
// "race/3", so that the bot takes the same time whenever it is asked about the same
// step): a draw on a log-normal curve around r.Median, scaled by the bot's pace and
// made longer the harder the choice is for it (hard from 0, the answer stands out, to
// 1, a toss-up: 0.75 to 1.25 times), never shorter than r.Least at the skill's pace
// (easy bots 1.5 times it, sharp ones 0.7) nor longer than three times the median.
func (t Temperament) React(what string, r Reaction, hard float64) time.Duration {
	z := max(-2, min(2, t.rand("react/"+what).NormFloat64()))
	d := float64(r.Median) * math.Exp(reactSpread*z) * (0.75 + 0.5*max(0, min(1, hard))) * t.Pace
	skill := t.skillPace
	if skill == 0 {
		skill = 1
	}
	return time.Duration(max(float64(r.Least)*skill, min(d, 3*float64(r.Median)*t.Pace)))
}

// hurryMargin is how long before a deadline a hurried bot acts.
const hurryMargin = 2 * time.Second

// Hurried is a reaction of d that began at since, cut short to end a moment before
// deadline (if there is one): a person who sees the time run out hurries too.
func Hurried(d time.Duration, since, deadline time.Time) time.Duration {
	if deadline.IsZero() {
		return d
	}
	return max(0, min(d, deadline.Sub(since)-hurryMargin))
}

// Hardness is how hard a choice is for a bot that scores its best option best and the
// next one second, on a scale where options a step apart differ by step: 0 when the best
// stands out by a step or more, 1 when the two are level.
func Hardness(best, second, step float64) float64 {
	if step <= 0 || math.IsInf(second, -1) {
		return 0
	}
	return max(0, min(1, 1-(best-second)/step))
}

// Draw is the bot's stable uniform draw in [0, 1) for what: the same every time it is
// asked, different between bots.
func (t Temperament) Draw(what string) float64 {
	return t.rand(what).Float64()
}

func (t Temperament) rand(what string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(what))
	return rand.New(rand.NewPCG(t.seed, h.Sum64()))
}

// Recalled are the associated words of e this bot thinks of: each with the chance Recall,
// drawn once per bot and word, so the bot always thinks of the same ones.
func (t Temperament) Recalled(e Entry) []string {
	var out []string
	for _, w := range e.Words {
		if t.Draw(Key(e.Name)+"/"+w) < t.Recall {
			out = append(out, w)
		}
	}
	return out
}
