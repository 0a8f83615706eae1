package lobby

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"parlor/packs"
	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

// The deck: which content a table plays with. Every game with decks (rules.Spec.Decks)
// gets one more table option, "deck", whose choices the table computes: the built-in
// deck, every pack shared with the table, the host's own packs and the published ones,
// each alone or mixed with the built-in deck. The chosen pack's content is copied into
// the table, so a pack its owner removes (or a restart) does not take the deck away.

// Deck and content options: keys and values.
const (
	OptDeck     = "deck"
	DeckBuiltin = packs.Builtin
	DeckMix     = packs.MixPrefix // "mix: NAME" is the pack NAME mixed with the built-in deck

	OptContent    = "content"
	ContentFamily = "family" // entries tagged rules.AdultTag are left out
	ContentAll    = "everything"
)

// contentOption is the family filter every game with decks has.
var contentOption = rules.Option{Key: OptContent, Name: "Content",
	Help:    "family leaves out every pack card tagged [adult] (Foresight's built-in adult questions are chosen with Question decks)",
	Choices: []string{ContentFamily, ContentAll}, Default: ContentFamily}

// tableOptions are the options the table keeps itself, apart from the game's: away
// players, then the deck and the family filter for a game with decks. Only the host's
// own screen lists the host's own packs (forHost): their names are nobody else's
// business until shared.
func (t *Table) tableOptions(forHost bool) []rules.Option {
	deck, ok := t.deckOption(forHost)
	if !ok {
		return []rules.Option{awayOption}
	}
	return []rules.Option{awayOption, deck, contentOption}
}

// choices are the options the host may set at the table: the game itself, the game's,
// then the table's.
func (t *Table) choices(forHost bool) []rules.Option {
	return append(append([]rules.Option{gameOption()}, t.spec.Options...), t.tableOptions(forHost)...)
}

// tableOptionValues are the values of tableOptions, with the game's name, but away
// players, whose value is kept among the game's options (options.go).
func (t *Table) tableOptionValues() rules.Options {
	vals := rules.Options{OptGame: t.spec.Name}
	if len(t.spec.Decks) > 0 {
		vals[OptDeck], vals[OptContent] = t.deckLabel(), ContentFamily
		if t.everything {
			vals[OptContent] = ContentAll
		}
	}
	return vals
}

// setTableOptions sets the deck and the family filter from o, if it holds them; on an
// error nothing changed.
func (t *Table) setTableOptions(o rules.Options) error {
	_, deck := o[OptDeck]
	if _, content := o[OptContent]; len(t.spec.Decks) == 0 && (deck || content) {
		return fmt.Errorf("%w: %s plays no decks, so it has no %s or %s option", rules.ErrBadOption, t.spec.Name, OptDeck, OptContent)
	}
	if v, ok := o[OptContent]; ok {
		if !slices.Contains(contentOption.Choices, v) {
			return fmt.Errorf("%w: %s must be one of %v, not %q", rules.ErrBadOption, contentOption.Name, contentOption.Choices, playertext.Short(v, 30))
		}
	}
	if v, ok := o[OptDeck]; ok {
		if err := t.chooseDeck(v); err != nil {
			return err
		}
	}
	if v, ok := o[OptContent]; ok {
		t.everything = v == ContentAll
	}
	return nil
}

// gameOptions is o without the options the table keeps itself.
func gameOptions(o rules.Options) rules.Options {
	_, deck := o[OptDeck]
	_, content := o[OptContent]
	_, game := o[OptGame]
	if !deck && !content && !game {
		return o
	}
	out := cloneOptions(o)
	delete(out, OptDeck)
	delete(out, OptContent)
	delete(out, OptGame)
	return out
}

// Packs finds the content packs a player may play: their own, then published ones.
type Packs interface {
	Usable(ctx context.Context, playerID string) ([]store.Pack, error)
}

// tablePack is a pack a table may play, under the label its deck option shows.
type tablePack struct {
	Label string     // what the deck option shows
	By    string     // who shared it with the table
	Pack  store.Pack // the table's copy
	sum   string     // the hash of the content, by which the table log names it; set once the table keeps it (kept)
}

