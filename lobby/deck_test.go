package lobby_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"parlor/assets"
	"parlor/internal/testkit/packtest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/packs"
	"parlor/rules"
	"parlor/rules/quadrant"
	"parlor/rules/topfive"
	"parlor/store"
)

// packLobby is a lobby with the built-in content and a pack library.
func packLobby(t *testing.T) (*lobby.Lobby, *packs.Library) {
	t.Helper()
	lib := &packs.Library{Store: store.NewMemory()}
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Content: assets.Load, Packs: lib})
	t.Cleanup(func() {
		cancel()
		if err := l.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return l, lib
}

func addPack(t *testing.T, lib *packs.Library, owner, kind, name, content string) store.Pack {
	t.Helper()
	p, err := lib.Add(context.Background(), owner, false, kind, name, []byte(content))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// deckChoices is the table's deck option's choices in the newest update.
func deckChoices(t *testing.T, u lobby.Update) []string {
	t.Helper()
	for _, o := range u.Table.Choices {
		if o.Key == lobby.OptDeck {
			return o.Choices
		}
	}
	t.Fatalf("no deck option in %+v", u.Table.Choices)
	return nil
}

// TestDeckChoicesAndSharing: the host's deck option offers the built-in deck, the host's
// own packs and the published ones of the game's kinds, and packs shared by table-mates,
// each alone or mixed; the others see only the shared packs; only the host chooses, only
// seated players share, and a pack of another game's kind is refused with the kinds the
// game takes.
func TestDeckChoicesAndSharing(t *testing.T) {
	l, lib := packLobby(t)
	addPack(t, lib, ann.ID, "quadrant-words", "Bürowörter", packtest.GermanWords)
	addPack(t, lib, ann.ID, "topfive-topics", "Not for Quadrant", packtest.Topics(5))
	addPack(t, lib, "SHA256:admin", "quadrant-words", "日本語", packtest.JapaneseWords)
	if err := lib.Store.SetPublished(context.Background(), "SHA256:admin", "日本語", true); err != nil {
		t.Fatal(err)
	}
	bens := addPack(t, lib, ben.ID, "quadrant-criteria", "Kriterien", "leckerer\nteurer\nlauter\n")
	topics := addPack(t, lib, ben.ID, "topfive-topics", "Themen", packtest.Topics(5))

	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "the deck option", func(u lobby.Update) bool { return len(u.Table.Choices) > 0 })
	want := []string{"built-in", "Bürowörter", "mix: Bürowörter", "日本語", "mix: 日本語"}
	if got := deckChoices(t, u); !slices.Equal(got, want) {
		t.Errorf("deck choices = %q, want %q", got, want)
	}
	if u.Table.Options[lobby.OptDeck] != lobby.DeckBuiltin {
		t.Errorf("deck = %q, want built-in", u.Table.Options[lobby.OptDeck])
	}

	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Share(cat, a.Code(), bens); !errors.Is(err, lobby.ErrNotSeated) || !strings.Contains(err.Error(), "table "+a.Code()) {
		t.Errorf("sharing from outside the table: %v", err)
	}
	if err := l.Share(ben, a.Code(), topics); err == nil || !strings.Contains(err.Error(), "takes quadrant-words or quadrant-criteria") {
		t.Errorf("sharing a pack of another game: %v", err)
	}
	if err := lobby.Run(b, lobby.Share{Pack: "Kriterien"}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "the shared pack", func(u lobby.Update) bool { return slices.Contains(deckChoices(t, u), "mix: Kriterien (Ben)") })
	if last := u.Chat[len(u.Chat)-1].Text; !strings.Contains(last, `Ben shared the pack "Kriterien" (3 criteria)`) {
		t.Errorf("chat says %q", last)
	}
	ub := waitFor(t, b, "the shared pack, for Ben", func(u lobby.Update) bool { return slices.Contains(deckChoices(t, u), "Kriterien (Ben)") })
	if got := deckChoices(t, ub); slices.Contains(got, "Bürowörter") || slices.Contains(got, "日本語") {
		t.Errorf("Ben sees the host's own packs before they are shared: %q", got)
	}
	if err := lobby.Run(b, lobby.SetOptions{Options: rules.Options{lobby.OptDeck: "Kriterien (Ben)"}}); err == nil {
		t.Error("a player who is not the host chose the deck")
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptDeck: "Somebody else's"}}); err == nil || !strings.Contains(err.Error(), "no deck") {
		t.Errorf("an unknown deck: %v", err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptDeck: "mix: Kriterien (Ben)", quadrant.OptPlacement: "60s"}}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "the chosen deck", func(u lobby.Update) bool { return u.Table.Options[lobby.OptDeck] == "mix: Kriterien (Ben)" })
	if u.Table.Options[quadrant.OptPlacement] != "60s" {
		t.Errorf("options = %v", u.Table.Options)
	}
}

