// Package soak is the fault-injection soak's history and its checker: every request a
// soak player sent (an action, a game's start) with when it was sent and when, and how,
// it was answered, and every read of the tables' logs, checked with porcupine against a
// model of a table's log. The soak itself (real parlor processes, players, faults) is
// this package's test; see docs/reliability.md.
package soak

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
)

// Kind is what an operation of the history does to its table's log.
type Kind int

// The operations of a table's log, as the model knows them.
const (
	// Act is a player's action: once applied, the log holds it after every earlier one.
	Act Kind = iota
	// Start is the host starting a game: the log holds one game, so it empties.
	Start
	// Read is a look at the log itself (the store's, while no server writes to it).
	Read
)

// Outcome is how a request was answered.
type Outcome int

// Outcomes.
const (
	// Unknown: no answer came (the server died, the connection broke); the request may
	// or may not have been applied, once.
	Unknown Outcome = iota
	// OK: the server said "ok"; it must be in the log from then on.
	OK
	// Refused: the server said no; it must never be in the log.
	Refused
)

func (o Outcome) String() string {
	return [...]string{"unknown", "ok", "refused"}[o]
}

// Op is one operation of the history.
type Op struct {
	Client int    // who sent it (a player's index; -1 for the soak's own reads)
	Table  string // the table's code
	Kind   Kind
	// Entry is an Act's entry as the log records it: "seat {action JSON}".
	Entry   string
	Outcome Outcome
	Call    time.Time
	Return  time.Time // zero when no answer came
	// Log is a Read's result: the entries of the table's current game, in order.
	Log []string
	// NoGame marks a Read of a log that holds no game (nothing to compare).
	NoGame bool

	// seq is the request's place among its client's, from 1 (set by operations).
	seq int
}

func (o Op) String() string {
	at := func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.Format("15:04:05.000000")
	}
	switch o.Kind {
	case Read:
		return fmt.Sprintf("[%s..%s] read %s: %d entries", at(o.Call), at(o.Return), o.Table, len(o.Log))
	case Start:
		return fmt.Sprintf("[%s..%s] client %d start %s: %s", at(o.Call), at(o.Return), o.Client, o.Table, o.Outcome)
	}
	return fmt.Sprintf("[%s..%s] client %d act %s %s: %s", at(o.Call), at(o.Return), o.Client, o.Table, o.Entry, o.Outcome)
}

// History records operations from many goroutines.
type History struct {
	mu  sync.Mutex
	ops []Op
}

// Add records one finished (or never answered) operation.
func (h *History) Add(op Op) {
	h.mu.Lock()
	h.ops = append(h.ops, op)
	h.mu.Unlock()
}

// Ops is a copy of the history so far.
func (h *History) Ops() []Op {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Op(nil), h.ops...)
}

// Counts tallies the history: actions acknowledged, refused and unanswered, and reads.
func Counts(ops []Op) (acked, refused, unknown, reads int) {
	for _, o := range ops {
		switch {
		case o.Kind == Read:
			reads++
		case o.Kind != Act:
		case o.Outcome == OK:
			acked++
		case o.Outcome == Refused:
			refused++
		default:
			unknown++
		}
	}
	return
}

// logModel is a table's log as one seat's player may observe it: the seat's entries of
// one game, in the order applied. An acknowledged action is in it exactly once, from
// before its "ok" on, after everything the player was told "ok" for before; a refused
// one never; an unanswered one at most once; the seat's requests in the order sent. Its
// state is a logState; checkModel is this model as porcupine's checker takes it.
//
// The history is partitioned by table and seat: a seat is one player, who sends one
// request at a time, so porcupine searches one order per seat instead of every
// interleaving of a table's players between two reads (which it cannot finish). A start
// empties every seat's log, so it goes to every seat of its table; a read is cut into
// each seat's part.
var logModel = porcupine.NondeterministicModel{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		type key struct {
			table string
			seat  int
		}
		seats := map[string][]int{}
		for _, o := range history {
			if op := o.Input.(Op); op.Kind == Act && !slices.Contains(seats[op.Table], seatOf(op.Entry)) {
				seats[op.Table] = append(seats[op.Table], seatOf(op.Entry))
			}
		}
		by := map[key][]porcupine.Operation{}
		for _, o := range history {
			op := o.Input.(Op)
			for _, seat := range seats[op.Table] {
				k := key{op.Table, seat}
				switch op.Kind {
				case Act:
					if seatOf(op.Entry) == seat {
						by[k] = append(by[k], o)
					}
				case Start:
					by[k] = append(by[k], o)
				case Read:
					part := op
					part.Log = nil
					for _, e := range op.Log {
						if seatOf(e) == seat {
							part.Log = append(part.Log, e)
						}
					}
					o.Input = part
					by[k] = append(by[k], o)
				}
			}
		}
		keys := make([]key, 0, len(by))
		for k := range by {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return keys[i].table < keys[j].table || keys[i].table == keys[j].table && keys[i].seat < keys[j].seat
		})
		out := make([][]porcupine.Operation, 0, len(by))
		for _, k := range keys {
			out = append(out, by[k])
		}
		return out
	},
	Init: func() []any { return []any{logState{}} },
	Step: func(state, input, _ any) []any {
		s, op := state.(logState), input.(Op)
		switch op.Kind {
		case Read:
			if op.NoGame || stateOf(op.Log).same(s) {
				return []any{s}
			}
			return nil
		case Start:
			switch op.Outcome {
			case Refused:
				return []any{s}
			case Unknown:
				return []any{s, logState{last: s.last}}
			}
			return []any{logState{last: s.last}}
		}
		// The seat's own requests take effect (or not) in the order it sent them.
		if op.seq <= s.last {
			return nil
		}
		next := s
		next.last = op.seq
		switch op.Outcome {
		case Refused:
			return []any{next}
		case Unknown:
			return []any{next, next.add(op.Entry)}
		}
		return []any{next.add(op.Entry)}
	},
	DescribeOperation: func(input, _ any) string { return input.(Op).String() },
	DescribeState: func(state any) string {
		return fmt.Sprintf("%d entries", state.(logState).n)
	},
}

