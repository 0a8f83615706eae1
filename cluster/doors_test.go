package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/cluster"
	_ "parlor/games"
	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// The test of every door: each table operation (lobby.Requests) and each sentinel error
// (rules.Sentinels) goes through a member of a table on its own node and through a
// member on another node of the cluster, and both give the same result and the same
// error (errors.Is holds, the text is the same). An operation or an error added without
// support fails here: the lists come from their declarations.

// door is one player's place at one of two twin tables: here (the table's node) or
// there (through the other node).
type door struct {
	name string
	host lobby.Place // Ann, who made the table, on its node
	ben  lobby.Place // Ben: a local member, or a remote one
	code string
}

// twinTables makes two tables of game on node a, hosted by Ann, and seats Ben at the
// first through node a and at the second through node b.
func twinTables(t *testing.T, game string, opts rules.Options) (here, there door, clock *testclock.Clock) {
	t.Helper()
	url, _ := natstest.Run(t)
	clock = testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	_, la := cluster.StartSteadyTestNode(t, url, "a", clock)
	_, lb := cluster.StartSteadyTestNode(t, url, "b", clock)
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	ben := lobby.Player{ID: "SHA256:ben", Name: "Ben"}
	make := func(name string, via *lobby.Lobby) door {
		h, err := la.Create(ann, game, opts, false)
		if err != nil {
			t.Fatal(err)
		}
		var b lobby.Place
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if b, err = via.Join(ben, h.Code()); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			t.Fatalf("%s: Ben joins: %v", name, err)
		}
		return door{name: name, host: h, ben: b, code: h.Code()}
	}
	return make("here", la), make("there", lb), clock
}

