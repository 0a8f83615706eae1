package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Shuffle puts a deck's own entries (a mixed pack's) first, each part shuffled; with all
// entries its own it is the plain shuffle a game always made, so unmixed games deal as
// before.
func TestShuffleKeepsTheOwnEntriesFirst(t *testing.T) {
	deck := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	mixed := slices.Clone(deck)
	Shuffle(rand.New(rand.NewPCG(1, 2)), mixed, 3)
	if got := slices.Sorted(slices.Values(mixed[:3])); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("the own entries are not first: %v", mixed)
	}
	if slices.Equal(mixed[3:], deck[3:]) {
		t.Errorf("the rest is not shuffled: %v", mixed)
	}
	whole, plain := slices.Clone(deck), slices.Clone(deck)
	Shuffle(rand.New(rand.NewPCG(1, 2)), whole, len(whole))
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(plain), func(i, j int) { plain[i], plain[j] = plain[j], plain[i] })
	if !slices.Equal(whole, plain) {
		t.Errorf("an unmixed deck deals otherwise than before: %v, %v", whole, plain)
	}
}
