package quadrant

import (
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	"parlor/rules"
)

// Bot plays a seat from its own view. It rates every word on every criterion with a
// stable pseudo-score taken from a hash, so it places and reads tokens the same way in
// every round and every game; it moves in small steps and pauses like a person would.
type Bot struct {
	seat     int
	rng      *rand.Rand
	phaseKey string
	seenAt   time.Time
	think    time.Duration
	lastAct  time.Time
	jitter   Point // a small offset from the heuristic's cell, new each round, so bots are not perfect
}

// NewBot makes a bot for seat.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	return &Bot{seat: seat, rng: rand.New(rand.NewPCG(seed, seed^0x51ed2701))}
}

// Bot pacing: a pause when a phase opens, then one step at a time.
const (
	botThinkMin = 1500 * time.Millisecond
	botThinkMax = 4 * time.Second
	botStep     = 400 * time.Millisecond
)

// Act returns the bot's next action, or nil to wait.
func (b *Bot) Act(view rules.View, now time.Time) any {
	v, ok := rules.ViewAs[View](view)
	if !ok {
		return nil
	}
	if v.Over || v.Seat < 0 {
		return nil
	}
	if key := v.Phase + "/" + strconv.Itoa(v.Round); key != b.phaseKey {
		b.phaseKey, b.seenAt = key, now
		b.think = botThinkMin + time.Duration(b.rng.Int64N(int64(botThinkMax-botThinkMin)))
		b.jitter = Point{X: b.rng.IntN(5) - 2, Y: b.rng.IntN(3) - 1}
	}
	if now.Sub(b.seenAt) < b.think || now.Sub(b.lastAct) < botStep {
		return nil
	}
	a := b.decide(v, now)
	if a != nil {
		b.lastAct = now
	}
	return a
}

// decide picks the action for the current phase.
func (b *Bot) decide(v View, now time.Time) any {
	switch v.Phase {
	case PhasePlacement:
		return b.place(v)
	case PhaseVoting:
		if v.MyNumber == 0 || len(v.MyVotes) > 0 || len(v.Words) == 0 {
			return nil
		}
		for _, t := range v.Tokens {
			if t.Seat == v.Seat && t.Voted {
				return nil
			}
		}
		votes := guess(v, v.MyNumber)
		if len(votes) == 0 {
			return nil
		}
		return CastVotes{Type: TypeVote, Votes: votes}
	case PhaseTeamVote:
		return b.teamBallot(v, now)
	case PhaseScoring:
		for _, w := range v.Waiting {
			if w == v.Seat {
				return Continue{Type: TypeContinue}
			}
		}
	}
	return nil
}

// place walks the bot's token towards where its word belongs, then locks it.
func (b *Bot) place(v View) any {
	if v.MyNumber < 1 || v.MyNumber > len(v.Words) {
		return nil
	}
	for _, t := range v.Tokens {
		if t.Seat != v.Seat || t.Locked {
			continue
		}
		goal := Target(v.Words[v.MyNumber-1], v.Reference, v.Horizontal, v.Vertical)
		goal = Point{X: clampInt(goal.X+b.jitter.X, MinX, MaxX), Y: clampInt(goal.Y+b.jitter.Y, MinY, MaxY)}
		if t.X == goal.X && t.Y == goal.Y {
			return Lock{Type: TypeLock}
		}
		return Move{Type: TypeMove, X: t.X + clampInt(goal.X-t.X, -4, 4), Y: t.Y + clampInt(goal.Y-t.Y, -2, 2)}
	}
	return nil
}

// guess matches every other token to a word number (never own), each number once.
func guess(v View, own int) []Vote {
	tokens := map[int]bool{}
	for _, t := range v.Tokens {
		if t.Seat != v.Seat {
			tokens[t.Seat] = true
		}
	}
	return guessAmong(v, tokens, map[int]bool{own: true})
}

// guessAmong matches the given tokens to unused numbers, closest pairs first.
func guessAmong(v View, tokens, used map[int]bool) []Vote {
	type pair struct{ seat, number, dist int }
	var pairs []pair
	for _, t := range v.Tokens {
		if !tokens[t.Seat] {
			continue
		}
		for n := 1; n <= len(v.Words); n++ {
			if used[n] {
				continue
			}
			p := Target(v.Words[n-1], v.Reference, v.Horizontal, v.Vertical)
			pairs = append(pairs, pair{t.Seat, n, absInt(p.X-t.X) + 2*absInt(p.Y-t.Y)})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		a, c := pairs[i], pairs[j]
		if a.dist != c.dist {
			return a.dist < c.dist
		}
		if a.seat != c.seat {
			return a.seat < c.seat
		}
		return a.number < c.number
	})
	taken, numbered := map[int]bool{}, map[int]bool{}
	var out []Vote
	for _, p := range pairs {
		if taken[p.seat] || numbered[p.number] {
			continue
		}
		taken[p.seat], numbered[p.number] = true, true
		out = append(out, Vote{Seat: p.seat, Number: p.number})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out
}

// Target is where the bot's heuristic puts word on the plane, relative to the reference word.
func Target(word, reference, horizontal, vertical string) Point {
	x := 10 * (rating(word, horizontal) - rating(reference, horizontal))
	y := 5 * (rating(word, vertical) - rating(reference, vertical))
	return Point{X: clampInt(int(x), MinX, MaxX), Y: clampInt(int(y), MinY, MaxY)}
}

// rating is a stable pseudo-score in [-1, 1] of how much word fits criterion.
func rating(word, criterion string) float64 {
	h := fnv.New64a()
	h.Write([]byte(word))
	h.Write([]byte{0})
	h.Write([]byte(criterion))
	return float64(h.Sum64()%2001)/1000 - 1
}

func clampInt(v, lo, hi int) int { return max(lo, min(hi, v)) }

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
