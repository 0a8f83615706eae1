package rules_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// clock is the least of a game for Preamble: a deadline that ends it.
type clock struct {
	deadline time.Time
	over     bool
	ticks    int
}

func (c *clock) Apply(int, json.RawMessage, time.Time) error { return nil }
func (c *clock) View(int) rules.View                         { return rules.Header{} }
func (c *clock) Tick(now time.Time) bool {
	if c.over || now.Before(c.deadline) {
		return false
	}
	c.over = true
	c.ticks++
	return true
}
func (c *clock) Outcome() (rules.Result, bool) { return rules.Result{}, c.over }

// Preamble checks what every game's Apply checks, in one order: the deadline first (so a
// late action meets the game as the deadline left it), then the seat, then the end of the
// game, then the action's type.
func TestPreamble(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ok := json.RawMessage(`{"type":"pick"}`)
	for _, c := range []struct {
		name   string
		seat   int
		action string
		at     time.Duration // after t0; the deadline is at t0+1m
		want   error
		text   string
		ticked bool
	}{
		{"in time", 1, `{"type":"pick"}`, 0, nil, "", false},
		{"spectator", rules.Spectator, `{"type":"pick"}`, 0, rules.ErrSpectator, "spectators cannot play", false},
		{"seat too far", 3, `{"type":"pick"}`, 0, rules.ErrNoSuchSeat, "no such seat: seat 3 (seats are 0 to 2)", false},
		{"negative seat", -2, `{"type":"pick"}`, 0, rules.ErrNoSuchSeat, "seat -2", false},
		{"no type", 0, `{}`, 0, rules.ErrBadAction, `missing "type"`, false},
		{"not JSON", 0, `x`, 0, rules.ErrBadAction, "not a JSON object", false},
		{"late", 0, `{"type":"pick"}`, time.Minute, rules.ErrGameOver, "the game is over", true},
		{"late spectator", rules.Spectator, `{"type":"pick"}`, time.Hour, rules.ErrSpectator, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &clock{deadline: t0.Add(time.Minute)}
			typ, err := rules.Preamble(g, c.seat, 3, json.RawMessage(c.action), t0.Add(c.at))
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if err != nil && !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %q does not say %q", err, c.text)
			}
			if err == nil && typ != "pick" {
				t.Errorf("type %q", typ)
			}
			if (g.ticks == 1) != c.ticked {
				t.Errorf("ticked %d times", g.ticks)
			}
		})
	}
	// A game that is over refuses before it reads the action.
	g := &clock{over: true}
	if _, err := rules.Preamble(g, 0, 3, ok, t0); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("after the end: %v", err)
	}
}

func TestUnknownAction(t *testing.T) {
	for _, c := range []struct {
		types []string
		want  string
	}{
		{nil, `unknown action "dance"`},
		{[]string{"rank"}, `unknown action "dance": use "rank"`},
		{[]string{"rank", "ready"}, `unknown action "dance": use "rank" or "ready"`},
		{[]string{"discard", "story", "token"}, `unknown action "dance": use "discard", "story" or "token"`},
	} {
		err := rules.UnknownAction("dance", c.types...)
		if !errors.Is(err, rules.ErrUnknownAction) || err.Error() != c.want {
			t.Errorf("%v: %q, want %q", c.types, err, c.want)
		}
	}
}