// checkModel is logModel as porcupine's checker takes it: its state the set of logs the
// seat may have, as ToModel's power set construction makes it, but kept sorted so that
// merging and comparing sets is linear rather than quadratic in their size (ToModel
// compares every state with every other, and a seat with a few unanswered requests
// between two reads has a few times two logs it may have).
var checkModel = porcupine.Model{
	Partition: logModel.Partition,
	Init:      func() any { return logSet{{}} },
	Step: func(state, input, output any) (bool, any) {
		var next logSet
		for _, s := range state.(logSet) {
			for _, n := range logModel.Step(s, input, output) {
				next = append(next, n.(logState))
			}
		}
		slices.SortFunc(next, logState.compare)
		next = slices.Compact(next)
		return len(next) > 0, next
	},
	Equal: func(a, b any) bool { return slices.Equal(a.(logSet), b.(logSet)) },
	Hash: func(state any) uint64 {
		var h uint64
		for _, s := range state.(logSet) {
			h = h*31 + s.h + uint64(s.n)<<32 + uint64(s.last)
		}
		return h
	},
	DescribeOperation: logModel.DescribeOperation,
	DescribeState: func(state any) string {
		set := state.(logSet)
		if len(set) == 1 {
			return logModel.DescribeState(set[0])
		}
		return fmt.Sprintf("one of %d logs", len(set))
	},
}

// logSet is the logs a seat may have, sorted.
type logSet []logState

// logState is a seat's log: how many entries, and a hash chained over them in order,
// so that a step is quick and small however long a game runs (a read compares its
// entries' chain; two different logs with one chain are a 64-bit collision); and the
// seq of the seat's last request taken (applied or not), so that its requests are taken
// in the order sent: an unanswered one is settled before the next, and the checker
// searches one order per seat, not every order of its unanswered requests.
type logState struct {
	n    int
	h    uint64
	last int
}

func (s logState) compare(o logState) int {
	return cmp.Or(cmp.Compare(s.n, o.n), cmp.Compare(s.h, o.h), cmp.Compare(s.last, o.last))
}

// same reports that two states hold the same log.
func (s logState) same(o logState) bool { return s.n == o.n && s.h == o.h }

func (s logState) add(entry string) logState {
	h := fnv.New64a()
	var prev [8]byte
	binary.LittleEndian.PutUint64(prev[:], s.h)
	_, _ = h.Write(prev[:])
	_, _ = h.Write([]byte(entry))
	return logState{n: s.n + 1, h: h.Sum64(), last: s.last}
}

func stateOf(log []string) logState {
	var s logState
	for _, e := range log {
		s = s.add(e)
	}
	return s
}

// Check checks the history against the model of a table's log: every acknowledged
// action is in the log, once, in an order the answers allow; no refused one is; no
// unanswered one is there twice.
//
// An unanswered request may have been applied, or not; as Jepsen has it, its answer
// could come any time later, but not for ever. It is settled, one way or the other,
// before the first of:
//   - the late-th read of its table after it was sent: by then the server that had it
//     has died (a lone server's log is read while it is down: late is 1) or has long been
//     past it (a cluster's: 2, a whole fault later);
//   - the answer to its player's next answered request: a player sends one request at a
//     time, and a table takes a seat's requests in the order sent, so one told "ok" (or
//     no) after an unanswered one was taken after it.
//
// Left open, every request that was never applied would double what the checker must
// try at every later read. The seat's requests are also taken in the order sent (see
// logState), so the search is one order per seat.
//
// Each partition (a table's seat) is checked on its own, for at most timeout; one that
// porcupine cannot decide in that time is a failure naming it, as is one that does not
// fit. It returns nil when the whole history fits.
func Check(ops []Op, late int, timeout time.Duration) error {
	var b strings.Builder
	for _, part := range logModel.Partition(operations(ops, late)) {
		table, seat := partOf(part)
		switch porcupine.CheckOperationsTimeout(partModel, part, timeout) {
		case porcupine.Ok:
			continue
		case porcupine.Unknown:
			unknown := 0
			for _, o := range part {
				if op := o.Input.(Op); op.Kind != Read && op.Outcome == Unknown {
					unknown++
				}
			}
			fmt.Fprintf(&b, "table %s, seat %d: porcupine could not decide within %s (%d operations, %d of them unanswered)\n", table, seat, timeout, len(part), unknown)
		default:
			var tops []Op
			for _, o := range ops {
				if o.Table == table {
					tops = append(tops, o)
				}
			}
			fmt.Fprintf(&b, "table %s, seat %d does not fit a table's log:\n%s", table, seat, describe(tops))
		}
	}
	if b.Len() > 0 {
		return fmt.Errorf("the history is not linearizable as a table's log:\n%s", b.String())
	}
	return nil
}

