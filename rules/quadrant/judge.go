package quadrant

import (
	"math"

	"parlor/rules/meaning"
)

// Judge is a bot's sense of the words: how much a word fits a criterion, from the
// content's meaning model (every word's attributes, every criterion's weights on them)
// plus the bot's own stable opinions. A person looking at a bot's token sees it where
// the word belongs; two bots disagree a little, like two people do.
type Judge struct {
	words, criteria []byte // the annotation files, read an entry at a time
	temper          meaning.Temperament
	known           map[string]meaning.Entry // entries read so far, by word or criterion
}

// NewJudge takes the meaning model from content (missing or unusable annotations leave
// the judge with opinions only, so a custom deck still gets legal, if random, play).
func NewJudge(content map[string][]byte, temper meaning.Temperament) *Judge {
	return &Judge{words: content[WordsMeaningFile], criteria: content[CriteriaMeaningFile], temper: temper, known: map[string]meaning.Entry{}}
}

// entry finds name's annotation in file, once.
func (j *Judge) entry(file []byte, name string) (meaning.Entry, bool) {
	if e, ok := j.known[name]; ok {
		return e, e.Name != ""
	}
	e, _ := meaning.Find(file, name)
	j.known[name] = e
	return e, e.Name != ""
}

// Plane scale: how many cells one step of fit (on the 0-4 attribute scale) moves a
// token, so the usual differences between words fill the plane without leaving it.
const (
	cellsPerStepX = 7.0
	cellsPerStepY = 3.5
)

// Fit is how much word fits criterion in this bot's opinion.
func (j *Judge) Fit(word, criterion string) float64 {
	f := 0.0
	if w, ok := j.entry(j.words, word); ok {
		if c, ok := j.entry(j.criteria, criterion); ok {
			f = meaning.Fit(w, c)
		}
	}
	return f + j.temper.Opinion(meaning.Key(criterion)+"/"+meaning.Key(word))
}

// Spot is where this bot puts word on the plane, relative to the reference word.
func (j *Judge) Spot(word, reference, horizontal, vertical string) Point {
	x := cellsPerStepX * (j.Fit(word, horizontal) - j.Fit(reference, horizontal))
	y := cellsPerStepY * (j.Fit(word, vertical) - j.Fit(reference, vertical))
	return Point{X: clampInt(int(math.Round(x)), MinX, MaxX), Y: clampInt(int(math.Round(y)), MinY, MaxY)}
}

// Match gives each of the tokens (by seat) one of the words numbered 1..len(v.Words)
// that used does not hold, each number once, so that the tokens stand as near as
// possible, all together, to where this bot would have put their words.
func (j *Judge) Match(v View, tokens, used map[int]bool) []Vote {
	var seats []int
	var at []Point
	for _, t := range v.Tokens {
		if tokens[t.Seat] {
			seats = append(seats, t.Seat)
			at = append(at, Point{X: t.X, Y: t.Y})
		}
	}
	var numbers []int
	var spots []Point
	for n := 1; n <= len(v.Words); n++ {
		if !used[n] {
			numbers = append(numbers, n)
			spots = append(spots, j.Spot(v.Words[n-1], v.Reference, v.Horizontal, v.Vertical))
		}
	}
	cost := func(t, w int) float64 {
		// The y axis has half the cells of the x axis: a cell up counts as two across.
		dx, dy := float64(at[t].X-spots[w].X), 2*float64(at[t].Y-spots[w].Y)
		return math.Sqrt(dx*dx + dy*dy)
	}
	pick := assign(len(seats), len(numbers), cost)
	var out []Vote
	for t, w := range pick {
		if w >= 0 {
			out = append(out, Vote{Seat: seats[t], Number: numbers[w]})
		}
	}
	return out
}

// assign gives each of n tokens a distinct one of m words (or -1 when words run out),
// at the least total cost: exhaustively for the handful of tokens a round has, closest
// pairs first beyond that.
func assign(n, m int, cost func(t, w int) float64) []int {
	best := make([]int, n)
	for i := range best {
		best[i] = -1
	}
	if n == 0 || m == 0 {
		return best
	}
	if n > 8 || m > 8 {
		taken := make([]bool, m)
		for t := range n {
			bw := -1
			for w := range m {
				if !taken[w] && (bw < 0 || cost(t, w) < cost(t, bw)) {
					bw = w
				}
			}
			if bw >= 0 {
				best[t], taken[bw] = bw, true
			}
		}
		return best
	}
	cur := make([]int, n)
	taken := make([]bool, m)
	bestCost := math.Inf(1)
	var walk func(t int, sum float64)
	walk = func(t int, sum float64) {
		if sum >= bestCost {
			return
		}
		if t == n {
			bestCost = sum
			copy(best, cur)
			return
		}
		placed := false
		for w := range m {
			if !taken[w] {
				placed = true
				taken[w], cur[t] = true, w
				walk(t+1, sum+cost(t, w))
				taken[w] = false
			}
		}
		if !placed { // more tokens than words: this one gets none
			cur[t] = -1
			walk(t+1, sum)
		}
	}
	walk(0, 0)
	return best
}
