package meaning

import (
	"hash/fnv"
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
		seed:   seed,
		Noise:  s.noise * (0.8 + 0.4*r.Float64()),
		Pace:   s.pace * (0.8 + 0.4*r.Float64()),
		Recall: s.recall,
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
