package meaning

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// A bot takes the same time whenever it is asked about the same step, and bots differ;
// none is quicker than its skill's shortest; a harder choice takes longer; and at the
// median easy bots are slower than normal ones, normal than sharp.
func TestReactionsArePeoplesAndDeterministic(t *testing.T) {
	r := Reaction{Median: 10 * time.Second, Least: 4 * time.Second}
	least := map[string]time.Duration{"easy": 6 * time.Second, "normal": 4 * time.Second, "sharp": 2800 * time.Millisecond}
	median := map[string]time.Duration{}
	for skill, floor := range least {
		var all []time.Duration
		for seed := range uint64(300) {
			b := NewTemperament(skill, seed)
			once, again := b.React("race/1", r, 0.5), b.React("race/1", r, 0.5)
			if once != again {
				t.Fatalf("%s bot %d: two times for one step", skill, seed)
			}
			easy, hard := b.React("race/1", r, 0), b.React("race/1", r, 1)
			if hard < easy || (hard == easy && easy > floor) {
				t.Errorf("%s bot %d: %v over an easy choice, %v over a hard one", skill, seed, easy, hard)
			}
			for step := range 5 {
				d := b.React(fmt.Sprint("race/", step), r, 0.5)
				if d < floor {
					t.Errorf("%s bot %d: %v, shorter than %v", skill, seed, d, floor)
				}
				all = append(all, d)
			}
		}
		slices.Sort(all)
		median[skill] = all[len(all)/2]
		if all[0] == all[len(all)-1] {
			t.Errorf("every %s bot takes %v", skill, all[0])
		}
	}
	if !(median["easy"] > median["normal"] && median["normal"] > median["sharp"]) {
		t.Errorf("medians %v", median)
	}
}

// A bot that would take longer than the time left acts a moment before it runs out.
func TestAHurriedBotActsBeforeTheDeadline(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		d        time.Duration
		deadline time.Time
		want     time.Duration
	}{
		{20 * time.Second, time.Time{}, 20 * time.Second},
		{20 * time.Second, t0.Add(time.Minute), 20 * time.Second},
		{20 * time.Second, t0.Add(15 * time.Second), 13 * time.Second},
		{20 * time.Second, t0.Add(time.Second), 0},
	} {
		if got := Hurried(c.d, t0, c.deadline); got != c.want {
			t.Errorf("Hurried(%v, deadline in %v) = %v, want %v", c.d, c.deadline.Sub(t0), got, c.want)
		}
	}
}