// startWith creates a table of game for ann with deck, fills it with bots and starts it;
// it returns ann's member and the start's error.
func startWith(t *testing.T, l *lobby.Lobby, game string, opts rules.Options, bots int) (lobby.Place, error) {
	t.Helper()
	a, err := l.Create(ann, game, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	for range bots {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	return a, lobby.Run(a, lobby.Start{})
}

// gameJSON is ann's view, once the game has started, as JSON.
func gameJSON(t *testing.T, a lobby.Place) string {
	t.Helper()
	u := waitFor(t, a, "the game", func(u lobby.Update) bool { return u.View != nil })
	b, err := json.Marshal(u.View)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// closeTable closes a's table and waits until the lobby has forgotten it, so its host
// may open another (MaxHostedTables).
func closeTable(t *testing.T, a lobby.Place) {
	t.Helper()
	if err := lobby.Run(a, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, a)
}

// TestTablesPlayPacks: a table that chose a pack deals its entries, in any language; a
// pack too small for the table is refused at the start with advice, and mixing it with
// the built-in deck makes it playable; removing a pack does not take it from a table.
func TestTablesPlayPacks(t *testing.T) {
	l, lib := packLobby(t)
	addPack(t, lib, ann.ID, "quadrant-words", "Deutsch", packtest.GermanWords)
	addPack(t, lib, ann.ID, "quadrant-words", "日本語", packtest.JapaneseWords)
	addPack(t, lib, ann.ID, "topfive-topics", "Übungen", packtest.Topics(30))
	addPack(t, lib, ann.ID, "topfive-topics", "Few", packtest.Topics(6))

	for _, c := range []struct{ deck, words string }{{"Deutsch", packtest.GermanWords}, {"日本語", packtest.JapaneseWords}} {
		a, err := startWith(t, l, quadrant.ID, rules.Options{lobby.OptDeck: c.deck}, 3)
		if err != nil {
			t.Fatalf("%s: %v", c.deck, err)
		}
		u := waitFor(t, a, "the game", func(u lobby.Update) bool { return u.View != nil })
		v := u.View.(quadrant.View)
		for _, w := range append(v.Words, v.Reference) {
			if !strings.Contains(c.words, "\n"+w+"\n") {
				t.Errorf("%s table dealt %q, which is not in the pack", c.deck, w)
			}
		}
		closeTable(t, a)
	}

	a, err := startWith(t, l, topfive.ID, rules.Options{lobby.OptDeck: "Übungen"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if v := gameJSON(t, a); strings.Count(v, "Übung Nummer") != 5 {
		t.Errorf("top five view: %s", v)
	}
	closeTable(t, a)

	a, err = startWith(t, l, topfive.ID, rules.Options{lobby.OptDeck: "Few"}, 2)
	if err == nil || !strings.Contains(err.Error(), `the deck "Few": 6 topics, and a game of 3 players needs 30: choose a bigger pack, or mix this one with the built-in deck`) {
		t.Errorf("a small pack alone: %v", err)
	}
	if err := lib.Remove(context.Background(), ann.ID, "Few"); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptDeck: "mix: Few"}}); err != nil {
		t.Fatalf("the table forgot its copy of a removed pack: %v", err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatalf("a small pack mixed with the built-in deck: %v", err)
	}
	gameJSON(t, a)
	closeTable(t, a)
}

// TestFamilyFilter: a family table (the default) leaves out the entries of a deck
// tagged [adult]; a table set to everything plays them, without the tag.
func TestFamilyFilter(t *testing.T) {
	l, lib := packLobby(t)
	var pack strings.Builder
	pack.WriteString(packtest.Topics(5))
	for i := range 30 {
		fmt.Fprintf(&pack, "Grown-up topic %d %s\n", i+1, rules.AdultTag)
	}
	addPack(t, lib, ann.ID, "topfive-topics", "Late night", pack.String())

	a, err := startWith(t, l, topfive.ID, rules.Options{lobby.OptDeck: "Late night"}, 2)
	if err == nil || !strings.Contains(err.Error(), "5 topics, and a game of 3 players needs 30") ||
		!strings.Contains(err.Error(), "(Content is family: its entries marked [adult] are left out)") {
		t.Fatalf("a family table counted the adult topics, or did not say it left them out: %v", err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptContent: "everything"}}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if v := gameJSON(t, a); strings.Contains(v, rules.AdultTag) {
		t.Errorf("the tag shows: %s", v)
	}
	closeTable(t, a)

	p, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(p, lobby.SetOptions{Options: rules.Options{lobby.OptContent: "everything"}}); err == nil {
		t.Error("a game without decks took a content option")
	}
	lobby.Run(p, lobby.Leave{})
}

// The lobby's advice gives the command players reach this server by (Config.SSHCommand), port
// and all: "ssh HOST pack add" would dial port 22.
func TestPackAdviceNamesTheServersCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Content: assets.Load, Packs: &packs.Library{Store: store.NewMemory()}, SSHCommand: "ssh -p 2299 HOST"})
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
	})
	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lobby.Do(a, lobby.ShareAll{}); err == nil || !strings.Contains(err.Error(), "upload one with ssh -p 2299 HOST pack add") {
		t.Errorf("sharing without packs: %v", err)
	}
	if err := lobby.Run(a, lobby.Share{Pack: "Nope"}); err == nil || !strings.Contains(err.Error(), "(ssh -p 2299 HOST pack list shows yours)") {
		t.Errorf("sharing an unknown pack: %v", err)
	}
	for _, o := range l.TableOptions(ann, quadrant.ID) {
		if o.Key == lobby.OptDeck && !strings.Contains(o.Help, "(ssh -p 2299 HOST pack)") {
			t.Errorf("the deck option's help: %q", o.Help)
		}
	}
}

