package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The servers parlor-load starts run with Go's collector trace on (GODEBUG=gctrace=1):
// one line on standard error per collection, which says when its mark began and how
// long it took. At thousands of players the slowest actions are the ones sent during a
// mark (docs/performance.md, "The collector"), so the report lays the slow actions
// beside the marks. The runtime has no other account of when a mark ran: its metrics
// count collections and their CPU, not their moments.

// gcMark is one collection's concurrent mark, as a server's trace gave it.
type gcMark struct {
	began  time.Time
	length time.Duration
	forced bool // runtime.GC (a heap profile), not the heap's growth
}

func (m gcMark) ended() time.Time { return m.began.Add(m.length) }

// gcLine is the start of a trace line, as the runtime writes it since Go 1.18:
// "gc 22 @89.381s 2%: 3.0+1400+0.092 ms clock, …": the collection began 89.381 s after
// the process started; the mark followed the first pause (3.0 ms) and took 1,400 ms.
var gcLine = regexp.MustCompile(`^gc \d+ @([0-9.]+)s \d+%: ([0-9.]+)\+([0-9.]+)\+[0-9.]+ ms clock`)

// parseGCLine reads one trace line of a process started at started.
func parseGCLine(line string, started time.Time) (gcMark, bool) {
	m := gcLine.FindStringSubmatch(line)
	if m == nil {
		return gcMark{}, false
	}
	secs, err1 := strconv.ParseFloat(m[1], 64)
	pause, err2 := strconv.ParseFloat(m[2], 64)
	mark, err3 := strconv.ParseFloat(m[3], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return gcMark{}, false
	}
	return gcMark{
		began:  started.Add(time.Duration(secs*float64(time.Second) + pause*float64(time.Millisecond))),
		length: time.Duration(mark * float64(time.Millisecond)),
		forced: strings.HasSuffix(strings.TrimSpace(line), "(forced)"),
	}, true
}

// withGCTrace is the GODEBUG a server is started with: godebug (parlor-load's own) with
// the collector's trace turned on. asked tells whether godebug had it on already: then
// the trace's lines go on to parlor-load's standard error, as the person asked.
func withGCTrace(godebug string) (env string, asked bool) {
	for _, s := range strings.Split(godebug, ",") {
		if k, v, _ := strings.Cut(strings.TrimSpace(s), "="); k == "gctrace" {
			asked = v != "0" // the last setting wins, in the runtime as here
		}
	}
	if godebug == "" {
		return "GODEBUG=gctrace=1", asked
	}
	return "GODEBUG=" + godebug + ",gctrace=1", asked
}

// gcTrace is a server's standard error: it keeps the marks of the trace's lines and
// passes every other line on to out (the trace's too when show). Lines are whole when
// passed on; a line the server never ended is passed on as it is at close.
type gcTrace struct {
	out     io.Writer
	show    bool
	started time.Time // just before the process started: the trace counts from there

	mu    sync.Mutex
	part  []byte // the start of a line not yet ended
	marks []gcMark
	lines int // the trace's lines read
}

func (g *gcTrace) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.part = append(g.part, p...)
	for {
		i := bytes.IndexByte(g.part, '\n')
		if i < 0 {
			break
		}
		g.line(g.part[:i+1])
		g.part = g.part[i+1:]
	}
	// A line longer than this is no trace line; pass it on rather than hold it.
	if len(g.part) > 64<<10 {
		g.line(g.part)
		g.part = nil
	}
	g.part = append([]byte(nil), g.part...) // what is kept must not hold the whole of p
	return len(p), nil
}

// line takes one line, its end included; g.mu is held.
func (g *gcTrace) line(l []byte) {
	if m, ok := parseGCLine(string(l), g.started); ok {
		g.marks = append(g.marks, m)
		g.lines++
		if !g.show {
			return
		}
	}
	_, _ = g.out.Write(l)
}

// flush passes on a line the server did not end (it stopped).
func (g *gcTrace) flush() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.part) > 0 {
		g.line(g.part)
		g.part = nil
	}
}

// read is the marks read so far, and how many trace lines.
func (g *gcTrace) read() ([]gcMark, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]gcMark(nil), g.marks...), g.lines
}

// nearMark is how close to a mark an action must be sent to count as near it: the
// actions sent in a mark wait for it, and the ones sent just before or after wait for
// the backlog it leaves (docs/performance.md: it drained within a second after).
const nearMark = 1500 * time.Millisecond

// slowAfter is the latency over which an action counts as slow: what feels instant.
const slowAfter = 100 * time.Millisecond

// SlowActions says how many actions were slow, and when the servers' traces were read
// (parlor-load started them), how many of those were sent near a mark.
type SlowActions struct {
	Over   int    `json:"over_100ms"`      // actions over 100 ms, never shown ones too
	Traced bool   `json:"traced"`          // every server's trace was read: the rest is known
	Near   int    `json:"near_marks"`      // of Over, those sent within 1.5 s of a mark
	Marks  []Mark `json:"marks,omitempty"` // the marks while the tables acted, every server's
}

// Mark is one of a server's collector marks while the tables acted.
type Mark struct {
	At     time.Duration `json:"at_ns"` // since the tables began acting
	Length time.Duration `json:"length_ns"`
	Node   int           `json:"node,omitempty"` // the server's number in a cluster, from 1
}

// slowActions counts the slow actions of s, and the ones near the marks of the busy
// phase (from start to end); traced says whether marks is every server's whole trace.
// marks[i] is server i's.
func slowActions(s *samples, start, end time.Time, marks [][]gcMark, traced bool) SlowActions {
	r := SlowActions{Traced: traced}
	if !traced {
		marks = nil // some server's are missing: say nothing of marks
	}
	var busy []gcMark
	for i, ms := range marks {
		node := i + 1
		if len(marks) == 1 {
			node = 0 // a lone server has no number
		}
		for _, m := range ms {
			if m.ended().After(start) && m.began.Before(end) {
				busy = append(busy, m)
				r.Marks = append(r.Marks, Mark{At: m.began.Sub(start), Length: m.length, Node: node})
			}
		}
	}
	for i, d := range s.all {
		if d <= slowAfter {
			continue
		}
		r.Over++
		for _, m := range busy {
			if at := s.at[i]; !at.Before(m.began.Add(-nearMark)) && !at.After(m.ended().Add(nearMark)) {
				r.Near++
				break
			}
		}
	}
	return r
}

// print writes the report's line for the slow actions of count.
func (r SlowActions) print(w io.Writer, count int) {
	line := "  over 100 ms     none"
	if r.Over > 0 {
		line = fmt.Sprintf("  over 100 ms     %d actions (%.1f %%)", r.Over, 100*float64(r.Over)/float64(max(count, 1)))
	}
	if !r.Traced {
		fmt.Fprintln(w, line)
		return
	}
	marks := make([]string, len(r.Marks))
	for i, m := range r.Marks {
		marks[i] = fmt.Sprintf("%.2f s long at %.1f s", m.Length.Seconds(), m.At.Seconds())
		if m.Node > 0 {
			marks[i] += fmt.Sprintf(" on node %d", m.Node)
		}
	}
	what := "no collector mark while the tables acted"
	if len(marks) > 0 {
		what = "the collector's marks while the tables acted: " + strings.Join(marks, ", ")
	}
	if r.Over > 0 {
		line += fmt.Sprintf("; %d of them sent within %.1f s of a mark", r.Near, nearMark.Seconds())
	}
	fmt.Fprintf(w, "%s (%s)\n", line, what)
}
