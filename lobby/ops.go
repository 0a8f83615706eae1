package lobby

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"parlor/rules"
)

// Table operations are data. Each is one request type, declared once below with its
// arguments and its result type, and handled in one place (Member.Call). Every door sends
// these values: the terminal UI and the JSON API through a Place, and the cluster
// carries any of them from a remote member to the table's owner generically
// (EncodeRequest, DecodeRequest, DecodeResult) without knowing which one it is.
//
// Adding an operation: declare its type here, list it in Requests, handle it in
// Member.Call; then its keys in the UI and its entry in docs/api.md. Nothing in the
// cluster changes, and the test of every door picks it up from Requests.

// Request is a table operation with its arguments.
type Request interface {
	// Op is the operation's name on every wire: the JSON API's "op", the cluster's.
	Op() string
	newResult() any
}

// Op is a request whose result is R.
type Op[R any] interface {
	Request
	result(*R)
}

// returns ties a request type to its result type R (embed it in the request).
type returns[R any] struct{}

func (returns[R]) result(*R)      {}
func (returns[R]) newResult() any { return new(R) }

// Done is the result of an operation that returns nothing but its error.
type Done struct{}

// SharedPacks is ShareAll's result: how many packs were offered to the table.
type SharedPacks struct {
	Count int `json:"count"`
}

// Act applies a game action (the game's JSON, with its "type") for the member's seat.
// The error, if any, is the game's own readable message.
type Act struct {
	returns[Done]
	Action json.RawMessage `json:"action" required:"the game action object, with its \"type\""`
}

// Chat says something to the table.
type Chat struct {
	returns[Done]
	Text string `json:"text"`
}

// TakeSeat seats a spectator at a table that is not playing.
type TakeSeat struct{ returns[Done] }

// Leave frees the seat before a game (keeps it, as away, during one) and takes the
// member away from the table.
type Leave struct{ returns[Done] }

// Disconnect is Leave for a connection that ended: a key-holding player keeps the seat,
// to take it back by connecting again.
type Disconnect struct{ returns[Done] }

// Share offers one of the player's own packs, by name, to the table.
type Share struct {
	returns[Done]
	Pack string `json:"pack" required:"the name of one of your packs"`
}

// ShareAll offers every own pack the table's game plays.
type ShareAll struct{ returns[SharedPacks] }

// RereadPacks reads the player's own packs from the store again, for the deck's
// choices: a pack added since the player sat down becomes a choice (see PacksChanged).
type RereadPacks struct{ returns[Done] }

// Start starts a game with the seated players and bots (the host only).
type Start struct{ returns[Done] }

// SetOptions changes the game options before a game starts (the host only).
type SetOptions struct {
	returns[Done]
	Options rules.Options `json:"options" required:"the options to change, as {\"key\": \"value\"}"`
}

// AddBot seats a bot before a game starts (the host only).
type AddBot struct{ returns[Done] }

// Kick removes the player or bot in a seat (the host only); during a game a bot takes
// the seat over.
type Kick struct {
	returns[Done]
	Seat int `json:"seat" required:"the seat number, from 0"`
}

// MakeHost hands the host role to the human in a seat (the host only).
type MakeHost struct {
	returns[Done]
	Seat int `json:"seat" required:"the seat number, from 0"`
}

// StandIn lets a bot play an away player's seat until they return, or an idle player's
// (the game waits for them) until they press a key or act (the host only).
type StandIn struct {
	returns[Done]
	Seat int `json:"seat" required:"the seat number, from 0"`
}

// Resume takes the member's own seat back from a bot that plays it (a key press).
type Resume struct{ returns[Done] }

// CloseTable ends the table for everyone (the host only), telling them Message if any
// (an operator's words, when an admin closes a table).
type CloseTable struct {
	returns[Done]
	Message string `json:"message,omitempty"`
}

// Block removes the player in a seat and keeps their key out of the table, seated or
// watching, until the host unblocks them or the table closes (the host only; moderation.go).
type Block struct {
	returns[Done]
	Seat int `json:"seat" required:"the seat number, from 0"`
}

// BlockSpectator is Block for a spectator, named as their chat lines name them.
type BlockSpectator struct {
	returns[Done]
	Name string `json:"name" required:"the spectator's name"`
}

