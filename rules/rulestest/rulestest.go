// Package rulestest checks the rules contract (package rules) on any registered game. It
// plays seeded games with the game's own bots, mixed with what careless or hostile
// clients send, and checks that
//
//   - the same seed and the same inputs give the same game: every view, every error;
//   - a refused action changes nothing: every view and the outcome stay as they were;
//   - a view is a fresh value that shares no memory with the game, says whose it is,
//     survives the trip through JSON (Spec.DecodeView), and the spectator's holds no
//     seat's own log line ("You …");
//   - a bot's action is a plain struct that survives the trip through JSON, and bots alone
//     are never refused and finish the game;
//   - the engine keeps its own deadlines: an action sent after one to a game nobody ticked
//     gets what Tick and then the action would give, and leaves the same game;
//   - a seat given more time (rules.Pace) has its own deadline moved by the limit times
//     the factor, acts after the others' have passed, and slows nobody else (pace.go);
//   - the game's own secrecy check (Config.Secrets), which knows what each seat may see,
//     holds after every change.
//
// A game's package calls it from one short test:
//
//	func TestContract(t *testing.T) { rulestest.Run(t, ID, rulestest.Config{}) }
//
// Only tests import it.
package rulestest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/contenttest"
	"parlor/rules"
)

// Config tunes the checks for one game; the zero value checks a game as registered.
type Config struct {
	// Tables are the option sets and player counts to play. Nil: the default options with
	// the fewest players they allow, and the same again for every option choice that
	// changes how many may play (a variant, a mode).
	Tables []Table
	// Content is the game's content files; nil reads Spec.Content from assets/content.
	Content map[string][]byte
	// Seeds is how many seeded noisy games each table plays (each twice, to compare);
	// 0 means 2.
	Seeds int
	// Steps bounds a game, in steps of about a second of game time; 0 means 20000.
	Steps int
	// Secrets, when set, is the game's own check that no view shows a secret it may not
	// (which field is whose secret is the game's knowledge): it runs with the game itself
	// after every change in every game played.
	Secrets func(t *testing.T, g rules.Game)
	// Pauses are the game's timed phases that are no seat's time to act but a pause
	// for everyone (the results between rounds): more time for one seat leaves them be.
	Pauses []string
}

// Table is a set of options (checked and completed by the spec) and a number of players
// (0: the fewest the options allow).
type Table struct {
	Options rules.Options
	Players int
}

// start is when every game the kit plays begins.
var start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// Run checks the contract on the registered game id.
func Run(t *testing.T, id string, c Config) {
	t.Helper()
	spec, ok := rules.Lookup(id)
	if !ok {
		t.Fatalf("no game %q is registered", id)
	}
	if spec.DecodeView == nil {
		t.Fatalf("%s has no DecodeView", id)
	}
	if c.Content == nil {
		c.Content = contenttest.Load(t, spec.Content...)
	}
	if c.Seeds == 0 {
		c.Seeds = 2
	}
	if c.Steps == 0 {
		c.Steps = 20000
	}
	tables := c.Tables
	if tables == nil {
		tables = Tables(spec)
	}
	for _, tb := range tables {
		opts, err := spec.CheckOptions(tb.Options)
		if err != nil {
			t.Fatal(err)
		}
		lo, _ := spec.PlayerRange(opts)
		n := tb.Players
		if n == 0 {
			n = lo
		}
		t.Run(tableName(spec, opts, n), func(t *testing.T) {
			t.Run("bots", func(t *testing.T) { botsOnly(t, spec, c, opts, n) })
			t.Run("pace", func(t *testing.T) { pacedRun(t, spec, c, opts, n) })
			t.Run("noise", func(t *testing.T) {
				for seed := range uint64(c.Seeds) {
					noisy(t, spec, c, opts, n, seed+1)
				}
			})
		})
	}
}

// Tables are the tables to play to see every side of a game: its default options with
// the fewest players they allow, and the same again for every option choice that changes
// how many may play (a variant, a mode), which usually has prompts and rounds of its own.
// Run plays them when Config.Tables is nil; other tests that go through every registered
// game use them too.
func Tables(spec *rules.Spec) []Table {
	def := spec.Defaults()
	lo, hi := spec.PlayerRange(def)
	out := []Table{{Options: def, Players: lo}}
	for _, o := range spec.Options {
		for _, choice := range o.Choices {
			if choice == o.Default {
				continue
			}
			opts := spec.Defaults()
			opts[o.Key] = choice
			if l, h := spec.PlayerRange(opts); l != lo || h != hi {
				out = append(out, Table{Options: opts, Players: l})
			}
		}
	}
	return out
}

