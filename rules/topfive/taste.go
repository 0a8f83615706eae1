package topfive

import (
	"math/rand/v2"

	"parlor/rules/meaning"
)

// commonTaste is what most people like and dislike, as weights on the topics'
// attributes (see topics.meaning): fun, comfort and food up, chores, waiting and
// bad smells down.
var commonTaste = map[string]float64{
	"fun": 0.5, "calm": 0.3, "cosy": 0.4, "food": 0.3, "social": 0.15, "nature": 0.15,
	"festive": 0.3, "cute": 0.3, "art": 0.1, "smell": 0.2, "romance": 0.1, "summer": 0.1,
	"chore": -0.6, "wait": -0.5, "danger": -0.3, "scary": -0.3, "stink": -0.5, "mess": -0.2, "noise": -0.15,
}

// tasteSpread is how far one person's taste strays from the common one, per attribute:
// enough that one loves the outdoors and another hates it.
const tasteSpread = 0.35

// taste is a weighting of the attributes: how much someone likes a topic.
type taste [meaning.NumAttributes]float64

// ownTaste is a bot's own taste: the common one, varied by its seed.
func ownTaste(seed uint64) taste {
	r := rand.New(rand.NewPCG(seed, 0x7a57e))
	var t taste
	for i, a := range meaning.Attributes {
		t[i] = commonTaste[a.Name] + tasteSpread*r.NormFloat64()
	}
	return t
}

// like is how much t likes a topic with these attributes.
func (t taste) like(v meaning.Values) float64 {
	s := 0.0
	for i, x := range v {
		s += t[i] * float64(x)
	}
	return s
}

// learn moves a guess of someone's taste towards their revealed ranking: for every pair
// of topics they ranked apart, a guess that does not like the preferred one clearly more
// is nudged along the difference (a pairwise perceptron), a few passes over the pairs.
func (t *taste) learn(topics []meaning.Values, ranks []int) {
	const rate, margin, passes = 0.05, 1.0, 5
	for range passes {
		for i := range topics {
			for j := range topics {
				if ranks[i] == 0 || ranks[j] == 0 || ranks[i] >= ranks[j] {
					continue // i must be liked more (a smaller rank) than j
				}
				if t.like(topics[i])-t.like(topics[j]) >= margin {
					continue
				}
				for a := range t {
					t[a] += rate * float64(int(topics[i][a])-int(topics[j][a]))
				}
			}
		}
	}
}
