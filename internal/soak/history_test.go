package soak

import (
	"testing"
	"time"

	"parlor/rules"
	"parlor/rules/topfive"
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

// The Top Five reveal check holds a seat to the ranking it was told "ok" for.
func TestTopFiveRevealCheck(t *testing.T) {
	reveal := func(ranks ...int) topfive.View {
		v := topfive.View{Header: rules.Header{Round: 2}, Honour: 0, Topics: []string{"a", "b", "c", "d", "e"}, Tally: &topfive.Tally{}}
		for i, r := range ranks {
			v.Reveal = append(v.Reveal, topfive.Row{Topic: i, Rank: 1, Guesses: []topfive.Guess{{Seat: 1, Rank: r}}})
		}
		return v
	}
	rank := func(round int, o Outcome, ranks ...int) *sent {
		return &sent{round: round, action: topfive.Rank{Type: topfive.TypeRank, Ranks: ranks}, outcome: o}
	}
	for _, tc := range []struct {
		name string
		view topfive.View
		mine []*sent
		ok   bool
	}{
		{"the acknowledged ranking", reveal(1, 2, 3, 4, 5), []*sent{rank(2, OK, 1, 2, 3, 4, 5)}, true},
		{"another ranking", reveal(5, 4, 3, 2, 1), []*sent{rank(2, OK, 1, 2, 3, 4, 5)}, false},
		{"an earlier round's", reveal(1, 2, 3, 4, 5), []*sent{rank(1, OK, 1, 2, 3, 4, 5)}, false},
		{"a refused one", reveal(1, 2, 3, 4, 5), []*sent{rank(2, Refused, 1, 2, 3, 4, 5)}, false},
		{"an unanswered one", reveal(1, 2, 3, 4, 5), []*sent{rank(2, Unknown, 1, 2, 3, 4, 5)}, true},
		{"an unanswered one, not applied", reveal(0, 0, 0, 0, 0), []*sent{rank(2, Unknown, 1, 2, 3, 4, 5)}, true},
		{"acknowledged, then lost", reveal(0, 0, 0, 0, 0), []*sent{rank(2, OK, 1, 2, 3, 4, 5)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			round, err := topFiveReveal(1, tc.view, tc.mine)
			if round != 2 || (err == nil) != tc.ok {
				t.Fatalf("round %d, err %v; want round 2, ok %v", round, err, tc.ok)
			}
		})
	}
}
