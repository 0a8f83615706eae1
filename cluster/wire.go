package cluster

import (
	"encoding/json"
	"fmt"
	"strconv"

	"parlor/lobby"
	"parlor/rules"
)

// Subjects. A table's owner answers requests on parlor.table.CODE.req and publishes each
// member's updates on the subject of that member's seat, so a node that has no session
// at a seat never subscribes to (and never receives) that seat's secrets.
func reqSubject(code string) string { return "parlor.table." + code + ".req" }

// seatSubject is where the updates for a seat go; spectators share one subject.
func seatSubject(code string, seat int) string {
	if seat < 0 {
		return "parlor.table." + code + ".spectator"
	}
	return "parlor.table." + code + ".seat." + strconv.Itoa(seat)
}

// request is one call of a proxy to the table's owner: join, watch or ready, or any table
// operation (lobby.Request) by its name, with its arguments as JSON. The cluster carries
// every operation the same way and knows none of them.
type request struct {
	Op     string `json:"op"`
	Member string `json:"member"`
	// To is the node the proxy takes for the table's owner: another node that hears it
	// does not answer. A node that lost a table and has not heard yet still listens on
	// its subject for a moment, and answered joins there for a table that runs elsewhere.
	To     string        `json:"to,omitempty"`
	Node   string        `json:"node,omitempty"`   // the proxy's node, on join and watch
	Player *lobby.Player `json:"player,omitempty"` // on join and watch
	Rejoin bool          `json:"rejoin,omitempty"` // on join: following the table after a move
	// Retry, on join and watch: the member of the proxy's last try, which got no answer
	// (the owner may have seated it). The owner lets it go first, or its seat would
	// count as held by a newer connection of the player.
	Retry  string          `json:"retry,omitempty"`
	Args   json.RawMessage `json:"args,omitempty"`   // a table operation's arguments
	Listen string          `json:"listen,omitempty"` // on ready: the subject the proxy now hears
	// Call is a table operation's id, unique to the call: a proxy that got no answer
	// sends the same call again under it, and the owner answers a call it has applied
	// with its result instead of applying it again (lobby.Member.CallOnce).
	Call string `json:"call,omitempty"`
}

// Requests of the cluster itself, beside the table operations.
const (
	opJoin  = "join"
	opWatch = "watch"
	opReady = "ready"
)

// reply is the owner's answer.
type reply struct {
	Err    *rules.Wire     `json:"err,omitempty"`
	Result json.RawMessage `json:"result,omitempty"` // a table operation's result
	Update *wireUpdate     `json:"update,omitempty"` // on join and watch: the first update
	// Moved: the table stopped at this node as it moves on to another (lobby.ErrMoving
	// from a table no longer running here): the call was not applied.
	Moved bool `json:"moved,omitempty"`
	// Forgotten: the owner has no member of that id (it disconnected it, as the session
	// of a node that went away); Err is then the table's "closed".
	Forgotten bool `json:"forgotten,omitempty"`
}

// failed is a reply with only an error.
func failed(err error) reply { return reply{Err: rules.ToWire(err)} }

// delivery is what the owner publishes on a seat subject for one member.
type delivery struct {
	Member string      `json:"member"`
	Seq    uint64      `json:"seq"`
	Update *wireUpdate `json:"update,omitempty"`
	// Moved: the member's seat changed to Seat; its updates go to that seat's subject.
	Moved bool `json:"moved,omitempty"`
	Seat  int  `json:"seat,omitempty"`
	// Closed: the member is out of the table, for this reason. With Handoff the table
	// itself goes on, on another node: the proxy attaches there.
	Closed  *lobby.Closed `json:"closed,omitempty"`
	Handoff bool          `json:"handoff,omitempty"`
	// Forgotten: with Closed, the owner dropped the member as its node's (taken for
	// gone): the proxy sits again.
	Forgotten bool `json:"forgotten,omitempty"`
}

// wireUpdate is a lobby.Update with its view as the game's JSON.
type wireUpdate struct {
	Table lobby.TableInfo  `json:"table"`
	Seat  int              `json:"seat"`
	Host  bool             `json:"host,omitempty"`
	View  json.RawMessage  `json:"view,omitempty"`
	Chat  []lobby.ChatLine `json:"chat,omitempty"`
	// History is lobby.Update's: the game's log before the first update.
	History []string `json:"history,omitempty"`
	// Ignored is lobby.Update's: whose chat the member does not get.
	Ignored []string `json:"ignored,omitempty"`
}

func encodeUpdate(u lobby.Update) (*wireUpdate, error) {
	w := &wireUpdate{Table: u.Table, Seat: u.Seat, Host: u.Host, Chat: u.Chat, History: u.History, Ignored: u.Ignored}
	if u.View != nil {
		b, err := json.Marshal(u.View)
		if err != nil {
			return nil, fmt.Errorf("encode %s view: %w", u.Table.Game, err)
		}
		w.View = b
	}
	return w, nil
}

func (w *wireUpdate) decode() (lobby.Update, error) {
	u := lobby.Update{Table: w.Table, Seat: w.Seat, Host: w.Host, Chat: w.Chat, History: w.History, Ignored: w.Ignored}
	if len(w.View) > 0 {
		spec, ok := rules.Lookup(w.Table.Game)
		if !ok || spec.DecodeView == nil {
			return u, fmt.Errorf("no way to decode a %q view", w.Table.Game)
		}
		v, err := spec.DecodeView(w.View)
		if err != nil {
			return u, err
		}
		u.View = v
	}
	return u, nil
}