// Name names the table of spec, for a subtest: the game, its player count and the
// options that are not defaults, e.g. "topfive/2p,variant=duo".
func (tb Table) Name(spec *rules.Spec) string {
	return spec.ID + "/" + tableName(spec, tb.Options, tb.Players)
}

// tableName names a table by its player count and the options that are not defaults.
func tableName(spec *rules.Spec, opts rules.Options, n int) string {
	def := spec.Defaults()
	var keys []string
	for k, v := range opts {
		if def[k] != v {
			keys = append(keys, k+"="+v)
		}
	}
	sort.Strings(keys)
	return strings.Join(append([]string{fmt.Sprintf("%dp", n)}, keys...), ",")
}

// input is one call the kit made on a game, so that the game can be replayed: a tick
// (no action) or an action.
type input struct {
	seat   int
	action json.RawMessage
	at     time.Time
}

// play is one game the kit plays, with every input it gave it.
type play struct {
	t      *testing.T
	spec   *rules.Spec
	setup  rules.Setup
	g      rules.Game
	bots   []rules.Bot
	n      int
	now    time.Time
	inputs []input
	rng    *rand.Rand
	sent   []json.RawMessage // actions the game took, newest last, for the noise
}

func newPlay(t *testing.T, spec *rules.Spec, c Config, opts rules.Options, n int, seed uint64) *play {
	t.Helper()
	setup := rules.Setup{Seed: seed, Options: opts, Content: c.Content, Now: start}
	for i := range n {
		setup.Names = append(setup.Names, fmt.Sprintf("%c%s", 'A'+i%26, "nna"))
	}
	g, err := spec.New(setup)
	if err != nil {
		t.Fatalf("%d players, %v: %v", n, opts, err)
	}
	p := &play{t: t, spec: spec, setup: setup, g: g, n: n, now: start, rng: rand.New(rand.NewPCG(seed, 0x6b6974))}
	for i := range n {
		p.bots = append(p.bots, spec.NewBot(rules.BotSetup{Seat: i, Seed: seed*100 + uint64(i), Options: opts, Content: c.Content}))
	}
	return p
}

func (p *play) over() bool {
	_, over := p.g.Outcome()
	return over
}

func (p *play) tick() {
	p.g.Tick(p.now)
	p.inputs = append(p.inputs, input{seat: rules.Spectator, at: p.now})
}

func (p *play) apply(seat int, action json.RawMessage) error {
	err := p.g.Apply(seat, action, p.now)
	p.inputs = append(p.inputs, input{seat: seat, action: action, at: p.now})
	if err == nil {
		p.sent = append(p.sent, action)
		if len(p.sent) > 24 {
			p.sent = p.sent[1:]
		}
	}
	return err
}

// replay is a new game given the same inputs: the same game, the contract says.
func (p *play) replay() rules.Game {
	p.t.Helper()
	g, err := p.spec.New(p.setup)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, in := range p.inputs {
		if in.action == nil {
			g.Tick(in.at)
		} else {
			_ = g.Apply(in.seat, in.action, in.at)
		}
	}
	return g
}