// kept is tp as the table keeps it (its deck or a shared pack), with the hash the
// table log names its content by, computed once here rather than at every logged step.
func (tp tablePack) kept() tablePack {
	tp.sum = contentSum(tp.Pack.Content)
	return tp
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

// deckKinds names the pack kinds the table's game takes, for messages (on the actor).
func (t *Table) deckKinds() string { return deckKinds(t.spec) }

// deckKinds names the pack kinds a game takes, for messages.
func deckKinds(spec *rules.Spec) string {
	var ks []string
	for _, d := range spec.Decks {
		ks = append(ks, d.Kind)
	}
	if len(ks) == 0 {
		return "no packs"
	}
	return strings.Join(ks, " or ")
}

// candidates lists the packs the host may choose now, each label once: packs shared
// with the table first, then the host's own and the published ones (withOffers).
func (t *Table) candidates(withOffers bool) []tablePack {
	var out []tablePack
	seen := map[string]bool{}
	add := func(tp tablePack) {
		if _, ok := t.fits(tp.Pack.Kind); ok && !seen[tp.Label] {
			seen[tp.Label] = true
			out = append(out, tp)
		}
	}
	for _, tp := range t.shared {
		if withOffers && tp.By == t.host && t.seatOf(t.host) >= 0 {
			continue // among the host's own packs below, under its own name
		}
		add(tp)
	}
	if i := t.seatOf(t.host); i >= 0 && withOffers {
		for _, p := range t.seats[i].offers {
			add(tablePack{Label: p.Name, Pack: p})
		}
	}
	return out
}

// deckOption is the table's "deck" option, with the choices it has now.
func (t *Table) deckOption(forHost bool) (rules.Option, bool) {
	opt, ok := deckOption(t.spec, t.candidates(forHost), t.lobby.cfg.SSHCommand)
	if cur := t.deckLabel(); ok && !slices.Contains(opt.Choices, cur) {
		opt.Choices = append(opt.Choices, cur) // the chosen pack stays a choice after its sharer left
	}
	return opt, ok
}

// deckOption is the "deck" option of a game with these packs to choose from; false for a
// game without decks. ssh is how players reach the server (Config.SSHCommand).
func deckOption(spec *rules.Spec, packs []tablePack, ssh string) (rules.Option, bool) {
	if len(spec.Decks) == 0 {
		return rules.Option{}, false
	}
	opt := rules.Option{Key: OptDeck, Name: "Deck",
		Help:    "the built-in cards, or a pack (" + ssh + " pack): alone, or mixed with the built-in cards",
		Choices: []string{DeckBuiltin}, Default: DeckBuiltin}
	for _, c := range packs {
		opt.Choices = append(opt.Choices, c.Label, DeckMix+c.Label)
	}
	return opt, true
}

// TableOptions are the options beyond the game's that a player creating a table of the
// game may set: away players, then, for a game with decks, the deck (the built-in deck,
// their own packs and the published ones) and the family filter.
func (l *Lobby) TableOptions(p Player, gameID string) []rules.Option {
	spec, ok := rules.Lookup(gameID)
	if !ok {
		return nil
	}
	var packs []tablePack
	for _, pk := range l.offers(p, spec) {
		packs = append(packs, tablePack{Label: pk.Name, Pack: pk})
	}
	deck, ok := deckOption(spec, packs, l.cfg.SSHCommand)
	if !ok {
		return []rules.Option{awayOption}
	}
	return []rules.Option{awayOption, deck, contentOption}
}

// deckLabel is the deck option's value.
func (t *Table) deckLabel() string {
	if t.deck == nil {
		return DeckBuiltin
	}
	if t.mix {
		return DeckMix + t.deck.Label
	}
	return t.deck.Label
}

// chooseDeck sets the deck from its option value.
func (t *Table) chooseDeck(value string) error {
	if value == DeckBuiltin {
		t.deck, t.mix = nil, false
		return nil
	}
	label, mix := strings.CutPrefix(value, DeckMix)
	if t.deck != nil && label == t.deck.Label {
		t.mix = mix // the table's own copy, even if its owner removed the pack since
		return nil
	}
	for _, c := range t.candidates(true) {
		if c.Label == label {
			if c.sum == "" {
				c = c.kept()
			}
			t.deck, t.mix = &c, mix
			return nil
		}
	}
	return fmt.Errorf("%w: no deck %q at this table (a pack must be yours, published, or shared with the table)", rules.ErrBadOption, playertext.Short(value, 60))
}

// gameContent is the content a game starts with: the built-in files, with the chosen
// pack in place of its file (and the built-in copy beside it when mixed), filtered by the
// content option. own holds the files that are not the built-in ones as they are (the
// pack, the mixed copy, a filtered deck), with their final bytes: the table log keeps
// them, so a restored game deals the same cards even once the pack is gone.
func (t *Table) gameContent() (content, own map[string][]byte, err error) {
	content, err = t.lobby.content(t.spec.Content)
	if err != nil {
		return nil, nil, err
	}
	own = map[string][]byte{}
	set := func(name string, b []byte) {
		if old, ok := content[name]; !ok || !bytes.Equal(old, b) {
			content[name], own[name] = b, b
		}
	}
	if t.deck != nil {
		d, ok := t.fits(t.deck.Pack.Kind)
		if !ok {
			return nil, nil, fmt.Errorf("the deck %q is a %s pack, which %s does not play", t.deck.Label, t.deck.Pack.Kind, t.spec.Name)
		}
		if t.mix {
			set(rules.Builtin(d.File), content[d.File])
		}
		set(d.File, t.deck.Pack.Content)
	}
	for _, d := range t.spec.Decks {
		for _, name := range []string{d.File, rules.Builtin(d.File)} {
			if b, ok := content[name]; ok {
				set(name, rules.Rated(b, !t.everything))
			}
		}
	}
	return content, own, nil
}

// offers fetches the packs a player may offer a table of spec's game; nil without a
// pack library, for a guest, or when the store does not answer in time.
func (l *Lobby) offers(p Player, spec *rules.Spec) []store.Pack {
	if len(spec.Decks) == 0 {
		return nil
	}
	usable, _ := l.usable(p)
	return packsFor(usable, spec)
}

// usable fetches every pack a player may offer a table, of any game; false without a
// pack library, for a guest, or when the store does not answer in time.
func (l *Lobby) usable(p Player) ([]store.Pack, bool) {
	if l.cfg.Packs == nil || p.Guest {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(l.ctx, 3*time.Second)
	defer cancel()
	usable, err := l.cfg.Packs.Usable(ctx, p.ID)
	if err != nil {
		l.log.Warn("could not list packs", "err", err)
		return nil, false
	}
	return usable, true
}

// packsFor is the packs among usable that spec's game plays.
func packsFor(usable []store.Pack, spec *rules.Spec) []store.Pack {
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

// PacksChanged tells the tables on this node where the player holds a seat that their
// packs changed (the server calls it after a pack is added, replaced or removed): each
// reads them again, so the host's deck choices show a new pack at once. The packs are
// read from the store once, here, before any actor's turn.
//
// A table another node runs is not told: a remote place may be called from its own
// connection's goroutine only (Place), so that table reads the packs when its host
// chooses the deck, re-joins, or sends RereadPacks.
func (l *Lobby) PacksChanged(p Player) {
	l.mu.Lock()
	var tables []*Table
	for code, ids := range l.seatIDs {
		if t := l.tables[code]; t != nil && slices.Contains(ids, p.ID) {
			tables = append(tables, t)
		}
	}
	l.mu.Unlock()
	if len(tables) == 0 {
		return
	}
	usable, ok := l.usable(p)
	if !ok {
		return
	}
	for _, t := range tables {
		_ = t.do(func(now time.Time) error { // a table that closed meanwhile needs nothing
			t.setOffers(p.ID, usable, now)
			return nil
		})
	}
}

// rereadPacks is RereadPacks: the member's packs, read again for its seat.
func (m *Member) rereadPacks() error {
	usable, ok := m.t.lobby.usable(m.player) // from the store, before the actor's turn
	if !ok {
		return nil // the choices stay as they were
	}
	return m.t.do(func(now time.Time) error {
		m.t.setOffers(m.player.ID, usable, now)
		return nil
	})
}

// setOffers gives the seat of a player the packs among usable that the table's game
// plays, and shows them among the deck's choices when the player is the host.
func (t *Table) setOffers(playerID string, usable []store.Pack, now time.Time) {
	i := t.seatOf(playerID)
	if i < 0 {
		return
	}
	s := t.seats[i]
	s.offers = packsFor(usable, t.spec)
	if s.member != nil {
		s.member.offers = s.offers
	}
	if playerID == t.host {
		t.changed(now)
	}
}

// MaxShared is how many packs a table keeps shared with it: the last ones. Each is in
// the table's log with its content, which one entry of the log must hold.
const MaxShared = 6

// ErrNotSeated answers a player who shares a pack with a table where they have no seat.
var ErrNotSeated = rules.Sentinel("lobby.not_seated", "you have no seat at that table: only its players can share packs with it")

// Share offers one of the player's packs to a table where they hold a seat: its host may
// then choose it as the deck. Sharing a pack of the same name again replaces it.
func (l *Lobby) Share(p Player, code string, pk store.Pack) error {
	t, err := l.find(p, code)
	if err != nil {
		return err
	}
	return t.share(p, pk)
}

// share offers pk to the table for p, who must hold a seat at it.
func (t *Table) share(p Player, pk store.Pack) error {
	return t.do(func(now time.Time) error {
		i := t.seatOf(p.ID)
		if i < 0 || p.Guest {
			return fmt.Errorf("table %s: %w", t.code, ErrNotSeated)
		}
		d, ok := t.fits(pk.Kind)
		if !ok {
			return fmt.Errorf("%q is a %s pack, and table %s plays %s, which takes %s", pk.Name, pk.Kind, t.code, t.spec.Name, t.deckKinds())
		}
		by := t.seats[i].player.Name
		tp := tablePack{Label: pk.Name + " (" + by + ")", By: p.ID, Pack: pk}.kept()
		for j, old := range t.shared {
			if old.By == p.ID && old.Pack.Name == pk.Name {
				t.shared = append(t.shared[:j], t.shared[j+1:]...)
				break
			}
		}
		t.shared = append(t.shared, tp)
		if len(t.shared) > MaxShared {
			// The oldest offer goes (a deck chosen from it stays: the deck is a copy).
			old := t.shared[0]
			t.shared = slices.Delete(t.shared, 0, 1)
			defer t.system(now, "The pack %q is no longer offered: a table keeps the last %d shared packs.", old.Label, MaxShared)
		}
		if p.ID == t.host {
			// The host's own packs are the deck's choices already (candidates): this one
			// joins them as it is now, without a second "(Ann)" entry; shared, it stays a
			// choice if the host role passes.
			s := t.seats[i]
			s.offers = append(slices.DeleteFunc(slices.Clone(s.offers), func(o store.Pack) bool { return o.Name == pk.Name }), pk)
			t.system(now, "%s shared the pack %q (%d %s): it is one of the deck's choices.", by, pk.Name, pk.Entries, d.What)
			return nil
		}
		t.system(now, "%s shared the pack %q (%d %s): the host can choose it as the deck.", by, pk.Name, pk.Entries, d.What)
		return nil
	})
}

// Share offers one of the member's own packs, by name, to the member's table.
func (m *Member) share(name string) error {
	spec, mine, err := m.ownPacks()
	if err != nil {
		return err
	}
	if pk, ok := packs.Named(mine, name); ok {
		return m.t.share(m.player, pk)
	}
	return fmt.Errorf("you have no %s pack named %q (%s pack list shows yours)", deckKinds(spec), playertext.Short(name, 60), m.t.lobby.cfg.SSHCommand)
}

// ShareAll offers every one of the member's own packs that the table's game plays, and
// says how many.
func (m *Member) shareAll() (int, error) {
	spec, mine, err := m.ownPacks()
	if err != nil {
		return 0, err
	}
	if len(mine) == 0 {
		return 0, fmt.Errorf("you have no %s packs to share: upload one with %s pack add KIND NAME < file", deckKinds(spec), m.t.lobby.cfg.SSHCommand)
	}
	for _, pk := range mine {
		if err := m.t.share(m.player, pk); err != nil {
			return 0, err
		}
	}
	return len(mine), nil
}

// ownPacks are the member's own packs that the table's game plays (not the published
// ones), and that game. The game is read on the table's actor, since the host may switch
// it meanwhile; the packs are read off it (they come from the store), and share checks
// each against the game again on the actor.
func (m *Member) ownPacks() (*rules.Spec, []store.Pack, error) {
	var spec *rules.Spec
	if err := m.t.do(func(time.Time) error { spec = m.t.spec; return nil }); err != nil {
		return nil, nil, err
	}
	var out []store.Pack
	for _, pk := range m.t.lobby.offers(m.player, spec) {
		if pk.Owner == m.player.ID {
			out = append(out, pk)
		}
	}
	return spec, out, nil
}
