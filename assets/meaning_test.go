package assets_test

import (
	"strings"
	"testing"

	"parlor/assets"
	"parlor/rules/fingertip"
	"parlor/rules/meaning"
	"parlor/rules/quadrant"
	"parlor/rules/talltale"
	"parlor/rules/text"
	"parlor/rules/topfive"
)

// annotations parses the embedded annotation file name.
func annotations(t *testing.T, name string) meaning.Annotations {
	t.Helper()
	b, err := assets.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	a, err := meaning.Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestQuadrantMeaning: every word has at least three attribute values (and no associated
// words, which Quadrant does not use), every criterion at least one weight.
func TestQuadrantMeaning(t *testing.T) {
	content, err := assets.Load([]string{quadrant.WordsFile, quadrant.CriteriaFile})
	if err != nil {
		t.Fatal(err)
	}
	decks, err := quadrant.ParseDecks(content)
	if err != nil {
		t.Fatal(err)
	}
	words, crit := annotations(t, quadrant.WordsMeaningFile), annotations(t, quadrant.CriteriaMeaningFile)
	if err := words.Covers(decks.Words); err != nil {
		t.Error(err)
	}
	if err := crit.Covers(decks.Criteria); err != nil {
		t.Error(err)
	}
	for _, e := range words {
		if e.Named() < 3 || len(e.Words) > 0 || e.Weights {
			t.Errorf("word %q: %d attribute values (weights: %v), words %v", e.Name, e.Named(), e.Weights, e.Words)
		}
	}
	for _, c := range crit {
		if c.Named() == 0 || len(c.Words) > 0 || !c.Weights {
			t.Errorf("criterion %q: signed weights %v (%v), words %v", c.Name, c.Attrs, c.Weights, c.Words)
		}
	}
}

// TestTopFiveMeaning: every topic has at least three attribute values.
func TestTopFiveMeaning(t *testing.T) {
	b, err := assets.Read(topfive.TopicsFile)
	if err != nil {
		t.Fatal(err)
	}
	topics, err := topfive.ParseTopics(b)
	if err != nil {
		t.Fatal(err)
	}
	a := annotations(t, topfive.MeaningFile)
	if err := a.Covers(topics); err != nil {
		t.Error(err)
	}
	for _, e := range a {
		if e.Named() < 3 || len(e.Words) > 0 || e.Weights {
			t.Errorf("topic %q: %d attributes, words %v", e.Name, e.Named(), e.Words)
		}
	}
}

// checkAssociations: 5-10 associated words, none a form of one of names (a word of a
// picture's alt text, or an illustration's single-word forbidden form), no attributes.
func checkAssociations(t *testing.T, what string, e meaning.Entry, names []string) {
	t.Helper()
	if n := len(e.Words); n < 5 || n > 10 || e.Named() > 0 {
		t.Errorf("%s %q: %d words, attributes %v", what, e.Name, n, e.Attrs)
	}
	for _, w := range e.Words {
		for _, n := range names {
			if len(n) > 2 && text.SameWord(w, n) {
				t.Errorf("%s %q: associated word %q is a form of %q", what, e.Name, w, n)
			}
		}
	}
}

// TestFingertipMeaning: every picture's associations avoid the words of its alt text.
func TestFingertipMeaning(t *testing.T) {
	b, err := assets.Read(fingertip.ContentFile)
	if err != nil {
		t.Fatal(err)
	}
	pics, err := fingertip.ParsePictures(b)
	if err != nil {
		t.Fatal(err)
	}
	a := annotations(t, fingertip.MeaningFile)
	var alts []string
	for _, p := range pics {
		alts = append(alts, p.Alt)
	}
	if err := a.Covers(alts); err != nil {
		t.Error(err)
	}
	for _, p := range pics {
		if e, ok := a.Lookup(p.Alt); ok {
			checkAssociations(t, "picture", e, text.Words(p.Alt))
		}
	}
}

// TestTallTaleMeaning: every illustration's associations avoid its name and forbidden
// forms, so a narrator bot telling them passes the forbidden-word check.
func TestTallTaleMeaning(t *testing.T) {
	b, err := assets.Read(talltale.ContentFile)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := talltale.ParseIllustrations(b)
	if err != nil {
		t.Fatal(err)
	}
	a := annotations(t, talltale.MeaningFile)
	var names []string
	for _, ill := range deck {
		names = append(names, ill.Name)
	}
	if err := a.Covers(names); err != nil {
		t.Error(err)
	}
	for _, ill := range deck {
		e, ok := a.Lookup(ill.Name)
		if !ok {
			continue
		}
		var single []string
		for _, f := range ill.Forbidden {
			if len(text.Words(f)) == 1 {
				single = append(single, f)
			}
		}
		checkAssociations(t, "illustration", e, single)
		if f, hit := talltale.FindForbidden(strings.Join(e.Words, " "), ill.Forbidden); hit {
			t.Errorf("illustration %q: associations hold the forbidden form %q", ill.Name, f)
		}
	}
}
