// Package termrt is parlor's terminal runtime: what runs a player's Bubble Tea model on
// their SSH session, in place of charm.land/ssh's accept loop and session handler and of
// tea.Program's loop, renderer and input reader, each replaced for a cost measured in
// docs/performance.md (docs/architecture.md gives each piece with its figure and the
// library's behaviour it works around). It knows nothing of parlor's games, lobby or
// screens: it serves SSH sessions to a handler and runs a tea.Model on a terminal.
//
// The pieces:
//   - Server, the connection loop (conn.go): accepts connections, logs them in with the
//     configuration it is given, and opens their session channels (window.go), whose
//     requests it answers itself; window sizes are clamped to 500×200 on the way in.
//   - Program, the loop (program.go) that runs a model on the session's goroutine: Init,
//     Update for every message, a goroutine per command, the channel's requests (a
//     resize is a message like a key).
//   - the key reader (keys.go), which reads the session's input with ultraviolet's
//     decoder and sends it to the program;
//   - the painter (paint.go), which draws each frame that changed, by rows, at most
//     fps times a second, and nothing while nothing changes;
//   - the renderers (render.go), a few goroutines on which every session's frames are
//     rendered, so that no session's goroutine grows a deep stack or pays the
//     collector for them.
//
// # The contract with a model
//
// Run takes any tea.Model. Init is called once, then Update with every message: first a
// tea.ColorProfileMsg and a tea.WindowSizeMsg for the session's terminal, then its keys,
// pastes and resizes, the terminal's answers to the painter's mode queries
// (tea.ModeReportMsg), the messages the model's commands return and whatever
// Program.Send and Program.TrySend deliver. tea.Quit ends the program. The painter sets
// the terminal up as a full-screen program (the alternate screen, no cursor, bracketed
// paste) and takes only the window title from the model's View, on the first frame.
//
// Two optional methods, which the runtime finds by type assertion (Framer, Preparer), so
// that a model needs nothing of this package to offer them:
//
//   - Frame() []string gives the frame as rows, one string per terminal row, in place of
//     View().Content split at its newlines (a frame's worth of garbage per update).
//     The painter copies what it keeps: the model may change its rows in place later.
//   - Prepare(msg) (next tea.Msg, quick bool) is asked about each message first, on the
//     session's goroutine: it does there what msg needs there (parlor's session takes the
//     table's news from its mailbox) and returns the message Update is to take instead.
//     A quick message is one whose update neither blocks nor does I/O: its update and the
//     frame it changes then run on a renderer, so that the session's goroutine allocates
//     nothing for it.
//
// Frame and View run on a renderer, and a quick update does: none of them may block.
package termrt

import tea "charm.land/bubbletea/v2"

// A Framer is a model that gives its frame as rows (see the package's contract).
type Framer interface {
	Frame() []string
}

// A Preparer is a model that can tell which messages it takes quickly (see the package's
// contract): Prepare does on the session's goroutine what msg needs there and returns the
// message Update is to take instead, quick when that update neither blocks nor does I/O.
// The painter updates with a quick message on a renderer, with the frame it changes.
type Preparer interface {
	Prepare(msg tea.Msg) (next tea.Msg, quick bool)
}
