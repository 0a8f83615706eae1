package assets_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlor/assets"
	"parlor/rules/fingertip"
)

func TestFingertipPictures(t *testing.T) {
	b, err := assets.Read(fingertip.ContentFile)
	if err != nil {
		t.Fatal(err)
	}
	pics, err := fingertip.ParsePictures(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pics) != 2*fingertip.Cards {
		t.Fatalf("%d pictures, want %d", len(pics), fingertip.Pictures)
	}
	alts := map[string]bool{}
	for i, p := range pics {
		key := strings.ToLower(p.Alt)
		if alts[key] {
			t.Errorf("picture %d: duplicate alt text %q", i+1, p.Alt)
		}
		alts[key] = true
		if len(p.Art) == 0 || len(p.Art) > fingertip.PictureRows {
			t.Errorf("%q: %d lines", p.Alt, len(p.Art))
		}
		// Every line must render within the cell, as a terminal measures it.
		for _, l := range p.Art {
			if w := ansi.StringWidth(l); w > fingertip.PictureCols {
				t.Errorf("%q: line %q is %d cells wide", p.Alt, l, w)
			}
			if w, _ := fingertip.ArtWidth(l); w != ansi.StringWidth(l) {
				t.Errorf("%q: line %q: widths disagree", p.Alt, l)
			}
		}
		for c := range p.Inks {
			if !strings.Contains(strings.Join(p.Art, ""), c) {
				t.Errorf("%q: ink for %q, which the picture does not use", p.Alt, c)
			}
		}
	}
}

// TestFingertipGameOnRealContent plays a bots-only game with the embedded pictures.
func TestFingertipGameOnRealContent(t *testing.T) {
	content, err := assets.Load(fingertip.Spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	playBots(t, fingertip.Spec, 3, nil, content)
}