// snapshot is every view (the spectator's first) and the outcome, as JSON.
func snapshot(t *testing.T, g rules.Game, n int) string {
	t.Helper()
	var b bytes.Buffer
	for seat := rules.Spectator; seat < n; seat++ {
		j, err := json.Marshal(g.View(seat))
		if err != nil {
			t.Fatalf("the view of seat %d does not marshal: %v", seat, err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	res, over := g.Outcome()
	j, _ := json.Marshal(res)
	fmt.Fprintf(&b, "%s %v", j, over)
	return b.String()
}

// botsOnly plays a game of bots alone: none is ever refused, they finish the game, and on
// the way every action a bot sends before a deadline is also sent after it (to a replay
// of the game), to check that the engine keeps its own deadlines.
func botsOnly(t *testing.T, spec *rules.Spec, c Config, opts rules.Options, n int) {
	p := newPlay(t, spec, c, opts, n, 1)
	late := lateChecks{byPhase: map[string]int{}}
	last, steps := "", 0
	for step := 0; step < c.Steps && !p.over(); step++ {
		steps++
		p.now = p.now.Add(time.Second)
		p.tick()
		for s, b := range p.bots {
			if p.over() {
				break
			}
			a := b.Act(p.g.View(s), p.now)
			if a == nil {
				continue
			}
			raw := checkAction(t, a)
			late.check(p, s, raw)
			if err := p.apply(s, raw); err != nil {
				t.Fatalf("step %d: the bot of seat %d was refused %s: %v", step, s, raw, err)
			}
		}
		if snap := snapshot(t, p.g, n); snap != last {
			last = snap
			p.checkViews(step, step%25 == 0)
			if c.Secrets != nil {
				c.Secrets(t, p.g)
			}
		}
	}
	if !p.over() {
		t.Fatalf("the bots did not finish the game in %d steps (%s)", c.Steps, p.g.View(rules.Spectator).Head().Phase)
	}
	if late.done == 0 {
		t.Log("no timed phase in which a bot acts: the deadline checks did not run")
	}
	t.Logf("%d steps; %d actions sent after a deadline", steps, late.done)
}

// noisy plays a seeded game of bots, some of them idle for a while, and a stream of
// careless or hostile input; then plays it again and compares.
func noisy(t *testing.T, spec *rules.Spec, c Config, opts rules.Options, n int, seed uint64) {
	steps := min(c.Steps, 3000)
	first := noisyRun(t, spec, c, opts, n, seed, steps, true)
	second := noisyRun(t, spec, c, opts, n, seed, steps, false)
	for i := range min(len(first), len(second)) {
		if first[i] != second[i] {
			t.Fatalf("seed %d: the same seed and inputs gave a different game at step %d", seed, i)
		}
	}
	if len(first) != len(second) {
		t.Fatalf("seed %d: the same seed and inputs gave games of %d and %d steps", seed, len(first), len(second))
	}
}

// noisyRun plays one noisy game (checking it when check is set) and returns a digest of
// every step: its inputs, their errors and every view after it.
func noisyRun(t *testing.T, spec *rules.Spec, c Config, opts rules.Options, n int, seed uint64, steps int, check bool) [][32]byte {
	p := newPlay(t, spec, c, opts, n, seed)
	idle := make([]bool, n)
	var digests [][32]byte
	last := ""
	for step := 0; step < steps && !p.over(); step++ {
		h := sha256.New()
		if p.rng.IntN(40) == 0 {
			p.now = p.now.Add(2 * time.Minute) // everyone looks away: timers run out
		} else {
			p.now = p.now.Add(time.Second)
		}
		p.tick()
		for s, b := range p.bots {
			if p.rng.IntN(30) == 0 {
				idle[s] = !idle[s] // a player walks off, or comes back
			}
			if idle[s] || p.over() {
				continue
			}
			if a := b.Act(p.g.View(s), p.now); a != nil {
				raw := rules.Encode(a)
				// The noise may have moved the game under a bot's feet: it may be refused.
				fmt.Fprintf(h, "%d %s %v\n", s, raw, p.apply(s, raw))
			}
		}
		if p.rng.IntN(2) == 0 {
			seat, raw := p.noise()
			before := ""
			if check {
				before = snapshot(t, p.g, n)
			}
			err := p.apply(seat, raw)
			fmt.Fprintf(h, "%d %s %v\n", seat, raw, err)
			if err != nil && check {
				if after := snapshot(t, p.g, n); after != before {
					t.Fatalf("seed %d step %d: seat %d's %s was refused (%v) but changed the game:\n%s\n%s", seed, step, seat, raw, err, before, after)
				}
			}
		}
		snap := snapshot(t, p.g, n)
		h.Write([]byte(snap))
		digests = append(digests, [32]byte(h.Sum(nil)))
		if check && snap != last {
			last = snap
			p.checkViews(step, step%25 == 0)
			if c.Secrets != nil {
				c.Secrets(t, p.g)
			}
		}
	}
	if check {
		t.Logf("seed %d: %d steps, over: %v", seed, len(digests), p.over())
	}
	return digests
}

// noise is an action a careless or hostile client might send, and the seat it comes from:
// mostly a seat at the table, sometimes a spectator or a seat that does not exist; mostly
// an action the game took lately, as it was (sent again, or by another seat) or spoiled.
func (p *play) noise() (int, json.RawMessage) {
	r := p.rng
	seat := r.IntN(p.n)
	if r.IntN(5) == 0 {
		seat = r.IntN(p.n+3) - 1
	}
	junk := []string{`{"type":"nope"}`, `{}`, `null`, `[1,2]`, `{"type":""}`, `"rank"`, `{"type":7}`, `{"type":"x"} {"type":"y"}`}
	if len(p.sent) == 0 || r.IntN(6) == 0 {
		return seat, json.RawMessage(junk[r.IntN(len(junk))])
	}
	recent := p.sent[r.IntN(len(p.sent))]
	switch r.IntN(7) {
	case 0, 1:
		return seat, recent
	case 2:
		return seat, spoil(r, recent, false)
	case 3:
		return seat, spoil(r, recent, true)
	case 4:
		typ, _ := rules.ActionType(recent)
		return seat, rules.Encode(map[string]string{"type": typ})
	case 5:
		return seat, append(bytes.TrimRight(recent, "}"), []byte(`,"zz":1}`)...)
	}
	b := make([]byte, r.IntN(16))
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return seat, b
}

// spoil changes an action's values (but its type): numbers to small numbers that may be
// out of range, texts to empty, long or escape-laden ones, lists to shorter or longer
// ones; or, with wrongTypes, a value to a value of another kind.
func spoil(r *rand.Rand, raw json.RawMessage, wrongTypes bool) json.RawMessage {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return raw
	}
	var walk func(v any, key string) any
	walk = func(v any, key string) any {
		if wrongTypes && key != "type" && r.IntN(3) == 0 {
			return []any{"x", true, 1.5, nil, map[string]any{}, []any{}}[r.IntN(6)]
		}
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys) // the same seed spoils the same way
			for _, k := range keys {
				x[k] = walk(x[k], k)
			}
			return x
		case []any:
			switch r.IntN(4) {
			case 0:
				x = x[:r.IntN(len(x)+1)]
			case 1:
				if len(x) > 0 {
					x = append(x, x[r.IntN(len(x))])
				}
			}
			for i := range x {
				x[i] = walk(x[i], "")
			}
			return x
		case json.Number:
			return r.IntN(20) - 4
		case string:
			if key == "type" {
				return x
			}
			return []string{"", "x", strings.Repeat("é", 200), "a\x1b[2Jb", x + x}[r.IntN(5)]
		case bool:
			return !x
		}
		return v
	}
	return rules.Encode(walk(v, ""))
}