// partModel is checkModel for one partition, already cut.
var partModel = func() porcupine.Model {
	m := checkModel
	m.Partition = nil
	return m
}()

// partOf names a partition: its table, and the seat of its actions.
func partOf(part []porcupine.Operation) (table string, seat int) {
	seat = -1
	for _, o := range part {
		op := o.Input.(Op)
		table = op.Table
		if op.Kind == Act {
			return table, seatOf(op.Entry)
		}
	}
	return table, seat
}

// seatOf is the seat of an entry ("2 {...}"); -1 if it names none.
func seatOf(entry string) int {
	n, _, ok := strings.Cut(entry, " ")
	if !ok {
		return -1
	}
	seat, err := strconv.Atoi(n)
	if err != nil {
		return -1
	}
	return seat
}

// operations is the history as porcupine takes it, its times from the first call on,
// each request numbered among its client's (seq); an unanswered request returns just
// before the late-th read of its table after it, or when its client's next answered
// request was answered, whichever comes first (see Check).
func operations(ops []Op, late int) []porcupine.Operation {
	var base time.Time
	reads := map[string][]time.Time{}
	byClient := map[int][]int{} // each client's requests, by index into ops, in the order sent
	for i, o := range ops {
		if i == 0 || o.Call.Before(base) {
			base = o.Call
		}
		if o.Kind == Read {
			reads[o.Table] = append(reads[o.Table], o.Call)
		} else {
			byClient[o.Client] = append(byClient[o.Client], i)
		}
	}
	for _, r := range reads {
		slices.SortFunc(r, time.Time.Compare)
	}
	seq := make([]int, len(ops))
	settled := make([]time.Time, len(ops)) // an unanswered request's next answered one's answer
	for _, mine := range byClient {
		slices.SortStableFunc(mine, func(a, b int) int { return ops[a].Call.Compare(ops[b].Call) })
		var next time.Time
		for k := len(mine) - 1; k >= 0; k-- {
			i := mine[k]
			seq[i] = k + 1
			settled[i] = next
			if ops[i].Outcome != Unknown {
				next = ops[i].Return
			}
		}
	}
	out := make([]porcupine.Operation, 0, len(ops))
	for i, o := range ops {
		ret := int64(math.MaxInt64)
		switch {
		case o.Outcome != Unknown || o.Kind == Read:
			ret = int64(o.Return.Sub(base))
		default:
			r := reads[o.Table]
			if i := sort.Search(len(r), func(i int) bool { return r[i].After(o.Call) }) + late - 1; i < len(r) {
				ret = int64(r[i].Sub(base)) - 1
			}
			if !settled[i].IsZero() {
				ret = min(ret, int64(settled[i].Sub(base)))
			}
		}
		o.seq = seq[i]
		out = append(out, porcupine.Operation{ClientId: max(o.Client, 0), Input: o, Call: int64(o.Call.Sub(base)), Return: ret})
	}
	return out
}

// describe shows one table's reads, each with what it adds to the one before, and the
// actions acknowledged before a read that the read lacks.
func describe(ops []Op) string {
	var b strings.Builder
	var last []string
	var gameFrom time.Time // the newest acknowledged start
	for _, o := range ops {
		if o.Kind != Read || o.NoGame {
			continue
		}
		fmt.Fprintf(&b, "  %s\n", o)
		for _, e := range diff(last, o.Log) {
			fmt.Fprintf(&b, "    %s\n", e)
		}
		last = o.Log
		for _, a := range ops {
			if a.Kind == Start && a.Outcome == OK && a.Return.Before(o.Call) && a.Return.After(gameFrom) {
				gameFrom = a.Return
			}
		}
		for _, a := range ops {
			if a.Kind == Act && a.Outcome == OK && a.Call.After(gameFrom) && a.Return.Before(o.Call) && !slices.Contains(o.Log, a.Entry) {
				fmt.Fprintf(&b, "    missing: %s\n", a)
			}
		}
	}
	return b.String()
}

// diff lists how read b goes on from read a: the entries it adds, or, when it does not
// start with a, where they part.
func diff(a, b []string) []string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	var out []string
	if i < len(a) {
		out = append(out, fmt.Sprintf("parts from the previous read at entry %d (it had %d)", i, len(a)))
	}
	for _, e := range b[i:] {
		out = append(out, "+ "+e)
	}
	return out
}
