package soak

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The checker tells a table's log that kept its promises from one that did not: each
// case is a small history and whether it may be true of a table.
func TestCheckFindsWhatALogLost(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	act := func(client int, entry string, o Outcome, call, ret int) Op {
		op := Op{Client: client, Table: "ABCD", Kind: Act, Entry: entry, Outcome: o, Call: at(call)}
		if o != Unknown {
			op.Return = at(ret)
		}
		return op
	}
	start := func(o Outcome, call, ret int) Op {
		return Op{Client: 0, Table: "ABCD", Kind: Start, Outcome: o, Call: at(call), Return: at(ret)}
	}
	read := func(call int, log ...string) Op {
		return Op{Client: -1, Table: "ABCD", Kind: Read, Call: at(call), Return: at(call + 1), Log: log}
	}
	for _, tc := range []struct {
		name string
		ops  []Op
		ok   bool
		late int // reads until an unanswered request is settled (0: 1)
	}{
		{"kept in order", []Op{act(0, "0 a", OK, 0, 1), act(1, "1 b", OK, 2, 3), read(10, "0 a", "1 b")}, true, 0},
		{"concurrent, either order", []Op{act(0, "0 a", OK, 0, 5), act(1, "1 b", OK, 1, 4), read(10, "1 b", "0 a")}, true, 0},
		{"acknowledged, lost", []Op{act(0, "0 a", OK, 0, 1), act(1, "1 b", OK, 2, 3), read(10, "0 a")}, false, 0},
		{"applied twice", []Op{act(0, "0 a", OK, 0, 1), read(10, "0 a", "0 a")}, false, 0},
		{"refused, applied", []Op{act(0, "0 a", Refused, 0, 1), read(10, "0 a")}, false, 0},
		{"out of order", []Op{act(0, "0 a", OK, 0, 1), act(0, "0 b", OK, 2, 3), read(10, "0 b", "0 a")}, false, 0},
		{"another seat's order is its own", []Op{act(0, "0 a", OK, 0, 1), act(1, "1 b", OK, 2, 3), read(10, "1 b", "0 a")}, true, 0},
		{"unanswered, applied", []Op{act(0, "0 a", OK, 0, 1), act(1, "1 b", Unknown, 2, 0), read(10, "0 a", "1 b")}, true, 0},
		{"unanswered, not applied", []Op{act(0, "0 a", OK, 0, 1), act(1, "1 b", Unknown, 2, 0), read(10, "0 a"), act(1, "1 c", OK, 20, 21), read(30, "0 a", "1 c")}, true, 0},
		{"unanswered, applied after a later read", []Op{act(1, "1 b", Unknown, 2, 0), read(10), read(30, "1 b")}, true, 2},
		{"unanswered, applied after it was settled", []Op{act(1, "1 b", Unknown, 2, 0), read(10), read(30, "1 b")}, false, 1},
		{"unanswered, applied after the player's next answer", []Op{act(1, "1 b", Unknown, 2, 0), act(1, "1 c", Refused, 5, 6), read(10), read(30, "1 b")}, false, 2},
		{"unanswered, applied after the seat's next action", []Op{act(1, "1 b", Unknown, 2, 0), act(1, "1 c", OK, 5, 6), read(10, "1 c", "1 b")}, false, 2},
		{"unanswered, applied before the seat's next action", []Op{act(1, "1 b", Unknown, 2, 0), act(1, "1 c", OK, 5, 6), read(10, "1 b", "1 c")}, true, 2},
		{"unanswered, applied twice", []Op{act(1, "1 b", Unknown, 2, 0), read(10, "1 b", "1 b")}, false, 0},
		{"unanswered, seen then gone", []Op{act(1, "1 b", Unknown, 2, 0), read(10, "1 b"), read(30)}, false, 0},
		{"a new game empties the log", []Op{act(0, "0 a", OK, 0, 1), read(5, "0 a"), start(OK, 6, 7), act(0, "1 b", OK, 8, 9), read(10, "1 b")}, true, 0},
		{"a refused start does not", []Op{act(0, "0 a", OK, 0, 1), start(Refused, 6, 7), read(10)}, false, 0},
		{"a log with no game says nothing", []Op{act(0, "0 a", OK, 0, 1), {Table: "ABCD", Kind: Read, Call: at(10), Return: at(11), NoGame: true}}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.ops, max(tc.late, 1), 10*time.Second)
			if (err == nil) != tc.ok {
				t.Fatalf("Check = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// A history with many unanswered requests is decided, and fits when it should: three
// seats of one table each send 600 requests, a third of them unanswered (half of those
// applied), sometimes several in a row, the log read after every tenth of a seat's
// requests (as the soak reads it after every fault), with the cluster's late bound (a
// request is settled only by the second read after it), so that without the bounds of
// Check an unanswered request stays open across the seat's later ones. The same history
// with one acknowledged action missing from the last read does not fit.
func TestCheckManyUnansweredRequests(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	rng := rand.New(rand.NewPCG(41, 2))
	var ops []Op
	logs := make([][]string, 3) // what each seat's requests really did to the log
	unanswered := 0
	var lastOK string
	clock := 0
	for range 60 {
		for range 10 {
			for seat := range 3 {
				clock += 2
				entry := fmt.Sprintf("%d {\"n\":%d}", seat, clock)
				op := Op{Client: seat, Table: "ABCD", Kind: Act, Entry: entry, Call: at(clock)}
				switch r := rng.IntN(6); {
				case r < 2: // no answer: applied or not
					unanswered++
					if r == 0 {
						logs[seat] = append(logs[seat], entry)
					}
				case r == 2:
					op.Outcome, op.Return = Refused, at(clock+1)
				default:
					op.Outcome, op.Return = OK, at(clock+1)
					logs[seat] = append(logs[seat], entry)
					lastOK = entry
				}
				ops = append(ops, op)
			}
		}
		clock += 10
		read := Op{Client: -1, Table: "ABCD", Kind: Read, Call: at(clock), Return: at(clock + 1)}
		for seat := range 3 {
			read.Log = append(read.Log, logs[seat]...)
		}
		ops = append(ops, read)
	}
	if unanswered < 500 {
		t.Fatalf("only %d unanswered requests", unanswered)
	}
	if err := Check(ops, 2, time.Minute); err != nil {
		t.Fatalf("%d requests, %d unanswered: %v", len(ops), unanswered, err)
	}
	last := &ops[len(ops)-1]
	for i, e := range last.Log {
		if e == lastOK {
			last.Log = append(last.Log[:i:i], last.Log[i+1:]...)
			break
		}
	}
	if err := Check(ops, 2, time.Minute); err == nil || strings.Contains(err.Error(), "could not decide") {
		t.Fatalf("an acknowledged action (%s) missing from the last read: Check = %v, want that it does not fit", lastOK, err)
	}
}

// A partition porcupine cannot decide in the time given is a failure that names it, not
// a hang: 30 requests of one seat in a row with no answer (each applied or not, in 2^30
// ways) and no read until all are sent, checked with a timeout of a tenth of a second.
func TestCheckNamesWhatItCannotDecide(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	ops := []Op{{Client: 0, Table: "WXYZ", Kind: Act, Entry: "0 {}", Outcome: OK, Call: at(0), Return: at(1)}}
	read := Op{Client: -1, Table: "WXYZ", Kind: Read, Call: at(1000), Return: at(1001), Log: []string{"0 {}"}}
	for i := range 30 {
		entry := fmt.Sprintf("1 {\"n\":%d}", i)
		ops = append(ops, Op{Client: 1, Table: "WXYZ", Kind: Act, Entry: entry, Call: at(10 + i)})
		if i%2 == 0 {
			read.Log = append(read.Log, entry)
		}
	}
	ops = append(ops, read)
	err := Check(ops, 1, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "table WXYZ, seat 1: porcupine could not decide") || strings.Contains(err.Error(), "seat 0") {
		t.Fatalf("Check = %v; want that table WXYZ's seat 1 (and only it) could not be decided", err)
	}
}
