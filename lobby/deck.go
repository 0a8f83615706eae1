package lobby

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"parlor/rules"
	"parlor/store"
)

// The deck: which content a table plays with. Every game with decks (rules.Spec.Decks)
// gets one more table option, "deck", whose choices the table computes: the built-in
// deck, every pack shared with the table, the host's own packs and the published ones,
// each alone or mixed with the built-in deck. The chosen pack's content is copied into
// the table, so a pack its owner removes (or a restart) does not take the deck away.

// Deck option key and values.
const (
	OptDeck     = "deck"
	DeckBuiltin = "built-in"
	mixSuffix   = " + built-in"
)

// Packs finds the content packs a player may play: their own, then published ones.
type Packs interface {
	Usable(ctx context.Context, playerID string) ([]store.Pack, error)
}

// tablePack is a pack a table may play, under the label its deck option shows.
type tablePack struct {
	Label string     `json:"label"`
	By    string     `json:"by,omitempty"` // who shared it with the table
	Pack  store.Pack `json:"pack"`
}

// fits reports whether the table's game plays packs of this kind.
func (t *Table) fits(kind string) (rules.Deck, bool) {
	for _, d := range t.spec.Decks {
		if d.Kind == kind {
			return d, true
		}
	}
	return rules.Deck{}, false
}

// deckKinds names the pack kinds the table's game takes, for messages.
func (t *Table) deckKinds() string {
	var ks []string
	for _, d := range t.spec.Decks {
		ks = append(ks, d.Kind)
	}
	if len(ks) == 0 {
		return "no packs"
	}
	return strings.Join(ks, " or ")
}

// candidates lists the packs the host may choose now, each label once: packs shared
// with the table first, then the host's own and the published ones.
func (t *Table) candidates() []tablePack {
	var out []tablePack
	seen := map[string]bool{}
	add := func(tp tablePack) {
		if _, ok := t.fits(tp.Pack.Kind); ok && !seen[tp.Label] {
			seen[tp.Label] = true
			out = append(out, tp)
		}
	}
	for _, tp := range t.shared {
		add(tp)
	}
	if i := t.seatOf(t.host); i >= 0 {
		for _, p := range t.seats[i].offers {
			add(tablePack{Label: p.Name, Pack: p})
		}
	}
	return out
}

// deckOption is the table's "deck" option, with the choices it has now.
func (t *Table) deckOption() (rules.Option, bool) {
	opt, ok := deckOption(t.spec, t.candidates())
	if cur := t.deckLabel(); ok && !contains(opt.Choices, cur) {
		opt.Choices = append(opt.Choices, cur) // the chosen pack stays a choice after its sharer left
	}
	return opt, ok
}

// deckOption is the "deck" option of a game with these packs to choose from; false for a
// game without decks.
func deckOption(spec *rules.Spec, packs []tablePack) (rules.Option, bool) {
	if len(spec.Decks) == 0 {
		return rules.Option{}, false
	}
	opt := rules.Option{Key: OptDeck, Name: "Deck",
		Help:    "the built-in cards, or a pack (ssh HOST pack): alone, or mixed with the built-in cards",
		Choices: []string{DeckBuiltin}, Default: DeckBuiltin}
	for _, c := range packs {
		opt.Choices = append(opt.Choices, c.Label, c.Label+mixSuffix)
	}
	return opt, true
}

// DeckOption is the "deck" option a player creating a table of the game may set: the
// built-in deck, their own packs and the published ones; false for a game without decks.
func (l *Lobby) DeckOption(p Player, gameID string) (rules.Option, bool) {
	spec, ok := rules.Lookup(gameID)
	if !ok {
		return rules.Option{}, false
	}
	var packs []tablePack
	for _, pk := range l.offers(p, spec) {
		packs = append(packs, tablePack{Label: pk.Name, Pack: pk})
	}
	return deckOption(spec, packs)
}

