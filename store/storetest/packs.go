package storetest

import (
	"context"
	"errors"
	"testing"

	"parlor/store"
)

// packTests cover store.Packs.
var packTests = []struct {
	name string
	fn   func(t *testing.T, s store.Store)
}{
	{"PackSaveGetList", testPackSaveGetList},
	{"PackReplace", testPackReplace},
	{"PackPublishAndDelete", testPackPublishAndDelete},
	{"PackInvalid", testPackInvalid},
	{"PackClosed", testPackClosed},
}

func pack(owner, name, kind, content string) store.Pack {
	return store.Pack{Owner: owner, Name: name, Kind: kind, Content: []byte(content), Entries: 2, Created: base}
}

func mustSavePack(t *testing.T, s store.Store, p store.Pack) {
	t.Helper()
	if err := s.SavePack(context.Background(), p); err != nil {
		t.Fatalf("SavePack %s: %v", p.Name, err)
	}
}

func packNames(ps []store.Pack) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func testPackSaveGetList(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustSavePack(t, s, pack(fp(1), "Office life", "quadrant-words", "Stapler\nCoffee mug\n"))
	mustSavePack(t, s, pack(fp(1), "Bürowörter", "quadrant-words", "Hefter\nKaffeetasse\n"))
	mustSavePack(t, s, pack(fp(2), "Office life", "topfive-topics", "Mondays\n"))
	got, err := s.Pack(ctx, fp(1), "Office life")
	if err != nil {
		t.Fatal(err)
	}
	want := pack(fp(1), "Office life", "quadrant-words", "Stapler\nCoffee mug\n")
	want.Created = ms(base)
	if got.Owner != want.Owner || got.Name != want.Name || got.Kind != want.Kind || string(got.Content) != string(want.Content) ||
		got.Entries != 2 || got.Published || !got.Created.Equal(want.Created) {
		t.Errorf("Pack = %+v, want %+v", got, want)
	}
	got.Content[0] = 'X'
	if again, _ := s.Pack(ctx, fp(1), "Office life"); string(again.Content) != "Stapler\nCoffee mug\n" {
		t.Errorf("changing a returned pack changed the store: %q", again.Content)
	}
	if _, err := s.Pack(ctx, fp(3), "Office life"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another owner's pack: err = %v, want ErrNotFound", err)
	}
	list, err := s.PacksOf(ctx, fp(1))
	if err != nil {
		t.Fatal(err)
	}
	if names := packNames(list); len(names) != 2 || names[0] != "Bürowörter" || names[1] != "Office life" {
		t.Errorf("PacksOf = %q, want both of the owner's, by name", names)
	}
	if list, _ := s.PacksOf(ctx, fp(3)); len(list) != 0 {
		t.Errorf("PacksOf a stranger = %d packs", len(list))
	}
}

func testPackReplace(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustSavePack(t, s, pack(fp(1), "Mine", "topfive-topics", "a\nb\n"))
	if err := s.SetPublished(ctx, fp(1), "Mine", true); err != nil {
		t.Fatal(err)
	}
	mustSavePack(t, s, pack(fp(1), "Mine", "quadrant-words", "c\nd\n"))
	got, err := s.Pack(ctx, fp(1), "Mine")
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != "quadrant-words" || string(got.Content) != "c\nd\n" || got.Published {
		t.Errorf("replaced pack = %+v, want the new content, not published", got)
	}
	if list, _ := s.PacksOf(ctx, fp(1)); len(list) != 1 {
		t.Errorf("%d packs after a replace, want 1", len(list))
	}
}

func testPackPublishAndDelete(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustSavePack(t, s, pack(fp(1), "Zoo", "topfive-topics", "a\n"))
	mustSavePack(t, s, pack(fp(2), "Attic", "topfive-topics", "b\n"))
	mustSavePack(t, s, pack(fp(3), "Hidden", "topfive-topics", "c\n"))
	for _, o := range []struct{ owner, name string }{{fp(1), "Zoo"}, {fp(2), "Attic"}} {
		if err := s.SetPublished(ctx, o.owner, o.name, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetPublished(ctx, fp(1), "Attic", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("publishing another owner's pack: err = %v, want ErrNotFound", err)
	}
	pub, err := s.PublishedPacks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if names := packNames(pub); len(names) != 2 || names[0] != "Attic" || names[1] != "Zoo" {
		t.Errorf("PublishedPacks = %q, want Attic, Zoo", names)
	}
	if err := s.SetPublished(ctx, fp(1), "Zoo", false); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePack(ctx, fp(2), "Attic"); err != nil {
		t.Fatal(err)
	}
	if pub, _ := s.PublishedPacks(ctx); len(pub) != 0 {
		t.Errorf("PublishedPacks after unpublish and delete = %q", packNames(pub))
	}
	if err := s.DeletePack(ctx, fp(2), "Attic"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting twice: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Pack(ctx, fp(2), "Attic"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted pack: err = %v", err)
	}
}

func testPackInvalid(t *testing.T, s store.Store) {
	for _, p := range []store.Pack{pack("", "n", "k", "x"), pack(fp(1), "", "k", "x"), pack(fp(1), "n", "", "x")} {
		if err := s.SavePack(context.Background(), p); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("SavePack(%+v): err = %v, want ErrInvalid", p, err)
		}
	}
}

func testPackClosed(t *testing.T, s store.Store) {
	mustSavePack(t, s, pack(fp(1), "Mine", "topfive-topics", "a\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Pack(ctx, fp(1), "Mine"); !errors.Is(err, context.Canceled) {
		t.Errorf("Pack with a cancelled context: err = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	calls := map[string]error{}
	calls["SavePack"] = s.SavePack(bg, pack(fp(1), "New", "k", "x"))
	_, calls["Pack"] = s.Pack(bg, fp(1), "Mine")
	_, calls["PacksOf"] = s.PacksOf(bg, fp(1))
	_, calls["PublishedPacks"] = s.PublishedPacks(bg)
	calls["SetPublished"] = s.SetPublished(bg, fp(1), "Mine", true)
	calls["DeletePack"] = s.DeletePack(bg, fp(1), "Mine")
	for name, err := range calls {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: err = %v, want ErrClosed", name, err)
		}
	}
}
