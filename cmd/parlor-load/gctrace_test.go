package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestParseGCLineReadsTheMark(t *testing.T) {
	start := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	m, ok := parseGCLine("gc 22 @89.381s 2%: 3.0+1400+0.092 ms clock, 6.0+344/703/0+0.18 ms cpu, 1759->1830->662 MB, 1916 MB goal, 81 MB stacks, 0 MB globals, 2 P\n", start)
	if !ok || m.forced {
		t.Fatalf("parseGCLine: %+v, %v; want a mark of a collection the heap set off", m, ok)
	}
	if want := start.Add(89381*time.Millisecond + 3*time.Millisecond); !m.began.Equal(want) || m.length != 1400*time.Millisecond {
		t.Errorf("mark began %v and took %v; want %v and 1.4 s", m.began.Sub(start), m.length, want.Sub(start))
	}
	m, ok = parseGCLine("gc 23 @107.444s 2%: 3.2+541+0.10 ms clock, 6.4+0/278/755+0.20 ms cpu, 1911->1911->593 MB, 2150 MB goal, 81 MB stacks, 0 MB globals, 2 P (forced)", start)
	if !ok || !m.forced || m.length != 541*time.Millisecond {
		t.Errorf("a forced collection: %+v, %v", m, ok)
	}
	for _, l := range []string{"", "gc 1 @0.1s", "time=… level=WARN msg=\"gc 1 @0.1s 1%: 1+2+3 ms clock\"", "scvg: 0 MB released"} {
		if m, ok := parseGCLine(l, start); ok {
			t.Errorf("parseGCLine(%q) = %+v; want no mark", l, m)
		}
	}
}

func TestWithGCTraceKeepsTheOtherSettings(t *testing.T) {
	for _, c := range []struct {
		in, env string
		asked   bool
	}{
		{"", "GODEBUG=gctrace=1", false},
		{"madvdontneed=1", "GODEBUG=madvdontneed=1,gctrace=1", false},
		{"gctrace=1,madvdontneed=1", "GODEBUG=gctrace=1,madvdontneed=1,gctrace=1", true},
		{"gctrace=1,gctrace=0", "GODEBUG=gctrace=1,gctrace=0,gctrace=1", false},
	} {
		env, asked := withGCTrace(c.in)
		if env != c.env || asked != c.asked {
			t.Errorf("withGCTrace(%q) = %q, %v; want %q, %v", c.in, env, asked, c.env, c.asked)
		}
	}
}

// A server's standard error comes in pieces that do not follow its lines: the trace's
// lines are kept (and shown only when asked for), every other line passes on whole.
func TestGCTraceKeepsTheMarksAndPassesTheRestOn(t *testing.T) {
	text := "time=1 level=WARN msg=\"a table's store write failed\"\n" +
		"gc 1 @0.081s 1%: 0.54+2.1+0.078 ms clock, 1.0+1.2/1.2/0+0.15 ms cpu, 7->7->6 MB, 7 MB goal, 0 MB stacks, 0 MB globals, 2 P\n" +
		"panic: something\n" +
		"gc 2 @1.5s 4%: 0.5+30+0.1 ms clock, 1+0/20/30+0.2 ms cpu, 14->15->9 MB, 14 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)\n" +
		"the end without a line end"
	for _, show := range []bool{false, true} {
		var out bytes.Buffer
		g := &gcTrace{out: &out, show: show, started: time.Now()}
		for rest := text; rest != ""; {
			n := min(7, len(rest))
			if _, err := g.Write([]byte(rest[:n])); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		g.flush()
		marks, lines := g.read()
		if lines != 2 || len(marks) != 2 || marks[0].forced || !marks[1].forced || marks[1].length != 30*time.Millisecond {
			t.Errorf("show %v: %d lines, marks %+v; want the two collections", show, lines, marks)
		}
		want := "time=1 level=WARN msg=\"a table's store write failed\"\npanic: something\nthe end without a line end"
		if show {
			want = text
		}
		if out.String() != want {
			t.Errorf("show %v: passed on\n%q\nwant\n%q", show, out.String(), want)
		}
	}
}

func TestSlowActionsAreLaidBesideTheMarks(t *testing.T) {
	start := time.Now()
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	var s samples
	s.add(at(1), 30*time.Millisecond)     // quick
	s.add(at(2), 300*time.Millisecond)    // slow, away from any mark
	s.add(at(8.6), 150*time.Millisecond)  // slow, 1.4 s before the mark
	s.add(at(10.5), 900*time.Millisecond) // in it
	s.add(at(12.4), Never)                // never shown, 1.4 s after it
	s.add(at(14), 120*time.Millisecond)   // 3 s after it
	marks := [][]gcMark{{
		{began: at(-20), length: time.Second, forced: true}, // before the phase: not one of its marks
		{began: at(10), length: time.Second},
	}}
	r := slowActions(&s, start, at(15), marks, true)
	if r.Over != 5 || r.Near != 3 || len(r.Marks) != 1 || r.Marks[0].At != 10*time.Second || r.Marks[0].Length != time.Second || r.Marks[0].Node != 0 {
		t.Errorf("slowActions: %+v; want 5 over 100 ms, 3 of them near the one mark at 10 s", r)
	}
	var out bytes.Buffer
	r.print(&out, 6)
	if want := "over 100 ms     5 actions (83.3 %); 3 of them sent within 1.5 s of a mark (the collector's marks while the tables acted: 1.00 s long at 10.0 s)\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("printed %q; want %q", out.String(), want)
	}

	// Two nodes: the second's mark counts too, and says which node made it.
	r = slowActions(&s, start, at(15), [][]gcMark{nil, {{began: at(2.5), length: 100 * time.Millisecond}}}, true)
	if r.Near != 1 || len(r.Marks) != 1 || r.Marks[0].Node != 2 {
		t.Errorf("on two nodes: %+v; want the action at 2 s near node 2's mark", r)
	}

	// None slow, no mark.
	out.Reset()
	slowActions(&samples{}, start, at(15), marks[:0], true).print(&out, 0)
	if want := "  over 100 ms     none (no collector mark while the tables acted)\n"; out.String() != want {
		t.Errorf("none slow: printed %q; want %q", out.String(), want)
	}

	// Servers parlor-load did not start: how many were slow, and nothing about marks.
	r = slowActions(&s, start, at(15), nil, false)
	out.Reset()
	r.print(&out, 6)
	if r.Over != 5 || r.Near != 0 || r.Marks != nil || strings.TrimSpace(out.String()) != "over 100 ms     5 actions (83.3 %)" {
		t.Errorf("untraced: %+v, printed %q", r, out.String())
	}
}
