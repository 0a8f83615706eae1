package soak

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/sshterm"
	"parlor/rules"
)

// conn is one "ssh host api" connection.
type conn struct {
	c     *gossh.Client
	in    io.Writer
	lines chan map[string]any // closed when the connection ends
	dead  chan struct{}       // closed by close
	once  sync.Once
	seq   int
	held  []map[string]any // lines a call read while it waited, for the player to take
}

// takeHeld returns the lines calls read while they waited for their answers, oldest
// first, and forgets them.
func (k *conn) takeHeld() []map[string]any {
	held := k.held
	k.held = nil
	return held
}

// dial connects and reads the welcome.
func dial(addr, user string, key sshterm.Key) (*conn, error) {
	c, err := sshterm.Dial(addr, user, key, nil, 20*time.Second)
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.Start("api"); err != nil {
		_ = c.Close()
		return nil, err
	}
	k := &conn{c: c, in: in, lines: make(chan map[string]any, 4096), dead: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			select {
			case k.lines <- m:
			case <-k.dead:
			}
		}
		close(k.lines)
		_ = c.Close()
	}()
	select {
	case m, ok := <-k.lines:
		if ok && m["type"] == "welcome" {
			return k, nil
		}
	case <-time.After(time.Minute):
	}
	k.close()
	return nil, errors.New("no welcome")
}

func (k *conn) close() {
	k.once.Do(func() { close(k.dead) })
	_ = k.c.Close()
}

// send writes a request with a fresh id, which it returns.
func (k *conn) send(req map[string]any) (float64, error) {
	k.seq++
	req["id"] = k.seq
	b, _ := json.Marshal(req)
	_, err := k.in.Write(append(b, '\n'))
	return float64(k.seq), err
}

// call sends a request and waits for its answer, keeping the other lines for later.
func (k *conn) call(req map[string]any, keep func(map[string]any)) (map[string]any, error) {
	id, err := k.send(req)
	if err != nil {
		return nil, err
	}
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case m, ok := <-k.lines:
			if !ok {
				return nil, errors.New("connection closed")
			}
			if m["id"] == id {
				if m["type"] == "error" {
					return m, fmt.Errorf("%v (%v)", m["error"], m["code"])
				}
				return m, nil
			}
			if keep != nil {
				keep(m)
			} else {
				// Kept for the player: a game's first view may come before the
				// start's answer, and a view is sent again only when it changes.
				k.held = append(k.held, m)
			}
		case <-timeout:
			return nil, fmt.Errorf("no answer to %v", req["op"])
		}
	}
}

// player is one person at a soak table, playing through the JSON API with the game's
// bot deciding from the seat's own view, and coming back after every fault.
type player struct {
	s     *soak
	id    int
	table *table
	name  string
	key   sshterm.Key
	host  bool
	seat  int
	bot   rules.Bot
	home  int // the node it connects through first

	mu      sync.Mutex
	view    rules.View
	closed  string    // the last "left" reason
	refused string    // the last refusal's reason
	virtual time.Time // the bot's clock, ahead so it never waits to look human

	mine     []*sent      // the actions sent, for the game's reveal check
	checked  map[int]bool // the rounds whose reveal was checked
	viewGame int          // the game number of the last view (its message's game_no)

	acks  atomic.Int64
	conns atomic.Int64 // connections made
	heard atomic.Int64 // lines read while playing, and the type of the last (for a failure's report)
	last  atomic.Value
}

// state is the player's last view.
func (p *player) state() (rules.View, string, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.view, p.closed, p.refused
}

// run plays until done closes: connect, join, play; again after each fault.
func (p *player) run(first *conn) {
	k := first
	for {
		if k == nil {
			k = p.connect()
			if k == nil {
				return
			}
		}
		p.play(k)
		k.close()
		k = nil
		select {
		case <-p.s.done:
			return
		case <-time.After(time.Duration(50+p.id*13%150) * time.Millisecond):
		}
	}
}

