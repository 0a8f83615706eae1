package gameui

import (
	"fmt"
	"sync"
	"testing"
)

func (c *memo[K]) size() int {
	n := 0
	for _, m := range []*sync.Map{c.cur.Load(), c.old.Load()} {
		if m != nil {
			m.Range(func(any, any) bool { n++; return true })
		}
	}
	return n
}

// clear forgets everything, for a test that must draw again.
func (c *memo[K]) clear() {
	c.cur.Store(nil)
	c.old.Store(nil)
	c.n.Store(0)
}

// The memo keeps what it was given, stays within two generations rather than growing,
// and takes many sessions at once (run with -race).
func TestMemoKeepsBoundedAndConcurrently(t *testing.T) {
	c := &memo[int]{max: 100}
	if _, ok := c.get(1); ok {
		t.Fatal("an empty memo found a line")
	}
	c.put(1, "one")
	if v, ok := c.get(1); !ok || v != "one" {
		t.Fatalf("get(1) = %q, %v; want one", v, ok)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				k := g*1000 + i
				c.put(k, fmt.Sprint(k))
				if v, ok := c.get(k); ok && v != fmt.Sprint(k) {
					t.Errorf("get(%d) = %q", k, v)
				}
			}
		})
	}
	wg.Wait()
	// A put under way while another turns the generation may land in the old one: at
	// most one per goroutine above the bound.
	if n := c.size(); n > 2*100+8 {
		t.Fatalf("the memo holds %d entries, more than two generations of 100 (+8 in flight)", n)
	}
}

// A line in use survives any number of new lines: each generation it is found in the
// old one and moves into the new. A line not used for two generations is gone.
func TestMemoKeepsLinesInUse(t *testing.T) {
	c := &memo[int]{max: 10}
	c.put(-1, "hot")
	c.put(-2, "cold")
	for i := range 1000 {
		c.put(i, "new")
		if v, ok := c.get(-1); !ok || v != "hot" {
			t.Fatalf("after %d new lines the line in use is gone", i+1)
		}
	}
	if _, ok := c.get(-2); ok {
		t.Fatal("a line unused for 100 generations is still kept")
	}
}