// checkViews checks every seat's view after a change: whose it is, that it survives the
// trip through JSON, that the spectator reads no seat's own line, and (fresh) that it
// shares no memory with the game.
func (p *play) checkViews(step int, fresh bool) {
	t := p.t
	t.Helper()
	_, over := p.g.Outcome()
	for seat := rules.Spectator; seat < p.n; seat++ {
		v := p.g.View(seat)
		if v == nil {
			t.Fatalf("step %d: no view for seat %d", step, seat)
		}
		h := v.Head()
		if h.Game != p.spec.ID || h.Seat != seat || h.Over != over {
			t.Fatalf("step %d: the view of seat %d says game %q, seat %d, over %v (the game is over: %v)", step, seat, h.Game, h.Seat, h.Over, over)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("step %d: the view of seat %d does not marshal: %v", step, seat, err)
		}
		back, err := p.spec.DecodeView(raw)
		if err != nil {
			t.Fatalf("step %d: the view of seat %d does not decode: %v\n%s", step, seat, err, raw)
		}
		if reflect.TypeOf(back) != reflect.TypeOf(v) {
			t.Fatalf("step %d: DecodeView made a %T of a %T", step, back, v)
		}
		if again, _ := json.Marshal(back); !bytes.Equal(again, raw) {
			t.Fatalf("step %d: the view of seat %d changed on its way through JSON:\n%s\n%s", step, seat, raw, again)
		}
		if seat == rules.Spectator {
			for _, line := range h.Log {
				if strings.HasPrefix(line, "You ") || strings.HasPrefix(line, "A bot for you") {
					t.Fatalf("step %d: the spectator reads a seat's own line %q", step, line)
				}
			}
		}
		if fresh {
			scramble(reflect.ValueOf(&v).Elem())
			if again, _ := json.Marshal(p.g.View(seat)); !bytes.Equal(again, raw) {
				t.Fatalf("step %d: changing the view of seat %d changed the game: a view shares memory with it\n%s\n%s", step, seat, raw, again)
			}
		}
	}
}

