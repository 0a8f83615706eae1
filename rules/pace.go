package rules

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// More time for one player. A table may give a seat more time in every timed phase of
// every game (a player who reads with a screen reader, types slowly, or thinks in a
// second language), without slowing the others. The rule is the same in every game:
//
//   - a timed phase starts at a time with the table's time limit for it (a Timer);
//   - a seat's own deadline is that start plus the limit times the seat's Factor (Due);
//   - a phase everyone takes part in at once times out seat by seat: a seat whose own
//     deadline has passed may no longer act in it (ErrTimeUp), and the phase ends when
//     no seat that has still to act has time left (Until), or earlier, as before, when
//     everyone has acted;
//   - a turn one seat takes, or a team takes together, lasts until the latest deadline
//     of those who take it.
//
// Pauses that are no one's time (a reveal, the results between rounds) do not change.
// Every game embeds a Pace and consults it where it times a seat out; rulestest checks
// that each one honours it.

// Factor is how many times the table's time limits a seat has.
type Factor float64

// Factors are the factors a table may give, the first being everyone's.
var Factors = []Factor{1, 1.5, 2, 3}

// ErrBadFactor is a factor that is not one of Factors.
var ErrBadFactor = Sentinel("rules.bad_factor", "more time is ×1.5, ×2 or ×3 (×1 for none)")

// ErrTimeUp is an action of a seat whose own time in the phase has run out, while others
// who were given more time may still act.
var ErrTimeUp = Sentinel("rules.time_up", "your time for this is up")

// Check returns ErrBadFactor unless f is one of Factors.
func (f Factor) Check() error {
	if !slices.Contains(Factors, f) {
		return fmt.Errorf("%w, not ×%s", ErrBadFactor, strconv.FormatFloat(float64(f), 'f', -1, 64))
	}
	return nil
}

// String is the factor as players read it: "×1.5".
func (f Factor) String() string {
	return "×" + strconv.FormatFloat(float64(f), 'f', -1, 64)
}

// ParseFactor reads a factor as a player types it: "2", "x2", "×1.5"; "off" is ×1.
func ParseFactor(s string) (Factor, error) {
	switch s {
	case "off", "none", "":
		return 1, nil
	}
	for _, p := range []string{"×", "x", "X"} {
		if len(s) > len(p) && s[:len(p)] == p {
			s = s[len(p):]
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%w, not %q", ErrBadFactor, s)
	}
	f := Factor(v)
	return f, f.Check()
}

// Paced is a game that gives seats more time. Every game is one: it embeds a Pace.
type Paced interface {
	// SetPace gives seat f times the table's time limits from now on, the current
	// phase included (a deadline the new factor has put in the past acts at the next
	// Tick). A table logs each call, so a replay sets the same factors at the same points.
	SetPace(seat int, f Factor)
}

// SetPaceOf gives seat f times the time limits in g, if g is Paced (every registered
// game is); it reports whether it was.
func SetPaceOf(g Game, seat int, f Factor) bool {
	p, ok := g.(Paced)
	if ok {
		p.SetPace(seat, f)
	}
	return ok
}

// Pace is each seat's factor, kept by a game (which embeds it, and so is Paced). The
// zero value gives everyone ×1.
type Pace struct {
	factors []Factor // by seat; missing or zero means ×1
}

// SetPace implements Paced. A factor that is not one of Factors is ignored: the table
// checks factors before they reach a game.
func (p *Pace) SetPace(seat int, f Factor) {
	if seat < 0 || f.Check() != nil {
		return
	}
	if seat >= len(p.factors) {
		p.factors = append(p.factors, make([]Factor, seat+1-len(p.factors))...)
	}
	p.factors[seat] = f
}

// Factor is seat's factor, ×1 unless it was given more.
func (p *Pace) Factor(seat int) Factor {
	if seat < 0 || seat >= len(p.factors) || p.factors[seat] == 0 {
		return 1
	}
	return p.factors[seat]
}

// Timer is a timed phase: when it started and the table's time limit for it (zero:
// untimed).
type Timer struct {
	Start time.Time
	Limit time.Duration
}

// NewTimer starts a phase at now with the table's limit (zero or less: untimed).
func NewTimer(now time.Time, limit time.Duration) Timer {
	if limit <= 0 {
		return Timer{}
	}
	return Timer{Start: now, Limit: limit}
}

// Due is seat's own deadline in t: its start plus the limit times seat's factor; zero if
// t is untimed.
func (p *Pace) Due(t Timer, seat int) time.Time {
	if t.Limit <= 0 {
		return time.Time{}
	}
	return t.Start.Add(time.Duration(float64(t.Limit) * float64(p.Factor(seat))))
}

// Until is the latest own deadline in t among the seats (of n) for which pending
// holds: when a phase times out in which only they have still to act, or a turn they
// take together ends. It is zero if t is untimed or no seat is pending. (A function
// rather than a list, so a tick that changes nothing allocates nothing.)
func (p *Pace) Until(t Timer, n int, pending func(seat int) bool) time.Time {
	var last time.Time
	for s := range n {
		if !pending(s) {
			continue
		}
		if d := p.Due(t, s); d.After(last) {
			last = d
		}
	}
	return last
}

// Shown is the deadline seat's view shows in t: its own if it is pending, else when
// the phase ends as things stand.
func (p *Pace) Shown(t Timer, seat, n int, pending func(seat int) bool) time.Time {
	if seat >= 0 && seat < n && pending(seat) {
		return p.Due(t, seat)
	}
	return p.Until(t, n, pending)
}

// Passed reports that deadline (zero: none) is at or before now.
func Passed(deadline, now time.Time) bool {
	return !deadline.IsZero() && !now.Before(deadline)
}
