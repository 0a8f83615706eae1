package gameui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

var sgrColour = regexp.MustCompile(`\x1b\[(?:1;)?([0-9;]+)m`)

// colourOf renders text in st and recolours it for p, returning the colour parameters.
func colourOf(t *testing.T, p colorprofile.Profile, tone Tone) string {
	t.Helper()
	out := SeatStyle(0).Foreground(tone.Color()).Render("x")
	if r := Recolor(p); r != nil {
		out = r.Replace(out)
	}
	m := sgrColour.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no colour in %q", out)
	}
	if strings.Contains(m[1], ";2;") && p != colorprofile.TrueColor {
		t.Fatalf("%v: true colour left in %q", p, out)
	}
	return m[1]
}

func TestPaletteDistinctInEveryProfile(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.ANSI, colorprofile.ANSI256, colorprofile.TrueColor} {
		if a, e := colourOf(t, p, Accent), colourOf(t, p, Error); a == e {
			t.Errorf("%v: the accent looks like an error (%s)", p, a)
		}
		if ok, e := colourOf(t, p, OK), colourOf(t, p, Error); ok == e {
			t.Errorf("%v: OK looks like an error (%s)", p, ok)
		}
		seen := map[string]int{}
		for seat := range seatTones {
			c := colourOf(t, p, SeatTone(seat))
			if other, dup := seen[c]; dup {
				t.Errorf("%v: seats %d and %d share colour %s", p, other+1, seat+1, c)
			}
			seen[c] = seat
		}
	}
}

func TestRecolorIn16Colours(t *testing.T) {
	out := Recolor(colorprofile.ANSI).Replace(SeatStyle(0).Render("Ann"))
	if !strings.Contains(out, "33m") { // amber → yellow (3), not the downsampled bright red
		t.Fatalf("seat 1 in 16 colours: %q", out)
	}
	if Recolor(colorprofile.TrueColor) != nil {
		t.Fatal("true colour needs no recolouring")
	}
}

func TestTonesHaveTheirOwnTrueColour(t *testing.T) {
	seen := map[string]bool{}
	for _, tone := range Tones() {
		if seen[strings.ToLower(tone.True)] {
			t.Errorf("%s is in the palette twice: Recolor could map it only one way", tone.True)
		}
		seen[strings.ToLower(tone.True)] = true
	}
}

// Every session of one profile shares one replacer instead of building its own.
func TestRecolorIsSharedPerProfile(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.ANSI, colorprofile.ANSI256} {
		first := Recolor(p)
		if again := Recolor(p); again != first {
			t.Fatalf("Recolor(%v) built a new replacer instead of the one it had", p)
		}
	}
	if Recolor(colorprofile.ANSI) == Recolor(colorprofile.ANSI256) {
		t.Fatal("16 and 256 colours share a replacer")
	}
}

// Many 16-colour terminals (xterm by default) draw bold text in the bright form of colours
// 0–7, which made seven pairs of the fourteen bold seat colours alike (amber and olive
// both bright yellow). In 16 colours a seat's ink drops bold where its colour is one of
// 0–7, so the fourteen stay apart on every terminal.
func TestSeatInksStayApartWhereBoldIsBright(t *testing.T) {
	r := Recolor(colorprofile.ANSI)
	sgr := regexp.MustCompile(`\x1b\[([0-9;]*)m`)
	seen := map[int]int{}
	for seat := range seatTones {
		out := r.Replace(SeatInk(seat).Paint("Ann"))
		m := sgr.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("seat %d: no colour in %q", seat+1, out)
		}
		bold, colour := false, -1
		for _, p := range strings.Split(m[1], ";") {
			switch {
			case p == "1":
				bold = true
			case len(p) == 2 && p[0] == '3':
				colour = int(p[1] - '0')
			case len(p) == 2 && p[0] == '9':
				colour = 8 + int(p[1]-'0')
			}
		}
		if bold && colour < 8 {
			colour += 8 // as such a terminal draws it
		}
		if other, dup := seen[colour]; dup {
			t.Errorf("seats %d and %d both show as colour %d where bold is bright: %q", other+1, seat+1, colour, out)
		}
		seen[colour] = seat
	}
}