// A player the host blocks cannot sit or watch again, whichever node they come
// through, until the host unblocks them.
func TestABlockHoldsAtEveryNode(t *testing.T) {
	url, _ := natstest.Run(t)
	clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	_, la := cluster.StartSteadyTestNode(t, url, "a", clock)
	_, lb := cluster.StartSteadyTestNode(t, url, "b", clock)
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	ben := lobby.Player{ID: "SHA256:ben", Name: "Ben"}
	h, err := la.Create(ann, "topfive", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	var b lobby.Place
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, err = lb.Join(ben, h.Code()); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(h, lobby.Block{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, door{ben: b})
	for _, l := range []*lobby.Lobby{la, lb} {
		if _, err := l.Join(ben, h.Code()); !errors.Is(err, lobby.ErrBlocked) {
			t.Errorf("join: %v", err)
		}
		if _, err := l.Watch(ben, h.Code()); !errors.Is(err, lobby.ErrBlocked) {
			t.Errorf("watch: %v", err)
		}
	}
	if err := lobby.Run(h, lobby.Unblock{Name: "Ben"}); err != nil {
		t.Fatal(err)
	}
	if b, err = lb.Join(ben, h.Code()); err != nil {
		t.Fatalf("unblocked Ben joins through the other node: %v", err)
	}

	// Ignoring works for a member on another node: the owner leaves the lines out of
	// that member's updates, and says whom it ignores.
	if err := lobby.Run(b, lobby.Ignore{Seat: 0}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(h, lobby.Chat{Text: "from Ann"}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.Chat{Text: "from Ben"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := contextFor(5 * time.Second)
	defer cancel()
	for {
		u, ok, why := b.Next(ctx)
		if !ok {
			t.Fatalf("Ben's member closed: %s", why)
		}
		if !slices.ContainsFunc(u.Chat, func(l lobby.ChatLine) bool { return l.Text == "from Ben" }) {
			continue
		}
		if slices.ContainsFunc(u.Chat, func(l lobby.ChatLine) bool { return l.Text == "from Ann" }) || !slices.Equal(u.Ignored, []string{"Ann"}) {
			t.Fatalf("Ben's update: chat %+v, ignored %v", u.Chat, u.Ignored)
		}
		break
	}
}

// outcome is what one operation gave, in words that do not depend on the table's code.
type outcome struct {
	result any
	code   string
	text   string
}

func (d door) run(who string, req lobby.Request) (outcome, error) {
	p := d.ben
	if who == "Ann" {
		p = d.host
	}
	res, err := p.Call(req)
	o := outcome{result: res}
	if err != nil {
		o.code, o.text = rules.ErrorCode(err), strings.ReplaceAll(err.Error(), d.code, "CODE")
	}
	return o, err
}

// A step of the script: who sends which request, and the sentinel it must fail with
// (nil: it succeeds; other: fails, with no sentinel expected).
type step struct {
	who  string
	req  lobby.Request
	want error
}

var errOther = errors.New("some error")

func TestEveryOperationIsTheSameThroughEveryDoor(t *testing.T) {
	here, there, _ := twinTables(t, "topfive", nil)
	script := []step{
		{"Ben", lobby.Chat{Text: "hi"}, nil},
		{"Ben", lobby.Chat{Text: " "}, lobby.ErrEmptyChat},
		{"Ben", lobby.ActOf(map[string]any{"type": "ready"}), lobby.ErrNoGame},
		{"Ben", lobby.TakeSeat{}, errOther},
		{"Ben", lobby.Share{Pack: "nope"}, errOther},
		{"Ben", lobby.ShareAll{}, errOther},
		{"Ben", lobby.RereadPacks{}, nil},
		{"Ben", lobby.Start{}, lobby.ErrNotHost},
		{"Ben", lobby.AddBot{}, lobby.ErrNotHost},
		{"Ben", lobby.Kick{Seat: 0}, lobby.ErrNotHost},
		{"Ben", lobby.MakeHost{Seat: 0}, lobby.ErrNotHost},
		{"Ben", lobby.StandIn{Seat: 0}, lobby.ErrNotHost},
		{"Ben", lobby.SetOptions{Options: rules.Options{"timer": "off"}}, lobby.ErrNotHost},
		{"Ben", lobby.CloseTable{}, lobby.ErrNotHost},
		{"Ben", lobby.Resume{}, nil},
		{"Ben", lobby.Block{Seat: 0}, lobby.ErrNotHost},
		{"Ben", lobby.BlockSpectator{Name: "Zed"}, lobby.ErrNotHost},
		{"Ben", lobby.Unblock{Name: "Ann"}, lobby.ErrNotHost},
		{"Ben", lobby.Ignore{Seat: 1}, errOther}, // himself
		{"Ben", lobby.Ignore{Seat: 0}, nil},
		{"Ben", lobby.Ignore{Seat: 0}, errOther},
		{"Ben", lobby.Unignore{Name: "ann"}, nil},
		{"Ben", lobby.Unignore{Name: "Ann"}, errOther},
		{"Ben", lobby.ReportPlayer{Seat: 0, Reason: " "}, lobby.ErrNoReason},
		{"Ben", lobby.ReportPlayer{Seat: 0, Reason: "rude"}, lobby.ErrNoReports},
		{"Ben", lobby.Chat{Text: "oh sh1t"}, lobby.ErrFiltered}, // Content is family
		{"Ann", lobby.MakeHost{Seat: 1}, nil},
		{"Ben", lobby.Block{Seat: 1}, errOther}, // himself
		{"Ben", lobby.BlockSpectator{Name: "Zed"}, errOther},
		{"Ben", lobby.Unblock{Name: "Zed"}, errOther},
		{"Ben", lobby.MakeHost{Seat: 5}, errOther},
		{"Ben", lobby.StandIn{Seat: 0}, lobby.ErrNoGame},
		{"Ann", lobby.ExtraTime{Seat: 0, Factor: 2}, lobby.ErrNotHost}, // more for herself
		{"Ben", lobby.ExtraTime{Seat: 0, Factor: 2.5}, rules.ErrBadFactor},
		{"Ben", lobby.ExtraTime{Seat: 7, Factor: 2}, lobby.ErrBadSeat},
		{"Ben", lobby.ExtraTime{Seat: 0, Factor: 2}, nil},
		{"Ann", lobby.ExtraTime{Seat: 0, Factor: 1}, nil}, // she gives it back
		{"Ben", lobby.Start{}, errOther},                  // two players: Top Five needs three
		{"Ben", lobby.AddBot{}, nil},
		{"Ben", lobby.AddBot{}, nil},
		{"Ben", lobby.AddBot{}, nil},
		{"Ben", lobby.AddBot{}, nil},
		{"Ben", lobby.AddBot{}, nil},
		// Tall Tale seats at most 6 and 7 are seated: the host's → on the Game option
		// passes over it because the error is ErrSeats, wherever the table runs.
		{"Ben", lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Tall Tale"}}, lobby.ErrSeats},
		{"Ben", lobby.SetOptions{Options: rules.Options{"timer": "nope"}}, rules.ErrBadOption},
		{"Ben", lobby.Kick{Seat: 9}, lobby.ErrBadSeat},
		{"Ben", lobby.Kick{Seat: 6}, nil},
		{"Ben", lobby.SetOptions{Options: rules.Options{"timer": "off"}}, nil},
		{"Ben", lobby.Start{}, nil},
		{"Ben", lobby.Start{}, errOther},
		{"Ben", lobby.AddBot{}, errOther},
		{"Ben", lobby.ActOf(map[string]any{"type": "nope"}), rules.ErrUnknownAction},
		{"Ben", lobby.Kick{Seat: 2}, errOther}, // already a bot
		{"Ben", lobby.Block{Seat: 2}, errOther},
		{"Ben", lobby.Block{Seat: 0}, nil}, // Ann: a bot plays for her
		{"Ben", lobby.Unblock{Name: "ann"}, nil},
		{"Ben", lobby.Chat{Text: "good luck"}, nil},
		{"Ben", lobby.CloseTable{}, nil},
		{"Ben", lobby.Chat{Text: "anyone?"}, lobby.ErrTableClosed},
	}
	seen := map[string]bool{}
	for i, s := range script {
		seen[s.req.Op()] = true
		a, errA := here.run(s.who, s.req)
		b, errB := there.run(s.who, s.req)
		label := fmt.Sprintf("step %d: %s %s %+v", i, s.who, s.req.Op(), s.req)
		checkSame(t, label, a, b, errA, errB, s.want)
		if s.req.Op() == (lobby.CloseTable{}).Op() {
			waitClosed(t, here, there)
		}
	}
	// Leaving, both ways, and what a member that left is told.
	for _, req := range []lobby.Request{lobby.Leave{}, lobby.Disconnect{}} {
		here, there, _ := twinTables(t, "topfive", nil)
		seen[req.Op()] = true
		a, errA := here.run("Ben", req)
		b, errB := there.run("Ben", req)
		checkSame(t, req.Op(), a, b, errA, errB, nil)
		a, errA = here.run("Ben", lobby.Chat{Text: "still here?"})
		b, errB = there.run("Ben", lobby.Chat{Text: "still here?"})
		checkSame(t, req.Op()+", then chat", a, b, errA, errB, lobby.ErrTableClosed)
	}
	for _, r := range lobby.Requests {
		if !seen[r.Op()] {
			t.Errorf("operation %q (%T) is not in this test's script: add a step for it", r.Op(), r)
		}
	}
}

func checkSame(t *testing.T, label string, a, b outcome, errA, errB error, want error) {
	t.Helper()
	switch {
	case want == nil && (errA != nil || errB != nil):
		t.Errorf("%s: here %v, there %v; want success", label, errA, errB)
		return
	case want == errOther && (errA == nil || errB == nil):
		t.Errorf("%s: here %v, there %v; want an error", label, errA, errB)
		return
	case want != nil && want != errOther && (!errors.Is(errA, want) || !errors.Is(errB, want)):
		t.Errorf("%s: here %v, there %v; want %v", label, errA, errB, want)
		return
	}
	if a.code != b.code || a.text != b.text {
		t.Errorf("%s: here %q (%s), there %q (%s)", label, a.text, a.code, b.text, b.code)
	}
	if !reflect.DeepEqual(a.result, b.result) {
		t.Errorf("%s: result here %#v, there %#v", label, a.result, b.result)
	}
}

// waitClosed waits until both doors hear that their table closed.
func waitClosed(t *testing.T, doors ...door) {
	t.Helper()
	for _, d := range doors {
		ctx, cancel := contextFor(5 * time.Second)
		for {
			if _, ok, _ := d.ben.Next(ctx); !ok {
				break
			}
		}
		cancel()
	}
}

// Every sentinel error that a game can return crosses the wire as itself: the same
// errors.Is and the same text, bare and wrapped in more words.
func TestEverySentinelErrorIsTheSameThroughEveryDoor(t *testing.T) {
	here, there, clock := twinTables(t, testgame.ID, nil)
	for _, d := range []door{here, there} {
		if err := lobby.Run(d.host, lobby.Start{}); err != nil {
			t.Fatal(err)
		}
	}
	sentinels := rules.Sentinels()
	if len(sentinels) < 50 {
		t.Fatalf("only %d sentinel errors are declared", len(sentinels))
	}
	for _, e := range sentinels {
		for _, wrapped := range []bool{false, true} {
			clock.Advance(time.Second) // a member may act 15 times a second
			req := lobby.ActOf(testgame.Fail(e.Code(), wrapped))
			a, errA := here.run("Ben", req)
			b, errB := there.run("Ben", req)
			label := fmt.Sprintf("%s (wrapped %v)", e.Code(), wrapped)
			checkSame(t, label, a, b, errA, errB, e)
			if a.code != e.Code() {
				t.Errorf("%s: the code is %q", label, a.code)
			}
			if !wrapped && (errA.Error() != e.Error() || errB.Error() != e.Error()) {
				t.Errorf("%s: texts %q and %q, want %q", label, errA, errB, e)
			}
		}
	}
}

// Every exported error variable of the lobby, the rules and the games is a sentinel with
// a code (rules.Sentinel), so that it is in the list the tests above go through.
func TestEveryErrorVariableHasACode(t *testing.T) {
	dirs := []string{"../lobby", "../rules"}
	for _, spec := range rules.Games() {
		if spec.ID == testgame.ID {
			continue
		}
		dirs = append(dirs, filepath.Join("../rules", spec.ID))
	}
	found := 0
	for _, dir := range dirs {
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("game folder %s: %v", dir, err)
		}
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if !strings.HasPrefix(id.Name, "Err") || !id.IsExported() {
							continue
						}
						found++
						if i >= len(vs.Values) || !isSentinelCall(vs.Values[i]) {
							t.Errorf("%s: %s is not declared with rules.Sentinel: it would cross the cluster and the API without its code", name, id.Name)
						}
					}
				}
			}
		}
	}
	if found < 50 {
		t.Fatalf("found only %d error variables", found)
	}
}

func isSentinelCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name == "Sentinel"
	case *ast.SelectorExpr:
		return fn.Sel.Name == "Sentinel"
	}
	return false
}

func contextFor(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