// scramble changes every value v holds that can be changed, through every slice, map
// and pointer: if the game shares any of them, it changes too.
func scramble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := reflect.New(v.Elem().Type()).Elem()
		e.Set(v.Elem())
		scramble(e)
		if v.CanSet() {
			v.Set(e)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			scramble(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				scramble(f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scramble(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scramble(e)
			v.SetMapIndex(k, e)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(v.Int() + 7)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.CanSet() {
			v.SetUint(v.Uint() + 7)
		}
	case reflect.Float32, reflect.Float64:
		if v.CanSet() {
			v.SetFloat(v.Float() + 7)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(v.String() + "~")
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	}
}

// checkAction checks that a bot's action is a plain struct that marshals with its type
// and reads back, strictly, as the same; it returns the action's JSON.
func checkAction(t *testing.T, a any) json.RawMessage {
	t.Helper()
	raw := rules.Encode(a)
	if _, err := rules.ActionType(raw); err != nil {
		t.Fatalf("a bot's action %T: %v: %s", a, err, raw)
	}
	back := reflect.New(reflect.TypeOf(a))
	if err := rules.Decode(raw, back.Interface()); err != nil {
		t.Fatalf("a bot's action %T does not read back from %s: %v", a, raw, err)
	}
	if again := rules.Encode(back.Elem().Interface()); !bytes.Equal(again, raw) {
		t.Fatalf("a bot's action %T changed on its way through JSON:\n%s\n%s", a, raw, again)
	}
	return raw
}

// lateChecks runs the deadline checks a few times per phase.
type lateChecks struct {
	byPhase map[string]int
	done    int
}

// check sends seat's action, which its bot chose before the current deadline, to replays
// of the game at and well after that deadline, once without a tick first and once after
// Tick: the engine keeps its own deadlines, so both must give the same error (or none)
// and the same game. So must a spectator's and a nonsense action, and a second Tick at
// the same time must change nothing.
func (c *lateChecks) check(p *play, seat int, action json.RawMessage) {
	t := p.t
	t.Helper()
	h := p.g.View(rules.Spectator).Head()
	if h.Deadline.IsZero() || !p.now.Before(h.Deadline) || c.byPhase[h.Phase] >= 2 || c.done >= 12 {
		return
	}
	c.byPhase[h.Phase]++
	c.done++
	if got, want := snapshot(t, p.replay(), p.n), snapshot(t, p.g, p.n); got != want {
		t.Fatalf("a replay of the same seed and inputs gave another game:\n%s\n%s", got, want)
	}
	for _, at := range []time.Time{h.Deadline, h.Deadline.Add(time.Hour)} {
		for _, a := range []struct {
			seat   int
			action json.RawMessage
		}{{seat, action}, {rules.Spectator, action}, {seat, json.RawMessage(`{"type":"nope"}`)}} {
			what := fmt.Sprintf("seat %d's %s, sent %v after the %s deadline", a.seat, a.action, at.Sub(h.Deadline), h.Phase)
			untimed := p.replay()
			errU := untimed.Apply(a.seat, a.action, at)
			ticked := p.replay()
			ticked.Tick(at)
			if ticked.Tick(at) {
				t.Fatalf("%s: a second Tick at the same time changed the game again", what)
			}
			errT := ticked.Apply(a.seat, a.action, at)
			if (errU == nil) != (errT == nil) || (errU != nil && errU.Error() != errT.Error()) {
				t.Fatalf("%s: Apply alone gives %v, Tick then Apply gives %v", what, errU, errT)
			}
			if u, tk := snapshot(t, untimed, p.n), snapshot(t, ticked, p.n); u != tk {
				t.Fatalf("%s: Apply alone leaves another game than Tick then Apply:\n%s\n%s", what, u, tk)
			}
		}
	}
}
