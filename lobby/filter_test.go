package lobby_test

import (
	"strings"
	"testing"

	"parlor/lobby"
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
