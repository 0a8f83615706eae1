package lobby

// Closed says why a member is out of its table: a kind a door may branch on (the
// terminal ends the session or goes back to the lobby by it), and the words the player
// reads. The zero value is "not closed".
type Closed struct {
	Why  Why    `json:"why"`
	Text string `json:"text"`
}

// Why is the kind of a Closed.
type Why string

// The reasons a member is out of its table.
const (
	WhyLeft     Why = "left"     // the member left
	WhyRemoved  Why = "removed"  // the host (or an admin) removed them
	WhyReplaced Why = "replaced" // their player connected again from somewhere else
	WhyClosed   Why = "closed"   // the table closed for everyone
	WhyRestart  Why = "restart"  // the server restarts; the table comes back with it
	WhyMoved    Why = "moved"    // this node stops; the table goes on at another
	WhyShutdown Why = "shutdown" // the server stops for good
	WhyLost     Why = "lost"     // the table moved and could not be reached
	WhyGone     Why = "gone"     // the connection itself ended
)

// String is the words for the player.
func (c Closed) String() string { return c.Text }

// IsZero tells "not closed" apart.
func (c Closed) IsZero() bool { return c.Why == "" }

// Ends tells whether the player's session ends with it rather than going back to the
// lobby: they are at the table elsewhere, or the server goes down.
func (c Closed) Ends() bool {
	switch c.Why {
	case WhyReplaced, WhyRestart, WhyMoved, WhyShutdown:
		return true
	}
	return false
}

// closedBy makes a Closed.
func closedBy(why Why, text string) Closed { return Closed{Why: why, Text: text} }

// The notices of a server that stops.
var (
	// RestartNotice is what players are told when the server stops with their tables kept.
	RestartNotice = closedBy(WhyRestart, "parlor is restarting; your table will be here when it is back.")
	// MovedNotice is what a cluster node's players are told when it stops: their tables
	// go on at another node, which they reach by connecting again.
	MovedNotice = closedBy(WhyMoved, "This parlor server is stopping for an upgrade. Your table goes on: connect again and you are back at your seat.")
	// TakenOverNotice is what a cluster node's players at a table are told when another
	// node took it over (this node's lease ran out while it was cut off or slow): the
	// table goes on there.
	TakenOverNotice = closedBy(WhyMoved, "This table moved to another server: connect again to go on.")
	// shutdownNotice is what players are told when the server stops for good.
	shutdownNotice = closedBy(WhyShutdown, "The server is shutting down. Thanks for playing!")
)

// Replaced is what a connection is told when its player connected again elsewhere.
var Replaced = closedBy(WhyReplaced, ErrReplaced.Error())
