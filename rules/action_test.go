package rules

import (
	"errors"
	"strings"
	"testing"
)

// An action that does not decode is answered in the API's words: which field, and what
// it must be or which fields the action has; never the decoder's own.
func TestDecodeSaysWhatIsWrongInTheAPIsWords(t *testing.T) {
	type pick struct {
		Type string `json:"type"`
		N    int    `json:"n"`
		Note string `json:"note,omitempty"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"type":"pick","n":1,"seat":2}`, `"seat" is not a field of this action: it has "type", "n" and "note"`},
		{`{"type":"pick","n":"one"}`, `"n" must be a whole number`},
		{`{"type":"pick","n":1,"note":[1]}`, `"note" must be a string`},
		{`{"type":"pick","n":1} {"type":"pick"}`, `trailing data`},
		{`{"type":"pick","n":1`, `not a whole JSON object`},
	} {
		var p pick
		err := Decode([]byte(c.in), &p)
		if !errors.Is(err, ErrBadAction) {
			t.Errorf("%s: %v is not ErrBadAction", c.in, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "json:") || strings.Contains(msg, "Go ") {
			t.Errorf("%s: %q, want %q in the API's words", c.in, msg, c.want)
		}
	}
	var p pick
	if err := Decode([]byte(`{"type":"pick","n":3}`), &p); err != nil || p.N != 3 {
		t.Errorf("a good action: %v %+v", err, p)
	}
}

// A refused action reads as a sentence: the engine's "game: " prefix, which the logs
// want, is not for the player.
func TestRefusal(t *testing.T) {
	for _, c := range []struct {
		game string
		err  error
		want string
	}{
		{"fingertip", errors.New("fingertip: taken — pick another"), "Taken — pick another"},
		{"quadrant", errors.New("quadrant: the vote is over"), "The vote is over"},
		{"quadrant", errors.New("topfive: not this game's"), "Topfive: not this game's"},
		{"", errors.New("you are not seated"), "You are not seated"},
		{"talltale", errors.New("talltale: "), ""},
	} {
		if got := Refusal(c.game, c.err); got != c.want {
			t.Errorf("Refusal(%q, %q) = %q, want %q", c.game, c.err, got, c.want)
		}
	}
}
