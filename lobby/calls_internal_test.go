package lobby

import (
	"fmt"
	"testing"
)

// A table remembers the ids of its latest keptCalls calls only, the oldest forgotten
// first, so a table that plays for days does not grow with them.
func TestATableRemembersItsLatestCallsOnly(t *testing.T) {
	var c callSet
	for i := range keptCalls + 10 {
		c.add(fmt.Sprint("call-", i))
	}
	c.add("") // a call without an id is never remembered
	if len(c.ids) != keptCalls || len(c.order) != keptCalls {
		t.Fatalf("%d ids remembered (%d in order); want %d", len(c.ids), len(c.order), keptCalls)
	}
	for i := range 10 {
		if c.has(fmt.Sprint("call-", i)) {
			t.Errorf("call-%d, among the oldest, is still remembered", i)
		}
	}
	if !c.has(fmt.Sprint("call-", keptCalls+9)) || !c.has("call-10") {
		t.Error("the latest calls are not all remembered")
	}
	if c.has("") {
		t.Error("a call without an id is remembered")
	}
}