// Unblock lets a blocked player, by the name they were blocked under, join and watch the
// table again (the host only).
type Unblock struct {
	returns[Done]
	Name string `json:"name" required:"the blocked player's name"`
}

// Ignore hides the chat of the player in a seat from the member, for as long as the
// member stays at the table.
type Ignore struct {
	returns[Done]
	Seat int `json:"seat" required:"the seat number, from 0"`
}

// Unignore shows an ignored player's chat again, by the name they were ignored under.
type Unignore struct {
	returns[Done]
	Name string `json:"name" required:"the ignored player's name"`
}

// ReportPlayer tells the server's admins about the player in a seat, with a reason;
// the report keeps the table's recent chat.
type ReportPlayer struct {
	returns[Done]
	Seat   int    `json:"seat" required:"the seat number, from 0"`
	Reason string `json:"reason" required:"why you report them, in a few words"`
}

// ExtraTime gives the player in a seat Factor times the table's time limits in every
// timed phase of every game, without slowing the others (rules.Pace); Factor 1 takes it
// back. The host gives it; a player may give back time of their own (more.go).
type ExtraTime struct {
	returns[Done]
	Seat   int          `json:"seat" required:"the seat number, from 0"`
	Factor rules.Factor `json:"factor" required:"1, 1.5, 2 or 3"`
}

// The operations' names, which every wire uses. They are the JSON API's ops.
func (Act) Op() string            { return "act" }
func (Chat) Op() string           { return "chat" }
func (TakeSeat) Op() string       { return "sit" }
func (Leave) Op() string          { return "leave" }
func (Disconnect) Op() string     { return "disconnect" }
func (Share) Op() string          { return "share" }
func (ShareAll) Op() string       { return "share_all" }
func (RereadPacks) Op() string    { return "reread_packs" }
func (Start) Op() string          { return "start" }
func (SetOptions) Op() string     { return "options" }
func (AddBot) Op() string         { return "bot" }
func (Kick) Op() string           { return "kick" }
func (MakeHost) Op() string       { return "host" }
func (StandIn) Op() string        { return "stand_in" }
func (Resume) Op() string         { return "resume" }
func (CloseTable) Op() string     { return "close" }
func (Block) Op() string          { return "block" }
func (BlockSpectator) Op() string { return "block_spectator" }
func (Unblock) Op() string        { return "unblock" }
func (Ignore) Op() string         { return "ignore" }
func (Unignore) Op() string       { return "unignore" }
func (ReportPlayer) Op() string   { return "report" }
func (ExtraTime) Op() string      { return "extra_time" }

// Requests lists one value of every table operation: the registry the wires decode by.
var Requests = []Request{
	Act{}, Chat{}, TakeSeat{}, Leave{}, Disconnect{}, Share{}, ShareAll{}, RereadPacks{}, Start{},
	SetOptions{}, AddBot{}, Kick{}, MakeHost{}, StandIn{}, Resume{}, CloseTable{},
	Block{}, BlockSpectator{}, Unblock{}, Ignore{}, Unignore{}, ReportPlayer{},
	ExtraTime{},
}

// ErrUnknownOp answers a request for an operation that does not exist.
var ErrUnknownOp = rules.Sentinel("lobby.unknown_op", "no such operation")

var requestTypes = func() map[string]reflect.Type {
	out := make(map[string]reflect.Type, len(Requests))
	for _, r := range Requests {
		if _, dup := out[r.Op()]; dup {
			panic("lobby: two operations named " + r.Op())
		}
		out[r.Op()] = reflect.TypeOf(r)
	}
	return out
}()

// Do runs op at p and returns its typed result.
func Do[R any](p Place, op Op[R]) (R, error) {
	res, err := p.Call(op)
	r, _ := res.(R)
	return r, err
}

// Run runs op, one whose result is Done, at p and returns its error.
func Run(p Place, op Op[Done]) error {
	_, err := p.Call(op)
	return err
}

// Departs tells whether req takes the member away from its table (Leave, Disconnect):
// a door that holds the member lets go of it afterwards.
func Departs(req Request) bool {
	switch req.(type) {
	case Leave, Disconnect:
		return true
	}
	return false
}

// EncodeRequest is req's arguments as JSON (its name is req.Op()).
func EncodeRequest(req Request) (json.RawMessage, error) {
	return json.Marshal(req)
}

