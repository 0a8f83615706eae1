package session

import (
	"slices"

	"parlor/session/gameui"
)

// lastDrawing is one part of a session's frame as it was last drawn, with what it was
// drawn from. After a table update most parts of a seat's frame are what they were (a
// token move changes the board, not the title bar, the prompt or the feed): a part
// drawn from the same key is the same, so it is not drawn again. Drawing the title bar
// alone (measuring and styling it) cost as much as a seat's half of the Quadrant board.
// What is kept is the seat's own, so it lives in the session, not in the table state's
// lobby.Shared.
type lastDrawing[K comparable, V any] struct {
	key K
	val V
	ok  bool
}

// get returns what was drawn from key, drawing it when the key changed. What it returns
// may be returned again: callers must not change it.
func (d *lastDrawing[K, V]) get(key K, draw func() V) V {
	if !d.ok || d.key != key {
		d.key, d.val, d.ok = key, draw(), true
	}
	return d.val
}

// titleKey is what a title bar is drawn from.
type titleKey struct {
	w           int
	left, right string
}

// tailKey is what the tail of the feed is drawn from: feedSeq counts every entry ever
// added, so the same count is the same feed.
type tailKey struct{ w, n, seq int }

// footerDrawn is the game screen's footer as last drawn (one or two lines), with the
// keys it lists: a move rarely changes them, and looking the footer up again
// (gameui.GameFooter) costs a string of every key's help and a look-up in the memo every
// session shares. (Its key is a slice, which lastDrawing's comparable key cannot hold.)
type footerDrawn struct {
	w      int
	typing bool
	keys   []gameui.Key
	lines  []string
	ok     bool
}

// get is the footer of keys in width w, as lines.
func (d *footerDrawn) get(w int, keys []gameui.Key, typing bool) []string {
	if !d.ok || d.w != w || d.typing != typing || !slices.Equal(d.keys, keys) {
		// The keys are the game screen's: kept as a copy, whatever it does with them.
		*d = footerDrawn{w: w, typing: typing, keys: slices.Clone(keys), lines: gameui.GameFooter(w, keys, typing), ok: true}
	}
	return d.lines
}

// forget drops every part of the frame kept from the last drawing, so that the next
// is drawn from nothing (tests compare the two).
func (m *Model) forget() {
	m.titleDrawn, m.promptDrawn = lastDrawing[titleKey, string]{}, lastDrawing[string, string]{}
	m.table.tailDrawn, m.table.feedDrawn = lastDrawing[tailKey, []string]{}, lastDrawing[tailKey, []string]{}
	m.table.footerDrawn = footerDrawn{}
}
