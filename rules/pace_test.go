package rules

import (
	"errors"
	"testing"
	"time"
)

func TestFactors(t *testing.T) {
	for in, want := range map[string]Factor{"2": 2, "x1.5": 1.5, "×3": 3, "off": 1, "1": 1} {
		if got, err := ParseFactor(in); err != nil || got != want {
			t.Errorf("ParseFactor(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"4", "0", "-2", "1.25", "fast", "x"} {
		if _, err := ParseFactor(in); !errors.Is(err, ErrBadFactor) {
			t.Errorf("ParseFactor(%q): %v, want ErrBadFactor", in, err)
		}
	}
	if s := Factor(1.5).String(); s != "×1.5" {
		t.Errorf("String %q", s)
	}
}

func TestPaceDeadlines(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var p Pace
	p.SetPace(2, 3)
	p.SetPace(1, 7) // not a factor: ignored
	timer := NewTimer(t0, time.Minute)
	if d := p.Due(timer, 2); !d.Equal(t0.Add(3 * time.Minute)) {
		t.Errorf("seat 2 due %v", d)
	}
	if d := p.Due(timer, 1); !d.Equal(t0.Add(time.Minute)) {
		t.Errorf("seat 1 due %v", d)
	}
	all := func(int) bool { return true }
	notTwo := func(s int) bool { return s != 2 }
	if d := p.Until(timer, 4, all); !d.Equal(t0.Add(3 * time.Minute)) {
		t.Errorf("until %v", d)
	}
	if d := p.Until(timer, 4, notTwo); !d.Equal(t0.Add(time.Minute)) {
		t.Errorf("until without seat 2 %v", d)
	}
	if d := p.Shown(timer, 0, 4, all); !d.Equal(t0.Add(time.Minute)) {
		t.Errorf("seat 0 shown %v", d)
	}
	if d := p.Shown(timer, 2, 4, notTwo); !d.Equal(t0.Add(time.Minute)) {
		t.Errorf("seat 2, done, shown %v", d)
	}
	if d := p.Due(NewTimer(t0, 0), 2); !d.IsZero() || Passed(d, t0.Add(time.Hour)) {
		t.Errorf("an untimed phase has deadline %v", d)
	}
}