// The host who shares their packs (p) finds each once among the deck's choices, a pack
// they added while seated too: not beside a second "NAME (Ann)" entry.
func TestTheHostSharingTheirPacks(t *testing.T) {
	l, lib := packLobby(t)
	addPack(t, lib, ann.ID, "quadrant-words", "Office life", packtest.GermanWords)
	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the deck option", func(u lobby.Update) bool { return len(u.Table.Choices) > 0 })
	addPack(t, lib, ann.ID, "quadrant-words", "Office life big", packtest.JapaneseWords) // while seated
	if n, err := lobby.Do(a, lobby.ShareAll{}); err != nil || n.Count != 2 {
		t.Fatalf("ShareAll = %d, %v", n.Count, err)
	}
	u := waitFor(t, a, "shared", func(u lobby.Update) bool { return chatSays(u, `"Office life big"`) })
	want := []string{"built-in", "Office life", "mix: Office life", "Office life big", "mix: Office life big"}
	if got := deckChoices(t, u); !slices.Equal(got, want) {
		t.Errorf("deck choices = %q, want %q", got, want)
	}
	if chatSays(u, "the host can choose it") {
		t.Errorf("the host is told the host can choose it: %+v", u.Chat)
	}
}

// A pack the host added while seated can be chosen as the deck at once: choosing a deck
// reads the host's packs afresh.
func TestAPackAddedWhileSeatedCanBeChosen(t *testing.T) {
	l, lib := packLobby(t)
	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the deck option", func(u lobby.Update) bool { return len(u.Table.Choices) > 0 })
	addPack(t, lib, ann.ID, "quadrant-words", "Fresh", packtest.GermanWords)
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptDeck: "Fresh"}}); err != nil {
		t.Fatalf("choosing a pack added while seated: %v", err)
	}
	u := waitFor(t, a, "the deck", func(u lobby.Update) bool { return u.Table.Options[lobby.OptDeck] == "Fresh" })
	if got := deckChoices(t, u); !slices.Contains(got, "mix: Fresh") {
		t.Errorf("deck choices = %q", got)
	}
}

// A pack the host adds while seated is among the deck's choices at once, without a key:
// the server tells the lobby (PacksChanged) and the table reads the host's packs again.
// A member can ask for the same itself (RereadPacks), through any door.
func TestAPackAddedWhileSeatedIsAChoiceAtOnce(t *testing.T) {
	l, lib := packLobby(t)
	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the deck option", func(u lobby.Update) bool { return len(u.Table.Choices) > 0 })
	addPack(t, lib, ann.ID, "quadrant-words", "Fresh", packtest.GermanWords)
	l.PacksChanged(ann)
	u := waitFor(t, a, "the new pack among the choices", func(u lobby.Update) bool {
		return slices.Contains(deckChoices(t, u), "Fresh")
	})
	if got := deckChoices(t, u); !slices.Contains(got, "mix: Fresh") {
		t.Errorf("deck choices = %q", got)
	}
	addPack(t, lib, ann.ID, "quadrant-words", "Fresher", packtest.GermanWords)
	if err := lobby.Run(a, lobby.RereadPacks{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the second pack among the choices", func(u lobby.Update) bool {
		return slices.Contains(deckChoices(t, u), "Fresher")
	})
	l.PacksChanged(ben) // no seat anywhere: nothing to do
}

// A table keeps the last MaxShared packs shared with it: one more puts the oldest out of
// the deck's choices, and the chat says so. (Every shared pack's content goes into the
// table's log: without a bound, one player could make an entry too large to store.)
func TestATableKeepsTheLastSharedPacks(t *testing.T) {
	l, lib := packLobby(t)
	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	for i := range lobby.MaxShared + 1 {
		addPack(t, lib, ben.ID, "quadrant-criteria", fmt.Sprintf("K%d", i), "leckerer\nteurer\nlauter\n")
		if err := lobby.Run(b, lobby.Share{Pack: fmt.Sprintf("K%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	last := fmt.Sprintf("K%d (Ben)", lobby.MaxShared)
	u := waitFor(t, a, "the last shared pack", func(u lobby.Update) bool { return slices.Contains(deckChoices(t, u), last) })
	if got := deckChoices(t, u); slices.Contains(got, "K0 (Ben)") || !slices.Contains(got, "K1 (Ben)") {
		t.Errorf("deck choices = %q: K0 should be out, K1 in", got)
	}
	if said := u.Chat[len(u.Chat)-1].Text; !strings.Contains(said, `The pack "K0 (Ben)" is no longer offered: a table keeps the last 6 shared packs.`) {
		t.Errorf("chat says %q", said)
	}
}
