package talltale

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"parlor/rules"
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
	MaxNameLen  = 12 // columns a name takes (rules.Width)
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
var ErrContent = rules.Sentinel("talltale.content", "talltale: bad content")

// ParseIllustrations reads an illustrations file and validates every line: "[colour]"
// starts a board's section (each colour once, at most 25 illustrations in it), "#" starts
// a comment, and every other line is "name | glyph | form, form" with a short unique
// name, an ASCII glyph and its forbidden forms, none of them a colour word. Every problem
// is listed with its line in a *rules.ContentError. The illustrations come back in file
// order, numbered so, with their colour; Boards lays them out for a game (for a file in
// board order, like the built-in one, the numbers are the same).
func ParseIllustrations(data []byte) ([]Illustration, error) {
	var ps rules.Problems
	var out []Illustration
	colour := ""
	count := map[string]int{}
	seen := map[string]int{}
	for i, text := range strings.Split(string(data), "\n") {
		line := i + 1
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if !utf8.ValidString(text) {
			ps.Add(line, "not UTF-8")
			continue
		}
		if strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") {
			name := text[1 : len(text)-1]
			switch _, again := count[name]; {
			case !slices.Contains(Colours, name):
				ps.Add(line, "section %q is not a board colour (the colours are %s)", name, strings.Join(Colours, ", "))
			case again:
				ps.Add(line, "section [%s] appears twice", name)
			default:
				count[name] = 0
			}
			colour = name
			continue
		}
		if colour == "" {
			ps.Add(line, "an illustration before the first [colour] section")
			continue
		}
		ill, err := parseLine(text)
		if err != nil {
			ps.Add(line, "%v", err)
			continue
		}
		key := fold(ill.Name)
		if prev, dup := seen[key]; dup {
			ps.Add(line, "%q repeats line %d", ill.Name, prev)
			continue
		}
		if count[colour]++; count[colour] > PerBoard {
			ps.Add(line, "%s: a board holds %d illustrations, and [%s] has more", ill.Name, PerBoard, colour)
			continue
		}
		seen[key] = line
		ill.ID, ill.Colour = len(out), colour // the file's order; Boards numbers them by place
		out = append(out, ill)
	}
	return out, ps.Err(ErrContent) // with problems, out is what read well: see rules.Deck.Check
}

// Boards lays illustrations out as the four boards of a game, 25 of each colour in board
// order, numbering them by place (colour*25 + position). From more of a colour it keeps
// the first 25.
func Boards(ills []Illustration) ([]Illustration, error) {
	out := make([]Illustration, 0, DeckSize)
	var short []string
	for _, c := range Colours {
		n := 0
		for _, ill := range ills {
			if ill.Colour == c && n < PerBoard {
				ill.ID = len(out)
				out = append(out, ill)
				n++
			}
		}
		if n < PerBoard {
			short = append(short, fmt.Sprintf("%d %s", n, c))
		}
	}
	if len(short) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrContent, rules.SmallDeck("a game needs %d illustrations of each colour, and this deck has %s", PerBoard, strings.Join(short, ", ")))
	}
	return out, nil
}

// readBoards reads the boards of a game: the table's illustrations and, when the host
// mixed a pack with the built-in ones, those too.
func readBoards(content map[string][]byte) ([]Illustration, error) {
	// Every round draws from all the boards' illustrations: a mixed pack's are not first.
	ills, _, err := rules.ReadDeck(content, ContentFile, ParseIllustrations, func(ill Illustration) string { return fold(ill.Name) })
	if err != nil {
		return nil, err
	}
	return Boards(ills)
}

func parseLine(text string) (Illustration, error) {
	parts := strings.Split(text, " | ")
	if len(parts) != 3 {
		return Illustration{}, fmt.Errorf("want \"name | glyph | forms\", got %q", text)
	}
	name := strings.TrimSpace(parts[0])
	glyph := strings.TrimSpace(parts[1])
	if name == "" || len(words(name)) == 0 {
		return Illustration{}, fmt.Errorf("name %q has no word", name)
	}
	if err := rules.CheckWidth(name, MaxNameLen); err != nil {
		return Illustration{}, fmt.Errorf("name %q is %v", name, err)
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
		for _, w := range words(f) {
			if slices.Contains(Colours, w) {
				return Illustration{}, fmt.Errorf("%s: forbidden form %q names the board colour %s, which narrators may say", name, f, w)
			}
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
