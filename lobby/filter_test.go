package lobby_test

import (
	"errors"
	"strings"
	"testing"

	"parlor/lobby"
	"parlor/rules"
)

func TestTheFamilyFilterCatchesLookAlikes(t *testing.T) {
	f := lobby.BuiltinFilter()
	for _, bad := range []string{"shit", "oh Shït!", "SH1T happens", "$hit", "ѕhіt", "ｆｕｃｋ this", "what the fυck", "Motherfucker."} {
		if _, ok := f.Find(bad); !ok {
			t.Errorf("%q passes", bad)
		}
	}
	for _, good := range []string{"Scunthorpe", "an assistant", "shiitake", "I have 1 cat", "hello there", "cocktail", "Dickens", "class"} {
		if w, ok := f.Find(good); ok {
			t.Errorf("%q is caught (%q)", good, w)
		}
	}
	own, err := lobby.ParseFilterWords(strings.NewReader("# mine\nscheiße\n\nmerde\nばか\nbad egg\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"SCHEISSE", "Mérde alors", "おまえはばかだ", "a Bad  Egg!"} {
		if _, ok := own.Find(bad); !ok {
			t.Errorf("own list: %q passes", bad)
		}
	}
	for _, good := range []string{"shit", "bad", "egg bad"} {
		if _, ok := own.Find(good); ok {
			t.Errorf("own list: %q is caught", good)
		}
	}
	if _, err := lobby.ParseFilterWords(strings.NewReader("# nothing\n\n")); err == nil {
		t.Error("an empty list is accepted")
	}
}

func TestTheFamilyFilterHoldsAtFamilyTablesOnly(t *testing.T) {
	l := newLobby(t)
	a, err := l.Create(ann, "topfive", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	rude := lobby.Player{ID: "SHA256:rude", Name: "Sh1t Head"}
	if _, err := l.Join(rude, a.Code()); !errors.Is(err, lobby.ErrFiltered) {
		t.Fatalf("a listed name sits at a family table: %v", err)
	}
	if _, err := l.Create(rude, "topfive", nil, false); !errors.Is(err, lobby.ErrFiltered) {
		t.Fatalf("a listed name hosts a family table: %v", err)
	}
	if n := len(l.Tables(lobby.Player{Admin: true})); n != 1 {
		t.Fatalf("%d tables open", n)
	}
	if _, err := l.Create(rude, "topfive", rules.Options{lobby.OptContent: lobby.ContentAll}, false); err != nil {
		t.Fatalf("a listed name hosts an everything table: %v", err)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "what the Fück"}); !errors.Is(err, lobby.ErrFiltered) || !strings.Contains(err.Error(), "Fück") {
		t.Fatalf("family chat: %v", err)
	}
	clue := lobby.ActOf(map[string]any{"type": "clue", "text": "a $hit clue"})
	if err := lobby.Run(a, clue); !errors.Is(err, lobby.ErrFiltered) {
		t.Fatalf("family game text: %v", err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptContent: lobby.ContentAll}}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "what the Fück"}); err != nil {
		t.Fatalf("chat at an everything table: %v", err)
	}
	if err := lobby.Run(a, clue); !errors.Is(err, lobby.ErrNoGame) {
		t.Fatalf("game text at an everything table: %v", err)
	}
	if _, err := l.Join(rude, a.Code()); err != nil {
		t.Fatalf("a listed name at an everything table: %v", err)
	}
}
