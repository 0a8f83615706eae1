package meaning

import (
	"errors"
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	a, err := Parse("t", []byte("# comment\n\nLuxury Watch | price4 fancy4 size0\nkite | wind summer string\nExpensive | +price3 -useful1\n"))
	if err != nil {
		t.Fatal(err)
	}
	w, ok := a.Lookup("luxury watch")
	if !ok || w.Attrs.Get("price") != 4 || w.Weights || w.Named() != 3 {
		t.Fatalf("luxury watch: %+v", w)
	}
	if k, _ := a.Lookup("Kite"); len(k.Words) != 3 || k.Words[0] != "wind" {
		t.Fatalf("kite: %+v", k)
	}
	c, _ := a.Lookup("expensive")
	if !c.Weights || c.Attrs.Get("useful") != -1 {
		t.Fatalf("criterion: %+v", c)
	}
	// (3*4 - 1*0) / 4 = 3
	if f := Fit(w, c); math.Abs(f-3) > 1e-9 {
		t.Fatalf("fit %v, want 3", f)
	}
	if err := a.Covers([]string{"Luxury watch", "kite", "expensive"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Covers([]string{"kite", "expensive"}); err == nil {
		t.Fatal("an entry outside the deck was not reported")
	}
	if err := a.Covers([]string{"kite", "expensive", "luxury watch", "sled"}); err == nil {
		t.Fatal("a deck entry without annotation was not reported")
	}
}

func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{
		"no bar here",
		" | price1",
		"a | colour2",      // unknown attribute
		"a | price5",       // out of range
		"a | +price4",      // weight out of range
		"a | +price0",      // zero weight
		"a | price1 +fun1", // values and weights mixed
		"a | price1 price2",
		"a | wind wind",
		"a | win.d",
		"a | price1\nA | fun1",
		"\xff | x",
	} {
		if _, err := Parse("t", []byte(bad)); !errors.Is(err, ErrAnnotation) {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

func TestTemperamentIsStablePerBotAndDiffersBetweenBots(t *testing.T) {
	a, b := NewTemperament("normal", 1), NewTemperament("normal", 2)
	if a.Opinion("x") != a.Opinion("x") {
		t.Fatal("one bot changed its mind")
	}
	if a.Opinion("x") == b.Opinion("x") {
		t.Fatal("two bots share an opinion")
	}
	easy, sharp := 0.0, 0.0
	for s := uint64(0); s < 50; s++ {
		easy += NewTemperament("easy", s).Noise
		sharp += NewTemperament("sharp", s).Noise
	}
	if easy <= sharp {
		t.Fatalf("easy bots (%v) are not noisier than sharp ones (%v)", easy, sharp)
	}
	if NewTemperament("???", 1) != NewTemperament("normal", 1) {
		t.Fatal("an unknown skill does not play as normal")
	}
}

func TestValuesHoldEveryAttribute(t *testing.T) {
	if len(Attributes) != NumAttributes || NumAttributes > 64 {
		t.Fatalf("%d attributes, Values holds %d", len(Attributes), NumAttributes)
	}
	var v Values
	if v.Get("nonsense") != 0 {
		t.Fatal("empty values")
	}
}

func TestFindAgreesWithParse(t *testing.T) {
	file := []byte("# x | price1\nLuxury Watch | price4 fancy4 size0\nkite | wind summer string\nbroken | colour9\nlast | fun2")
	for _, name := range []string{"luxury watch", "kite", "last"} {
		e, ok := Find(file, name)
		if !ok {
			t.Fatalf("%q not found", name)
		}
		if name == "luxury watch" && (e.Attrs.Get("fancy") != 4 || e.Named() != 3) {
			t.Fatalf("%+v", e)
		}
		if name == "kite" && len(e.Words) != 3 {
			t.Fatalf("%+v", e)
		}
	}
	for _, name := range []string{"broken", "x", "missing", ""} {
		if _, ok := Find(file, name); ok {
			t.Errorf("found %q", name)
		}
	}
}