// deckLabel is the deck option's value.
func (t *Table) deckLabel() string {
	if t.deck == nil {
		return DeckBuiltin
	}
	if t.mix {
		return t.deck.Label + mixSuffix
	}
	return t.deck.Label
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// chooseDeck sets the deck from its option value.
func (t *Table) chooseDeck(value string) error {
	if value == DeckBuiltin {
		t.deck, t.mix = nil, false
		return nil
	}
	label, mix := strings.CutSuffix(value, mixSuffix)
	if t.deck != nil && label == t.deck.Label {
		t.mix = mix // the table's own copy, even if its owner removed the pack since
		return nil
	}
	for _, c := range t.candidates() {
		if c.Label == label {
			t.deck, t.mix = &c, mix
			return nil
		}
	}
	return fmt.Errorf("%w: no deck %q at this table (a pack must be yours, published, or shared with the table)", rules.ErrBadOption, CleanText(value, 60))
}

// gameContent is the content a game starts with: the built-in files, with the chosen
// pack in place of its file (and the built-in copy beside it when mixed).
func (t *Table) gameContent() (map[string][]byte, error) {
	content, err := t.lobby.content(t.spec.Content)
	if err != nil {
		return nil, err
	}
	if t.deck == nil {
		return content, nil
	}
	d, ok := t.fits(t.deck.Pack.Kind)
	if !ok {
		return nil, fmt.Errorf("the deck %q is a %s pack, which %s does not play", t.deck.Label, t.deck.Pack.Kind, t.spec.Name)
	}
	if t.mix {
		content[rules.Builtin(d.File)] = content[d.File]
	}
	content[d.File] = t.deck.Pack.Content
	return content, nil
}

// offers fetches the packs a player may offer a table of spec's game; nil without a
// pack library, for a guest, or when the store does not answer in time.
func (l *Lobby) offers(p Player, spec *rules.Spec) []store.Pack {
	if l.cfg.Packs == nil || p.Guest || len(spec.Decks) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(l.ctx, 3*time.Second)
	defer cancel()
	usable, err := l.cfg.Packs.Usable(ctx, p.ID)
	if err != nil {
		l.log.Warn("could not list packs", "err", err)
		return nil
	}
	var out []store.Pack
	for _, pk := range usable {
		for _, d := range spec.Decks {
			if d.Kind == pk.Kind {
				out = append(out, pk)
			}
		}
	}
	return out
}

// ErrNotSeated answers a player who shares a pack with a table where they have no seat.
var ErrNotSeated = errors.New("you have no seat at that table: only its players can share packs with it")

// Share offers one of the player's packs to a table where they hold a seat: its host may
// then choose it as the deck. Sharing a pack of the same name again replaces it.
func (l *Lobby) Share(p Player, code string, pk store.Pack) error {
	t, err := l.table(code)
	if err != nil {
		return err
	}
	return t.do(func(now time.Time) error {
		i := t.seatOf(p.ID)
		if i < 0 || p.Guest {
			return ErrNotSeated
		}
		d, ok := t.fits(pk.Kind)
		if !ok {
			return fmt.Errorf("%q is a %s pack, and table %s plays %s, which takes %s", pk.Name, pk.Kind, t.code, t.spec.Name, t.deckKinds())
		}
		by := t.seats[i].player.Name
		tp := tablePack{Label: pk.Name + " (" + by + ")", By: p.ID, Pack: pk}
		for j, old := range t.shared {
			if old.By == p.ID && old.Pack.Name == pk.Name {
				t.shared = append(t.shared[:j], t.shared[j+1:]...)
				break
			}
		}
		t.shared = append(t.shared, tp)
		t.system(now, "%s shared the pack %q (%d %s): the host can choose it as the deck.", by, pk.Name, pk.Entries, d.What)
		return nil
	})
}

// Share offers one of the member's own packs, by name, to the member's table.
func (m *Member) Share(name string) error {
	if m.player.Guest {
		return ErrNotSeated
	}
	for _, pk := range m.t.lobby.offers(m.player, m.t.spec) {
		if pk.Owner == m.player.ID && pk.Name == name {
			return m.t.lobby.Share(m.player, m.t.code, pk)
		}
	}
	return fmt.Errorf("you have no %s pack named %q (ssh HOST pack list shows yours)", m.t.deckKinds(), CleanText(name, 60))
}
