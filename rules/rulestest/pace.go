package rulestest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

// The extra-time checks (rules.Pace): a game of bots with every time limit on, in which,
// a few times per phase, the seat about to act is given more time in a replay of the
// game. Each game must then
//
//   - be rules.Paced;
//   - move that seat's own deadline by the limit times the factor less one (×2 and ×3
//     against ×1: start + limit × factor);
//   - leave every other waiting seat's deadline alone, unless it takes the turn with
//     that seat (a team's shared turn then ends at the same time);
//   - take that seat's action at its old deadline and just before its new one, ticked
//     up to then.

// pacedRun plays one game of bots with every timer on and runs the extra-time checks.
func pacedRun(t *testing.T, spec *rules.Spec, c Config, opts rules.Options, n int) {
	opts = Timed(spec, opts)
	p := newPlay(t, spec, c, opts, n, 7)
	if _, ok := p.g.(rules.Paced); !ok {
		t.Fatalf("%s does not give seats more time: its Game is not rules.Paced (embed a rules.Pace)", spec.ID)
	}
	checks := paceChecks{pauses: c.Pauses, byPhase: map[string]int{}}
	for step := 0; step < min(c.Steps, 4000) && !p.over() && checks.done < 10; step++ {
		p.now = p.now.Add(time.Second)
		p.tick()
		for s, b := range p.bots {
			if p.over() {
				break
			}
			a := b.Act(p.g.View(s), p.now)
			if a == nil {
				continue
			}
			raw := rules.Encode(a)
			checks.check(p, s, raw)
			if err := p.apply(s, raw); err != nil {
				t.Fatalf("step %d: the bot of seat %d was refused %s: %v", step, s, raw, err)
			}
		}
	}
	if checks.done == 0 {
		t.Fatalf("no timed phase in which a seat acts (options %v): the extra-time checks did not run", opts)
	}
	t.Logf("%d extra-time checks in phases %v", checks.done, checks.byPhase)
}

// Timed is opts with every time limit a host may turn off turned on, at its shortest.
func Timed(spec *rules.Spec, opts rules.Options) rules.Options {
	out := rules.Options{}
	for k, v := range opts {
		out[k] = v
	}
	for _, o := range spec.Options {
		if rules.OptionDuration(out[o.Key]) > 0 || !slices.Contains(o.Choices, "off") {
			continue
		}
		for _, ch := range o.Choices {
			if rules.OptionDuration(ch) > 0 {
				out[o.Key] = ch
				break
			}
		}
	}
	return out
}

// paceChecks runs the extra-time checks a few times per phase.
type paceChecks struct {
	pauses  []string // Config.Pauses
	byPhase map[string]int
	done    int
}

// check gives seat, whose bot is about to send action before its own deadline, ×2 and
// ×3 in replays of the game, and checks what the game makes of it.
func (c *paceChecks) check(p *play, seat int, action []byte) {
	t := p.t
	t.Helper()
	own := p.g.View(seat).Head()
	if own.Deadline.IsZero() || !p.now.Before(own.Deadline) || !slices.Contains(own.Waiting, seat) || c.byPhase[own.Phase] >= 2 || slices.Contains(c.pauses, own.Phase) {
		return
	}
	c.byPhase[own.Phase]++
	c.done++
	slow := func(f rules.Factor) rules.Game {
		g := p.replay()
		if !rules.SetPaceOf(g, seat, f) {
			t.Fatalf("%s is not rules.Paced", p.spec.ID)
		}
		return g
	}
	what := fmt.Sprintf("seat %d in the %s phase", seat, own.Phase)
	g2, g3 := slow(2), slow(3)
	d2, d3 := g2.View(seat).Head().Deadline, g3.View(seat).Head().Deadline
	if !d2.After(own.Deadline) || d3.Sub(own.Deadline) != 2*d2.Sub(own.Deadline) {
		t.Fatalf("%s: deadline %v at ×1, %v at ×2, %v at ×3: want start + limit × factor", what, own.Deadline, d2, d3)
	}
	for j := range p.n {
		h := p.g.View(j).Head()
		if j == seat || h.Deadline.IsZero() || !slices.Contains(h.Waiting, j) {
			continue
		}
		if got := g3.View(j).Head().Deadline; !got.Equal(h.Deadline) && !got.Equal(d3) {
			t.Fatalf("%s given ×3 moved seat %d's deadline from %v to %v", what, j, h.Deadline, got)
		}
	}
	for _, at := range []time.Time{own.Deadline, d3.Add(-time.Millisecond)} {
		g := slow(3)
		g.Tick(at)
		if err := g.Apply(seat, action, at); err != nil {
			t.Fatalf("%s, given ×3, was refused %s %v after its ×1 deadline: %v", what, action, at.Sub(own.Deadline), err)
		}
	}
	if g := slow(3); !g.Tick(d3) {
		t.Fatalf("%s, given ×3, did not time out at its own deadline %v", what, d3)
	}
}
