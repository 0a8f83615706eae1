package fingertip

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Picture limits: a picture fits a cell of the 3×3 square on an 80×24 terminal.
const (
	PictureCols = 22  // widest picture, in terminal cells
	PictureRows = 7   // tallest picture, in lines
	AltMax      = 80  // longest alt text, in characters
	Cards       = 71  // double-sided cards in the game
	Pictures    = 142 // one picture per side
)

// ErrContent wraps every problem found in the pictures file.
var ErrContent = errors.New("fingertip: bad pictures file")

// Picture is one side of a card: text art, its inks (colours) and a plain description.
type Picture struct {
	Alt  string            // short plain-language description, for the text mode and bots
	Art  []string          // at most PictureRows lines of at most PictureCols cells
	Base string            // default ink as "#RRGGBB"
	Inks map[string]string // ink per art character, "#RRGGBB"
}

// ParsePictures reads the pictures file and checks every rule of the content: exactly
// 142 pictures (card k has pictures 2k and 2k+1), each within 22×7 single-width cells,
// with a distinct, non-empty alt text.
//
// The format is a series of blocks:
//
//	== alt text
//	ink base=CCCCCC #=8B8B83 ~=5FB3F9     (optional: colour per character)
//	art lines…
//
// Lines before the first "== " and lines starting with ";" outside art are comments.
func ParsePictures(b []byte) ([]Picture, error) {
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%w: not UTF-8", ErrContent)
	}
	var out []Picture
	var cur *Picture
	line := 0
	finish := func() error {
		if cur == nil {
			return nil
		}
		for len(cur.Art) > 0 && strings.TrimSpace(cur.Art[len(cur.Art)-1]) == "" {
			cur.Art = cur.Art[:len(cur.Art)-1]
		}
		for len(cur.Art) > 0 && strings.TrimSpace(cur.Art[0]) == "" {
			cur.Art = cur.Art[1:]
		}
		if len(cur.Art) == 0 {
			return fmt.Errorf("%w: %q has no art", ErrContent, cur.Alt)
		}
		if len(cur.Art) > PictureRows {
			return fmt.Errorf("%w: %q is %d lines tall (at most %d)", ErrContent, cur.Alt, len(cur.Art), PictureRows)
		}
		out = append(out, *cur)
		cur = nil
		return nil
	}
	for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		line++
		switch {
		case strings.HasPrefix(l, "== "):
			if err := finish(); err != nil {
				return nil, err
			}
			alt := strings.TrimSpace(l[3:])
			if alt == "" || utf8.RuneCountInString(alt) > AltMax {
				return nil, fmt.Errorf("%w: line %d: alt text must be 1 to %d characters", ErrContent, line, AltMax)
			}
			cur = &Picture{Alt: alt, Base: "#CCCCCC", Inks: map[string]string{}}
		case cur == nil:
			// comment before the first picture
		case strings.HasPrefix(l, "ink ") && len(cur.Art) == 0:
			if err := parseInks(cur, l[4:]); err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrContent, line, err)
			}
		default:
			l = strings.TrimRight(l, " ")
			if w, ok := ArtWidth(l); !ok {
				return nil, fmt.Errorf("%w: line %d: a character that is not single-width", ErrContent, line)
			} else if w > PictureCols {
				return nil, fmt.Errorf("%w: line %d: %d columns wide (at most %d)", ErrContent, line, w, PictureCols)
			}
			cur.Art = append(cur.Art, l)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(out) != Pictures {
		return nil, fmt.Errorf("%w: %d pictures, want %d", ErrContent, len(out), Pictures)
	}
	seenAlt := map[string]int{}
	seenArt := map[string]int{}
	for i, p := range out {
		key := strings.ToLower(p.Alt)
		if j, dup := seenAlt[key]; dup {
			return nil, fmt.Errorf("%w: pictures %d and %d share the alt text %q", ErrContent, j+1, i+1, p.Alt)
		}
		seenAlt[key] = i
		art := strings.Join(p.Art, "\n")
		if j, dup := seenArt[art]; dup {
			return nil, fmt.Errorf("%w: pictures %d and %d have the same art", ErrContent, j+1, i+1)
		}
		seenArt[art] = i
	}
	return out, nil
}

// parseInks reads "base=RRGGBB c=RRGGBB …" into p.
func parseInks(p *Picture, s string) error {
	for _, tok := range strings.Fields(s) {
		var key, hex string
		if rest, ok := strings.CutPrefix(tok, "base="); ok {
			key, hex = "base", rest
		} else {
			r, size := utf8.DecodeRuneInString(tok)
			if size >= len(tok) || tok[size] != '=' {
				return fmt.Errorf("ink %q is not c=RRGGBB", tok)
			}
			key, hex = string(r), tok[size+1:]
		}
		if !isHex6(hex) {
			return fmt.Errorf("ink %q: colour must be 6 hex digits", tok)
		}
		if key == "base" {
			p.Base = "#" + strings.ToUpper(hex)
		} else {
			p.Inks[key] = "#" + strings.ToUpper(hex)
		}
	}
	return nil
}

func isHex6(s string) bool {
	if len(s) != 6 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// ArtWidth is the width in terminal cells of an art line, and false if it holds a
// character whose width terminals disagree on (only printable ASCII, box drawing, block
// elements and a few single-width symbols are allowed, so every picture renders the
// same everywhere).
func ArtWidth(s string) (int, bool) {
	w := 0
	for _, r := range s {
		if !singleWidth(r) {
			return 0, false
		}
		w++
	}
	return w, true
}

func singleWidth(r rune) bool {
	switch {
	case r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0x2500 && r <= 0x259F: // box drawing, block elements
		return true
	}
	return strings.ContainsRune("·°≈", r)
}
