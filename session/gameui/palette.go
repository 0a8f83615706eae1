package gameui

import (
	"fmt"
	"image/color"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// Tone is one colour of the palette with its explicit forms for 256- and 16-colour
// terminals. Downsampling by nearest colour turns most warm tones into the same bright
// red in 16 colours (the accent would look like an error, five seats alike), so each
// tone names its own index there.
type Tone struct {
	True      string // "#RRGGBB" for true-colour terminals
	C256, C16 uint8  // xterm 256-colour and basic 16-colour indices
}

// Color is the true-colour form; Recolor maps it for smaller palettes.
func (t Tone) Color() color.Color { return lipgloss.Color(t.True) }

// The palette's tones. Accent and Error differ in every profile; Error is also always
// shown with a ✗ mark, OK with a •.
var (
	Accent = Tone{"#E8B04B", 179, 11} // bright yellow
	Dim    = Tone{"#8A8A8A", 245, 8}  // grey
	Error  = Tone{"#F2668B", 204, 9}  // bright red
	OK     = Tone{"#7BD88F", 114, 10} // bright green
	Spect  = Tone{"#AAAAAA", 248, 7}  // spectators: no seat colour
	Gold   = Tone{"#FFD75F", 221, 11} // a highlight, e.g. the target card
	// The colours of things in a game (Tall Tale's boards); always named in words too.
	Red    = Tone{"#F0605A", 203, 1}
	Blue   = Tone{"#5FB3FA", 75, 12}
	Green  = Tone{"#7BD890", 114, 2}
	Yellow = Tone{"#E8C547", 221, 3}
)

// seatTones are distinct in every profile: 14 seats, 14 usable basic colours (black and
// the default foreground left out). Every screen also names or numbers a seat, so colour
// is never the only cue.
var seatTones = []Tone{
	{"#E8B04C", 179, 3},  // amber
	{"#5FB3F9", 75, 12},  // sky
	{"#F2668C", 204, 13}, // rose
	{"#7BD88E", 114, 10}, // green
	{"#B98CF5", 141, 5},  // violet
	{"#F59A5F", 209, 9},  // orange
	{"#4FD6C9", 80, 14},  // teal
	{"#D9D96A", 185, 11}, // olive
	{"#9AA5F0", 111, 4},  // periwinkle
	{"#E07FD0", 176, 1},  // orchid
	{"#A8D26B", 149, 2},  // lime
	{"#F07A6A", 203, 6},  // coral
	{"#6AB8D9", 74, 15},  // steel
	{"#D9A86A", 180, 7},  // tan
}

// SeatTone is the tone of a seat; seats beyond the palette wrap around.
func SeatTone(seat int) Tone {
	if seat < 0 {
		return Spect
	}
	return seatTones[seat%len(seatTones)]
}

// SeatColor is the colour of a seat.
func SeatColor(seat int) color.Color { return SeatTone(seat).Color() }

// SeatStyle is a bold style in a seat's colour.
func SeatStyle(seat int) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(SeatColor(seat)).Bold(true)
}

// SeatInk is SeatStyle as an ink, made once per seat colour.
func SeatInk(seat int) Ink {
	inks := seatInks()
	if seat < 0 {
		return inks[len(seatTones)]
	}
	return inks[seat%len(seatTones)]
}

// seatInks are the seats' inks in seatTones' order, and the spectators' last.
var seatInks = sync.OnceValue(func() []Ink {
	inks := make([]Ink, len(seatTones)+1)
	for i := range seatTones {
		inks[i] = InkOf(SeatStyle(i))
	}
	inks[len(seatTones)] = InkOf(SeatStyle(-1))
	return inks
})

// Tones lists every tone of the palette, for Recolor and the tests. Their true-colour
// forms differ (a test checks), so each maps to exactly its own smaller forms.
func Tones() []Tone {
	return append([]Tone{Accent, Dim, Error, OK, Spect, Gold, Red, Blue, Green, Yellow}, seatTones...)
}

// Recolor returns a replacer that rewrites the palette's true-colour SGR parameters in a
// rendered frame into the profile's explicit forms, or nil when the profile needs no
// change (true colour keeps them; ASCII and no-TTY drop colours anyway). A frame is
// drawn once with true colours and rewritten here, so every screen, the game screens
// included, gets the explicit colours without knowing the profile. One replacer per
// profile serves every session (a Replacer is safe for concurrent use; building one per
// session held 22 KB each).
func Recolor(p colorprofile.Profile) *strings.Replacer {
	switch p {
	case colorprofile.ANSI:
		return recolor16()
	case colorprofile.ANSI256:
		return recolor256()
	}
	return nil
}

var (
	recolor16  = sync.OnceValue(func() *strings.Replacer { return newRecolor(colorprofile.ANSI) })
	recolor256 = sync.OnceValue(func() *strings.Replacer { return newRecolor(colorprofile.ANSI256) })
)

func newRecolor(p colorprofile.Profile) *strings.Replacer {
	var pairs []string
	if p == colorprofile.ANSI {
		// Many 16-colour terminals (xterm by default) draw bold in the bright form of
		// colours 0–7, which would make seven pairs of the fourteen bold seat inks
		// alike: a seat ink in one of those colours drops its bold. (The replacer
		// tries pairs in order at each place, so these come before the plain ones.)
		for _, t := range seatTones {
			if t.C16 < 8 {
				pairs = append(pairs, "\x1b[1;38;"+rgbOf(t)+"m", "\x1b["+basic(t.C16, 30)+"m")
			}
		}
	}
	for _, t := range Tones() {
		rgb := rgbOf(t)
		fg, bg := fmt.Sprintf("5;%d", t.C256), fmt.Sprintf("5;%d", t.C256)
		fgCode, bgCode := "38;"+fg, "48;"+bg
		if p == colorprofile.ANSI {
			fgCode, bgCode = basic(t.C16, 30), basic(t.C16, 40)
		}
		for _, end := range []string{"m", ";"} {
			pairs = append(pairs, "38;"+rgb+end, fgCode+end, "48;"+rgb+end, bgCode+end)
		}
	}
	return strings.NewReplacer(pairs...)
}

// rgbOf is a tone's true colour as SGR parameters: "2;232;176;76".
func rgbOf(t Tone) string {
	r, g, b, _ := lipgloss.Color(t.True).RGBA()
	return fmt.Sprintf("2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// basic is the SGR parameter of a 16-colour index for a foreground (base 30) or
// background (base 40): 0–7 are base+i, the bright 8–15 are base+60+i-8.
func basic(i uint8, base int) string {
	if i < 8 {
		return fmt.Sprint(base + int(i))
	}
	return fmt.Sprint(base + 60 + int(i) - 8)
}