// DecodeRequest makes the request named op from its JSON arguments. Fields a request
// needs (tagged required) must be present; unknown fields are ignored, so a wire may
// carry more (the JSON API's "op" and "id").
func DecodeRequest(op string, args json.RawMessage) (Request, error) {
	t, ok := requestTypes[op]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownOp, op)
	}
	ptr := reflect.New(t)
	if len(args) > 0 {
		if err := json.Unmarshal(args, ptr.Interface()); err != nil {
			return nil, fmt.Errorf("%s: %s", op, rules.JSONProblem(err, ptr.Interface()))
		}
	}
	if err := checkRequired(op, t, args); err != nil {
		return nil, err
	}
	return ptr.Elem().Interface().(Request), nil
}

// checkRequired fails when a field tagged required is missing from args.
func checkRequired(op string, t reflect.Type, args json.RawMessage) error {
	var fields map[string]json.RawMessage
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		why, ok := f.Tag.Lookup("required")
		if !ok {
			continue
		}
		if fields == nil && len(args) > 0 {
			_ = json.Unmarshal(args, &fields)
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if v, ok := fields[name]; !ok || string(v) == "null" {
			return fmt.Errorf("%w: %q needs %q: %s", ErrMissingField, op, name, why)
		}
	}
	return nil
}

// ErrMissingField answers a request without an argument it needs.
var ErrMissingField = rules.Sentinel("lobby.missing_field", "a request is missing a field")

// DecodeResult reads the JSON result of req made elsewhere (EncodeResult's).
func DecodeResult(req Request, raw json.RawMessage) (any, error) {
	ptr := req.newResult()
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, ptr); err != nil {
			return nil, fmt.Errorf("%s result: %w", req.Op(), err)
		}
	}
	return reflect.ValueOf(ptr).Elem().Interface(), nil
}

// EncodeResult is a result as JSON, for the member that asked on another node.
func EncodeResult(res any) (json.RawMessage, error) {
	if res == nil {
		return nil, nil
	}
	return json.Marshal(res)
}

// Call runs one table operation for the member: the one place where every operation is
// dispatched, for every door. A failed operation has no result.
func (m *Member) Call(req Request) (any, error) {
	res, err := m.dispatch(req)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (m *Member) dispatch(req Request) (any, error) {
	switch r := req.(type) {
	case Act:
		return Done{}, m.act(r.Action)
	case Chat:
		return Done{}, m.chat(r.Text)
	case TakeSeat:
		return Done{}, m.takeSeat()
	case Leave:
		m.depart(true)
		return Done{}, nil
	case Disconnect:
		m.depart(false)
		return Done{}, nil
	case Share:
		return Done{}, m.share(r.Pack)
	case ShareAll:
		n, err := m.shareAll()
		return SharedPacks{Count: n}, err
	case RereadPacks:
		return Done{}, m.rereadPacks()
	case Start:
		return Done{}, m.start()
	case SetOptions:
		return Done{}, m.setOptions(r.Options)
	case AddBot:
		return Done{}, m.addBot()
	case Kick:
		return Done{}, m.kick(r.Seat)
	case MakeHost:
		return Done{}, m.makeHost(r.Seat)
	case StandIn:
		return Done{}, m.standIn(r.Seat)
	case Resume:
		return Done{}, m.resumeSeat()
	case CloseTable:
		return Done{}, m.closeTable(r.Message)
	case Block:
		return Done{}, m.block(r.Seat)
	case BlockSpectator:
		return Done{}, m.blockSpectator(r.Name)
	case Unblock:
		return Done{}, m.unblock(r.Name)
	case Ignore:
		return Done{}, m.ignore(r.Seat)
	case Unignore:
		return Done{}, m.unignore(r.Name)
	case ReportPlayer:
		return Done{}, m.report(r.Seat, r.Reason)
	case ExtraTime:
		return Done{}, m.extraTime(r.Seat, r.Factor)
	case nil:
		return nil, ErrUnknownOp
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownOp, req.Op())
}

// ActOf is the Act request for an action struct, or its JSON ([]byte or
// json.RawMessage). Action structs always marshal.
func ActOf(action any) Act {
	switch v := action.(type) {
	case json.RawMessage:
		return Act{Action: v}
	case []byte:
		return Act{Action: v}
	}
	return Act{Action: rules.Encode(action)}
}
