package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Only the times under the keys of a view's or a table's times change, at any depth;
// a player's text that reads like a time, numbers and the rest stay as they are.
func TestShownJSONConvertsOnlyTheTimes(t *testing.T) {
	in := `{"deadline":"2035-02-04T18:49:32Z","text":"2035-02-04T18:49:32Z","seed":18446744073709551615,
		"seats":[{"name":"Ann","away_since":"2035-02-04T18:00:00Z"},{"name":"Ben"}],
		"ballot":{"changed_at":"0001-01-01T00:00:00Z","rev":3}}`
	back := func(at time.Time) time.Time {
		if at.IsZero() {
			return at
		}
		return at.AddDate(-8, 0, 0)
	}
	out := shownJSON([]byte(in), back)
	if !strings.Contains(string(out), `"seed":18446744073709551615`) {
		t.Errorf("a number changed: %s", out)
	}
	var got, want any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(`{"deadline":"2027-02-04T18:49:32Z","text":"2035-02-04T18:49:32Z","seed":18446744073709551615,
		"seats":[{"name":"Ann","away_since":"2027-02-04T18:00:00Z"},{"name":"Ben"}],
		"ballot":{"changed_at":"0001-01-01T00:00:00Z","rev":3}}`), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	if out := shownJSON([]byte(`not json`), back); string(out) != "not json" {
		t.Errorf("unreadable JSON came out as %q", out)
	}
}
