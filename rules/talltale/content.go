package talltale

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ContentFile is the asset holding the 100 illustrations.
const ContentFile = "talltale/illustrations.txt"

// MeaningFile is the asset annotating every illustration with the words it brings to
// mind, for the bots.
const MeaningFile = "talltale/illustrations.meaning"

// Colours are the four board colours, in board order.
var Colours = []string{"red", "blue", "green", "yellow"}

// PerBoard is the number of illustrations on each board (a 5×5 grid).
const PerBoard = 25

// DeckSize is the number of illustrations in the game.
const DeckSize = PerBoard * 4

// Limits on content, so that every illustration fits a board cell at 80 columns.
const (
	MaxNameLen  = 12 // characters in a name
	MaxGlyphLen = 9  // ASCII characters in a glyph
)

// Illustration is one picture of a board: a simple nameable thing.
type Illustration struct {
	ID        int      `json:"id"`        // 0..99: colour*25 + position on the board
	Colour    string   `json:"colour"`    // red, blue, green or yellow
	Name      string   `json:"name"`      // e.g. "airplane"
	Glyph     string   `json:"glyph"`     // a small picture drawn with ASCII characters
	Forbidden []string `json:"forbidden"` // forms the narrator may not use, the name included
}

// ErrContent wraps every problem found in the illustrations file.
var ErrContent = errors.New("talltale: bad content")

// ParseIllustrations reads the illustrations file and validates all of it: four colour
// sections of exactly 25 illustrations, each with a short unique name, an ASCII glyph
// and its forbidden forms. Lines are "name | glyph | form, form"; "[colour]" starts a
// section; "#" starts a comment.
func ParseIllustrations(data []byte) ([]Illustration, error) {
	var out []Illustration
	colour := -1
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") {
			name := text[1 : len(text)-1]
			want := colour + 1
			if want >= len(Colours) || name != Colours[want] {
				return nil, fmt.Errorf("%w: line %d: section %q out of order (want the colours %v in order)", ErrContent, line, name, Colours)
			}
			if want > 0 && len(out) != want*PerBoard {
				return nil, fmt.Errorf("%w: %s has %d illustrations, want %d", ErrContent, Colours[colour], len(out)-colour*PerBoard, PerBoard)
			}
			colour = want
			continue
		}
		if colour < 0 {
			return nil, fmt.Errorf("%w: line %d: illustration before the first [colour]", ErrContent, line)
		}
		ill, err := parseLine(text)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrContent, line, err)
		}
		key := fold(ill.Name)
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("%w: line %d: %q is already illustration %d", ErrContent, line, ill.Name, prev)
		}
		ill.ID = len(out)
		ill.Colour = Colours[colour]
		seen[key] = ill.ID
		out = append(out, ill)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrContent, err)
	}
	if len(out) != DeckSize || colour != len(Colours)-1 {
		return nil, fmt.Errorf("%w: %d illustrations, want %d (%d per colour)", ErrContent, len(out), DeckSize, PerBoard)
	}
	return out, nil
}

func parseLine(text string) (Illustration, error) {
	parts := strings.Split(text, " | ")
	if len(parts) != 3 {
		return Illustration{}, fmt.Errorf("want \"name | glyph | forms\", got %q", text)
	}
	name := strings.TrimSpace(parts[0])
	glyph := strings.TrimSpace(parts[1])
	if name == "" || utf8.RuneCountInString(name) > MaxNameLen || len(words(name)) == 0 {
		return Illustration{}, fmt.Errorf("name %q must be 1 to %d characters", name, MaxNameLen)
	}
	if glyph == "" || len(glyph) > MaxGlyphLen {
		return Illustration{}, fmt.Errorf("%s: glyph %q must be 1 to %d characters", name, glyph, MaxGlyphLen)
	}
	for _, r := range glyph {
		if r < ' ' || r > '~' {
			return Illustration{}, fmt.Errorf("%s: glyph %q must be printable ASCII", name, glyph)
		}
	}
	forms := []string{name}
	have := map[string]bool{fold(name): true}
	for _, f := range strings.Split(parts[2], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return Illustration{}, fmt.Errorf("%s: empty forbidden form", name)
		}
		if len(words(f)) == 0 {
			return Illustration{}, fmt.Errorf("%s: forbidden form %q has no word", name, f)
		}
		if have[fold(f)] {
			return Illustration{}, fmt.Errorf("%s: forbidden form %q listed twice", name, f)
		}
		have[fold(f)] = true
		forms = append(forms, f)
	}
	if len(forms) < 2 {
		return Illustration{}, fmt.Errorf("%s: needs at least one forbidden form besides its name", name)
	}
	return Illustration{Name: name, Glyph: glyph, Forbidden: forms}, nil
}
