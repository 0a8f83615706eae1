package quadrant

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"parlor/rules"
)

// A small pack mixed with the built-in deck is played first: the built-in cards only
// fill what a game needs beyond it. A playtester's ten words mixed with the built-in
// four hundred never showed in three games.
func TestAMixedPackIsPlayedFirst(t *testing.T) {
	builtin := testContent()
	var pack strings.Builder
	for i := range 10 {
		fmt.Fprintf(&pack, "pack word %d\n", i)
	}
	content := map[string][]byte{
		WordsFile: []byte(pack.String()), rules.Builtin(WordsFile): builtin[WordsFile],
		CriteriaFile: []byte("pack criterion A\npack criterion B\n"), rules.Builtin(CriteriaFile): builtin[CriteriaFile],
	}
	o, err := Spec.CheckOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(rules.Setup{Names: names(5), Seed: 7, Options: o, Content: content, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range append(slices.Clone(g.words), g.ref) {
		if !strings.HasPrefix(w, "pack word") {
			t.Errorf("round 1 plays %q, not a word of the pack: %v, reference %q", w, g.words, g.ref)
		}
	}
	for _, c := range []string{g.horiz, g.vert} {
		if !strings.HasPrefix(c, "pack criterion") {
			t.Errorf("round 1's criterion %q is not the pack's", c)
		}
	}
}