// connect dials the player's node until it answers and takes the seat back with join;
// in a cluster, a player whose node is down tries the next, as a person given the
// addresses of every node would.
func (p *player) connect() *conn {
	for try := 0; ; try++ {
		n := p.s.nodes[(p.home+try)%len(p.s.nodes)]
		addr := n.addrNow()
		if len(p.s.nodes) == 1 {
			if addr = n.address(p.s.done); addr == "" {
				return nil
			}
		}
		var k *conn
		err := errors.New("down")
		if addr != "" {
			k, err = dial(addr, p.name, p.key)
		}
		if err == nil {
			_, err = k.call(map[string]any{"op": "join", "code": p.table.code}, nil)
			if err == nil {
				p.conns.Add(1)
				return k
			}
			k.close()
			p.s.noteJoinError(p, err)
		}
		select {
		case <-p.s.done:
			return nil
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// pending is a request waiting for its answer.
type pending struct {
	id   float64
	op   Op
	sent *sent // an action's record for the reveal check
}

// play reads the connection's lines and acts on the views until it ends.
func (p *player) play(k *conn) {
	var wait *pending
	fresh := true // a view came since the last refusal, or a while passed
	var refusedAt time.Time
	var startAt time.Time // when the host may try to start again
	finished := false
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	answer := func(m map[string]any) {
		if wait == nil || m["id"] != wait.id {
			return
		}
		op := wait.op
		op.Return = time.Now()
		op.Outcome = OK
		if m["type"] == "error" {
			op.Outcome = Refused
			if code, _ := m["code"].(string); code == "" || code == "lobby.unreachable" {
				// No code, or a cluster's "could not be reached": not a refusal but no
				// answer (it may have been applied or not).
				op.Outcome, op.Return = Unknown, time.Time{}
			}
		}
		if wait.sent != nil {
			wait.sent.outcome, wait.sent.done = op.Outcome, true
			if m["type"] == "error" {
				wait.sent.answer = fmt.Sprintf("%v: %v", m["code"], m["error"])
			}
		}
		if op.Outcome != OK {
			fresh, refusedAt = false, time.Now()
			p.mu.Lock()
			p.refused = fmt.Sprintf("%v: %v", op.Entry, m["error"])
			p.mu.Unlock()
			if op.Kind == Start {
				startAt = time.Now().Add(time.Second)
			}
		} else if op.Kind == Act {
			p.acks.Add(1)
			p.table.progress.Add(1)
			p.s.acked(op)
		} else {
			finished = false
		}
		p.s.history.Add(op)
		wait = nil
	}
	defer func() {
		if wait != nil { // asked, never answered
			p.s.history.Add(wait.op)
			if wait.sent != nil {
				wait.sent.done = true
			}
		}
	}()
	// handle takes one line; true once the player is out of its table.
	handle := func(m map[string]any) bool {
		p.heard.Add(1)
		p.last.Store(fmt.Sprint(m["type"]))
		switch m["type"] {
		case "ok", "error":
			answer(m)
		case "view":
			raw, _ := json.Marshal(m["view"])
			v, err := p.table.spec.DecodeView(raw)
			if err == nil {
				p.mu.Lock()
				game := 0
				if n, ok := m["game_no"].(float64); ok {
					game = int(n)
				}
				old := p.view
				if old != nil && (game != p.viewGame || old.Head().Over && !v.Head().Over || v.Head().Round < old.Head().Round) {
					// A new game (by the view's game number: a player back
					// from a fault may not have seen the last game end, and
					// both may be in round 1): an action of the last one that
					// is not settled yet may have been taken by this one.
					var open []*sent
					for _, s := range p.mine {
						if s.upTo == 0 {
							s.round, s.carried = v.Head().Round, true
							open = append(open, s)
						}
					}
					p.mine, p.checked = open, nil
				}
				for _, s := range p.mine {
					if s.done && s.upTo == 0 {
						s.upTo = v.Head().Round // the first view after its answer
					}
				}
				p.view, p.viewGame = v, game
				p.mu.Unlock()
				fresh = true
				if v.Head().Over {
					finished = true
				}
				p.checkReveal(v)
			}
		case "table":
			if tb, _ := m["table"].(map[string]any); tb != nil && tb["state"] == "finished" {
				finished = true
			}
		case "left":
			p.mu.Lock()
			p.closed = fmt.Sprint(m["why"])
			p.mu.Unlock()
			p.s.noteLeft(p, fmt.Sprint(m["why"]), fmt.Sprint(m["reason"]))
			return true // out of the table: connect and join again, as the words ask
		}
		return false
	}
	for _, m := range k.takeHeld() { // lines that came while a call waited for its answer
		if handle(m) {
			return
		}
	}
	for {
		select {
		case <-p.s.done:
			return
		case m, ok := <-k.lines:
			if !ok || handle(m) {
				return
			}
		case <-tick.C:
			if wait != nil {
				if time.Since(wait.op.Call) > 2*time.Minute {
					p.s.fail("%s (%s) had no answer to %s for 2 minutes", p.name, p.table.code, wait.op)
					return
				}
				continue
			}
			if p.host && finished && time.Now().After(startAt) {
				op := Op{Client: p.id, Table: p.table.code, Kind: Start, Call: time.Now()}
				id, err := k.send(map[string]any{"op": "start"})
				wait = &pending{id: id, op: op}
				if err != nil {
					return
				}
				continue
			}
			p.mu.Lock()
			v := p.view
			p.mu.Unlock()
			if !fresh && time.Since(refusedAt) > time.Second {
				fresh = true // a person tries again, too
			}
			if v == nil || !fresh || v.Head().Over {
				continue
			}
			p.virtual = p.virtual.Add(time.Minute)
			a := p.bot.Act(v, p.virtual)
			if a == nil {
				continue
			}
			entry, err := entryOf(v.Head().Seat, a)
			if err != nil {
				p.s.fail("%s: %v", p.name, err)
				return
			}
			op := Op{Client: p.id, Table: p.table.code, Kind: Act, Entry: entry, Call: time.Now()}
			id, err := k.send(map[string]any{"op": "act", "action": a})
			wait = &pending{id: id, op: op, sent: &sent{round: v.Head().Round, action: a}}
			p.mine = append(p.mine, wait.sent)
			if err != nil {
				return
			}
		}
	}
}

// checkReveal checks a view against the seat's acknowledged actions (see revealCheck),
// once per round. A new game (round 1 again) starts afresh.
func (p *player) checkReveal(v rules.View) {
	check := revealChecks[p.table.spec.ID]
	if check == nil {
		return
	}
	round, err := check(v.Head().Seat, v, p.mine)
	if round == 0 || p.checked[round] {
		return
	}
	if p.checked == nil {
		p.checked = map[int]bool{}
	}
	p.checked[round] = true
	p.s.reveals.Add(1)
	p.table.reveals.Add(1)
	if err != nil {
		p.s.fail("%s at %s %s: %v\n  the seat's actions of rounds %d to %d: %s", p.name, p.table.spec.ID, p.table.code, err, round-1, round+1, sentAround(p.mine, round))
	}
}

// entryOf is an action as the history names it: the seat and the action's JSON with
// its keys sorted, as the table's log has it.
func entryOf(seat int, action any) (string, error) {
	b, err := json.Marshal(action)
	if err != nil {
		return "", err
	}
	return entryFrom(seat, b)
}

func entryFrom(seat int, raw []byte) (string, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v) // maps marshal with sorted keys
	return fmt.Sprintf("%d %s", seat, b), err
}
