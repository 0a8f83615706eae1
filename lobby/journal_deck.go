package lobby

import (
	"crypto/sha256"
	"encoding/hex"

	"parlor/store"
)

// The deck's side of the table log (journal.go, deck.go). The table state names each
// pack the table keeps (its deck and the shared ones) by the hash of its content, and
// the bytes go into the log once, beside the first state that names them: the state
// that every step compares stays small, however big the packs are. A snapshot carries
// every pack its state names, so a log read from its snapshot has them all.

// packState is a pack the table keeps, as the log's table state names it.
type packState struct {
	Label   string `json:"label"`
	By      string `json:"by,omitempty"`
	Owner   string `json:"owner"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Entries int    `json:"entries"`
	Content string `json:"content"` // contentSum of the file; its bytes are in a record's Blobs
}

// contentSum names a pack's content in the log.
func contentSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (tp tablePack) state() packState {
	return packState{Label: tp.Label, By: tp.By, Owner: tp.Pack.Owner, Name: tp.Pack.Name, Kind: tp.Pack.Kind, Entries: tp.Pack.Entries, Content: tp.sum}
}

// deckState fills in the deck part of the log's table state.
func (t *Table) deckState(st *tableState) {
	if t.deck != nil {
		d := t.deck.state()
		st.Deck, st.Mix = &d, t.mix
	}
	for _, tp := range t.shared {
		st.Shared = append(st.Shared, tp.state())
	}
	st.Everything = t.everything
}

// packBlobs is the content of the table's packs that the log does not hold yet since
// its last snapshot (all of it for a snapshot), by hash; nil when there is none.
func (t *Table) packBlobs(snapshot bool) map[string][]byte {
	jr := t.jr
	if snapshot || jr.blobs == nil {
		jr.blobs = map[string]bool{}
	}
	var out map[string][]byte
	add := func(tp *tablePack) {
		if jr.blobs[tp.sum] {
			return
		}
		if out == nil {
			out = map[string][]byte{}
		}
		out[tp.sum], jr.blobs[tp.sum] = tp.Pack.Content, true
	}
	if t.deck != nil {
		add(t.deck)
	}
	for i := range t.shared {
		add(&t.shared[i])
	}
	return out
}

// replayDeck sets the table's deck from a logged table state; blobs holds every pack
// content the log has brought so far.
func (t *Table) replayDeck(st *tableState, blobs map[string][]byte) error {
	pack := func(ps packState) (tablePack, error) {
		b, ok := blobs[ps.Content]
		if !ok || contentSum(b) != ps.Content {
			return tablePack{}, corrupt("the pack %q is missing from the log", ps.Name)
		}
		return tablePack{Label: ps.Label, By: ps.By, sum: ps.Content,
			Pack: store.Pack{Owner: ps.Owner, Name: ps.Name, Kind: ps.Kind, Entries: ps.Entries, Content: b}}, nil
	}
	t.deck, t.mix, t.shared, t.everything = nil, st.Mix, nil, st.Everything
	if st.Deck != nil {
		tp, err := pack(*st.Deck)
		if err != nil {
			return err
		}
		t.deck = &tp
	}
	for _, ps := range st.Shared {
		tp, err := pack(ps)
		if err != nil {
			return err
		}
		t.shared = append(t.shared, tp)
	}
	return nil
}
