package quadrant

import (
	"math/rand/v2"
	"strconv"
	"time"

	"parlor/rules"
	"parlor/rules/meaning"
)

// Bot plays a seat from its own view. Its Judge places its word where the meaning model
// (and its own opinion) says it belongs, and reads other tokens the same way; it moves in
// small steps and pauses like a person would, at its temperament's pace.
type Bot struct {
	seat     int
	rng      *rand.Rand
	judge    *Judge
	temper   meaning.Temperament
	phaseKey string
	seenAt   time.Time
	think    time.Duration
	lastAct  time.Time
}

// NewBot makes a bot for seat.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	temper := meaning.NewTemperament(rules.Skill(s.Options), seed)
	return &Bot{seat: seat, rng: rand.New(rand.NewPCG(seed, seed^0x51ed2701)), temper: temper, judge: NewJudge(s.Content, temper)}
}

// Bot pacing: a pause when a phase opens, then one step at a time.
const (
	botThinkMin = 1500 * time.Millisecond
	botThinkMax = 4 * time.Second
	botStep     = 400 * time.Millisecond
	botWalk     = 5 * time.Second // about the most steps a placement takes, and a lock
)

// How long people take to read a phase before they move, from when it shows on their
// screen: a round's words, reference word and criteria before placing a token (a bot
// moved its token a second and a half into the round); every token before voting or
// writing on the team ballot. Other phases take botThinkMin to botThinkMax.
var readingReactions = map[string]meaning.Reaction{
	PhasePlacement: {Median: 9 * time.Second, Least: 4 * time.Second},
	PhaseVoting:    {Median: 12 * time.Second, Least: 5 * time.Second},
	PhaseTeamVote:  {Median: 9 * time.Second, Least: 4 * time.Second},
}

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
		if r, ok := readingReactions[v.Phase]; ok {
			deadline := v.Deadline
			if !deadline.IsZero() {
				deadline = deadline.Add(-botWalk) // time to walk the token there and lock it
			}
			b.think = meaning.Hurried(b.temper.React(key, r, 0.5), now, deadline)
		} else {
			b.think = b.temper.Think(botThinkMin + time.Duration(b.rng.Int64N(int64(botThinkMax-botThinkMin))))
		}
	}
	if now.Sub(b.seenAt) < b.think || now.Sub(b.lastAct) < b.temper.Think(botStep) {
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
		votes := b.guess(v, v.MyNumber)
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
		goal := b.judge.Spot(v.Words[v.MyNumber-1], v.Reference, v.Horizontal, v.Vertical)
		if t.X == goal.X && t.Y == goal.Y {
			return Lock{Type: TypeLock}
		}
		return Move{Type: TypeMove, X: t.X + clampInt(goal.X-t.X, -4, 4), Y: t.Y + clampInt(goal.Y-t.Y, -2, 2)}
	}
	return nil
}

// guess matches every other token to a word number (never own), each number once.
func (b *Bot) guess(v View, own int) []Vote {
	tokens := map[int]bool{}
	for _, t := range v.Tokens {
		if t.Seat != v.Seat {
			tokens[t.Seat] = true
		}
	}
	return b.guessAmong(v, tokens, map[int]bool{own: true})
}

// guessAmong matches the given tokens to unused numbers, by the bot's Judge.
func (b *Bot) guessAmong(v View, tokens, used map[int]bool) []Vote {
	return b.judge.Match(v, tokens, used)
}

func clampInt(v, lo, hi int) int { return max(lo, min(hi, v)) }
