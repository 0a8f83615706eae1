package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
	"golang.org/x/time/rate"

	"parlor/lobby"
	"parlor/playertext"
	"parlor/rules"
	"parlor/session"
)

// apiRequest is one line a client sends: {"op": "...", "id": ..., fields}. The fields
// here are those of the API's own requests (hello, create, join, …); a table operation
// (lobby.Requests) reads its arguments from the same line.
type apiRequest struct {
	Op      string          `json:"op"`
	ID      json.RawMessage `json:"id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Game    string          `json:"game,omitempty"`
	Code    string          `json:"code,omitempty"`
	Options rules.Options   `json:"options,omitempty"`
	Private bool            `json:"private,omitempty"`
	Remove  bool            `json:"remove,omitempty"` // "bot" with "remove": an old name of "kick"
	Args    []string        `json:"args,omitempty"`   // "admin": the console's words (admin.go)
}

// apiOps lists every request: the API's own, then every table operation.
var apiOps = func() []string {
	ops := []string{"hello", "games", "tables", "admin", "create", "join", "watch"}
	for _, r := range lobby.Requests {
		ops = append(ops, r.Op())
	}
	return ops
}()

const apiMaxLine = 64 << 10

// apiDefaultName is an API connection's name until a hello names it, when neither its
// key nor its SSH user gave one it may use. Any number of connections may go by it.
const apiDefaultName = "Player"

// apiConn is one JSON Lines connection.
type apiConn struct {
	s      *Server
	sess   ssh.Session
	player lobby.Player
	online *lobby.Online
	ctx    context.Context

	wmu sync.Mutex // one writer at a time: replies and events interleave by whole lines
	enc *json.Encoder

	member lobby.Place
	budget *rate.Limiter // every request; the lobby limits game actions and chat further
}

func (s *Server) serveAPI(sess ssh.Session) {
	player, _ := s.identify(sess)
	online := s.lobby.Connected(player.ID)
	defer online.Done()
	welcome := map[string]any{"type": "welcome", "ops": apiOps}
	if player.Name == "" {
		player.Name = apiDefaultName
	} else if err := online.Name(player.Name); err != nil {
		// Another player online goes by the key's name: this connection goes by the
		// default (held by nobody) until a hello names it.
		welcome["notice"] = err.Error()
		player.Name = apiDefaultName
	}
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	c := &apiConn{s: s, sess: sess, player: player, online: online, ctx: ctx, enc: json.NewEncoder(sess), budget: rate.NewLimiter(20, 60)}
	var once sync.Once
	end := func(msg string) {
		once.Do(func() {
			c.send(map[string]any{"type": "bye", "reason": msg})
			cancel()
		})
	}
	ls := s.liveOf(sess, player, "api")
	ls.bye = func() { end(s.lobby.ShutdownNotice().Text) }
	ls.end = end
	ls.broadcast = func(msg string) { c.send(map[string]any{"type": "broadcast", "text": msg}) }
	if !s.track(ls) {
		fail(sess, "The server is shutting down. Please try again in a moment.")
		return
	}
	defer s.untrack(ls)
	welcome["player"] = c.playerJSON()
	c.send(welcome)

	lines := make(chan apiLine)
	ended := make(chan struct{}) // the client closed its side
	go func() {
		r := bufio.NewReaderSize(sess, 4096)
		for {
			line, err := readLine(r)
			if err != nil && !errors.Is(err, errLineTooLong) {
				close(ended)
				return
			}
			select {
			case lines <- apiLine{line, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	// A nil channel never fires: without an idle timeout the timer case is simply off.
	idle := s.cfg.IdleTimeout
	var idleC <-chan time.Time
	var timer *time.Timer
	if idle > 0 {
		timer = time.NewTimer(idle)
		defer timer.Stop()
		idleC = timer.C
	}
	for {
		select {
		case <-ctx.Done():
			c.leave(false)
			return
		case <-ended:
			c.readDone()
			return
		case <-idleC:
			c.send(map[string]any{"type": "bye", "reason": fmt.Sprintf("disconnected after %s without a request", idle)})
			c.leave(false)
			_ = sess.Exit(0)
			return
		case line := <-lines:
			if timer != nil {
				timer.Reset(idle)
			}
			if line.err != nil {
				c.send(map[string]any{"type": "error", "error": line.err.Error()})
				continue
			}
			c.handle(line.text)
		}
	}
}

// readDone ends the connection after the client closed its side.
func (c *apiConn) readDone() {
	c.leave(false)
	_ = c.sess.Exit(0)
}

// apiLine is one request line as read, or errLineTooLong for one that was too long.
type apiLine struct {
	text []byte
	err  error
}

var errLineTooLong = fmt.Errorf("a request line is longer than %d bytes: it was skipped", apiMaxLine)

// readLine reads one line. A line longer than apiMaxLine is read to its end without
// being kept and refused with errLineTooLong: the next line is read as usual, as the
// connection stays usable after any error.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			switch {
			case tooLong:
				return nil, errLineTooLong // and the next read ends the connection
			case err == io.EOF && len(buf) > 0:
				return buf, nil
			}
			return nil, err
		}
		if !tooLong {
			buf = append(buf, chunk...)
			if len(buf) > apiMaxLine {
				tooLong, buf = true, nil
			}
		}
		if !isPrefix {
			if tooLong {
				return nil, errLineTooLong
			}
			return buf, nil
		}
	}
}

func (c *apiConn) send(v any) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.enc.Encode(v)
}

func (c *apiConn) reply(id json.RawMessage, typ string, fields map[string]any) {
	out := map[string]any{"type": typ}
	for k, v := range fields {
		out[k] = v
	}
	if len(id) > 0 {
		out["id"] = id
	}
	c.send(out)
}

// badRequest says what is wrong with a line that does not decode as a request, in the
// API's words (not the decoder's), with the line's id when it has one.
func badRequest(line []byte, err error) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return nil, errors.New(`not a JSON object: a request is one object on one line, as in {"op":"hello","name":"Ann"}`)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return obj["id"], errors.New(rules.JSONProblem(err, &apiRequest{}))
	}
	return obj["id"], errors.New("a request's fields could not be read: see docs/api.md for each op's fields")
}

// fail answers with an error, and its stable code when it has one (docs/api.md).
func (c *apiConn) fail(id json.RawMessage, err error) {
	fields := map[string]any{"error": err.Error()}
	if code := rules.ErrorCode(err); code != "" {
		fields["code"] = code
	}
	c.reply(id, "error", fields)
}

func (c *apiConn) playerJSON() map[string]any {
	return map[string]any{"id": c.player.ID, "name": c.player.Name, "guest": c.player.Guest}
}

// handle answers one request line. Every problem is an "error" reply; the connection
// stays usable.
func (c *apiConn) handle(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	var req apiRequest
	if err := json.Unmarshal(line, &req); err != nil {
		c.fail(badRequest(line, err))
		return
	}
	if !c.budget.Allow() {
		c.fail(req.ID, lobby.ErrSlowDown)
		return
	}
	if err := c.do(req, line); err != nil {
		c.fail(req.ID, err)
	}
}

func (c *apiConn) needTable() error {
	if c.member == nil {
		return errors.New("you are not at a table: create, join or watch one first")
	}
	return nil
}

func (c *apiConn) do(req apiRequest, line []byte) error {
	l := c.s.lobby
	switch req.Op {
	case "hello":
		if req.Name != "" {
			name, err := session.CheckName(req.Name)
			if err != nil {
				return err
			}
			if err := c.online.Name(name); err != nil {
				return err
			}
			if !c.player.Guest {
				now := time.Now()
				if err := c.s.wrote(c.s.store.SavePlayer(c.ctx, storePlayer(c.player.ID, name, now))); err != nil {
					_ = c.online.Name(c.player.Name) // the name stays what it was
					return fmt.Errorf("could not save your name: %w", err)
				}
			}
			c.player.Name = name
		}
		c.reply(req.ID, "hello", map[string]any{"player": c.playerJSON()})
	case "games":
		c.reply(req.ID, "games", map[string]any{"games": gamesJSON()})
	case "tables":
		c.reply(req.ID, "tables", map[string]any{"tables": l.Tables(c.player)})
	case "admin":
		// The operator console's commands, through the same dispatcher as ssh host admin.
		lines, err := c.s.adminRun(c.ctx, c.player, req.Args)
		if err != nil {
			return err
		}
		c.reply(req.ID, "admin", map[string]any{"lines": append([]string{}, lines...)})
	case "create", "join", "watch":
		var m lobby.Place
		var err error
		switch req.Op {
		case "create":
			m, err = l.Create(c.player, req.Game, req.Options, req.Private)
		case "join":
			m, err = l.Join(c.player, req.Code)
		default:
			m, err = l.Watch(c.player, req.Code)
		}
		if err != nil {
			return err
		}
		c.leave(true)
		c.member = m
		c.reply(req.ID, "joined", map[string]any{"code": m.Code()})
		go c.pump(m)
	default:
		return c.tableOp(req, line)
	}
	return nil
}

// tableOp runs a table operation, decoded from the request line by its name.
func (c *apiConn) tableOp(req apiRequest, line []byte) error {
	name := req.Op
	if name == (lobby.AddBot{}).Op() && req.Remove {
		name = (lobby.Kick{}).Op()
	}
	op, err := lobby.DecodeRequest(name, line)
	if errors.Is(err, lobby.ErrUnknownOp) {
		return rules.Worded(lobby.ErrUnknownOp, fmt.Sprintf("unknown op %q: the ops are %s", playertext.Short(req.Op, 20), strings.Join(apiOps, ", ")))
	}
	if err != nil {
		return err
	}
	if err := c.needTable(); err != nil {
		return err
	}
	res, err := c.member.Call(op)
	if lobby.Departs(op) {
		c.member = nil
	}
	if err != nil {
		return err
	}
	var fields map[string]any
	if _, none := res.(lobby.Done); !none && res != nil {
		fields = map[string]any{"result": res}
	}
	c.reply(req.ID, "ok", fields)
	return nil
}

// leave takes the connection away from its table. A request to leave frees the seat
// before a game; a dropped connection keeps it, like the TUI.
func (c *apiConn) leave(asked bool) {
	if c.member == nil {
		return
	}
	if asked {
		_ = lobby.Run(c.member, lobby.Leave{})
	} else {
		_ = lobby.Run(c.member, lobby.Disconnect{})
	}
	c.member = nil
}

// pump turns a member's updates into events: "table" and "view" when they change,
// "history" once a game's first update, "chat" per new line, and "left" at the end.
func (c *apiConn) pump(m lobby.Place) {
	var lastTable, lastView []byte
	lastChat := 0
	for {
		u, ok, reason := m.Next(c.ctx)
		if !ok {
			if c.ctx.Err() == nil {
				c.send(map[string]any{"type": "left", "code": m.Code(), "reason": reason.Text, "why": reason.Why})
			}
			return
		}
		ev := map[string]any{"type": "table", "table": u.Table, "seat": u.Seat, "host": u.Host}
		if len(u.Ignored) > 0 {
			ev["ignored"] = u.Ignored
		}
		table, _ := json.Marshal(ev)
		if !bytes.Equal(table, lastTable) {
			c.sendRaw(c.s.shown(table))
			lastTable = table
		}
		if len(u.History) > 0 {
			c.send(map[string]any{"type": "history", "log": u.History})
		}
		if u.View != nil {
			view, err := json.Marshal(u.View)
			if err == nil && !bytes.Equal(view, lastView) {
				// now is when the view was sent, by the wall clock like its deadline
				// (apitime.go): a client measures the time left against it. game_no
				// says which game of the table it is of, in the view's own message: a
				// client back from a drop tells a new game from the one it left by it.
				c.send(map[string]any{"type": "view", "view": json.RawMessage(c.s.shown(view)), "game_no": u.Table.GameNo, "now": c.s.lobby.Shown(c.s.lobby.Now())})
				lastView = view
			}
		}
		for _, line := range u.Chat {
			if line.ID > lastChat {
				lastChat = line.ID
				c.send(map[string]any{"type": "chat", "line": line})
			}
		}
	}
}

func (c *apiConn) sendRaw(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.sess.Write(append(b, '\n'))
}

// gamesJSON describes every registered game, including its player range per option.
func gamesJSON() []*rules.Spec {
	games := lobby.Games()
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	return games
}
