package fingertip

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"parlor/rules"
)

// Picture limits: a picture fits a cell of the 3×3 square on an 80×24 terminal.
const (
	PictureCols = 22  // widest picture, in terminal cells
	PictureRows = 7   // tallest picture, in lines
	AltMax      = 80  // longest alt text, in columns (rules.Width)
	Cards       = 71  // double-sided cards in the game
	Pictures    = 142 // one picture per side
)

// ErrContent wraps every problem found in the pictures file.
var ErrContent = rules.Sentinel("fingertip.content", "fingertip: bad pictures file")

// Picture is one side of a card: text art, its inks (colours) and a plain description.
type Picture struct {
	Alt  string            // short plain-language description, for the text mode and bots
	Art  []string          // at most PictureRows lines of at most PictureCols cells
	Base string            // default ink as "#RRGGBB"
	Inks map[string]string // ink per art character, "#RRGGBB"
}

// ParsePictures reads a pictures file and checks every rule of the content: each
// picture within 22×7 single-width cells, with a distinct, non-empty alt text and its own
// art. Card k has pictures 2k and 2k+1 (an odd last picture is left out of play). Every
// problem is listed with its line in a *rules.ContentError; the number of pictures is the
// game's to check (see New), the built-in file's the assets test's.
//
// The format is a series of blocks:
//
//	== alt text
//	ink base=CCCCCC #=8B8B83 ~=5FB3F9     (optional: colour per character)
//	art lines…
//
// Lines starting with ";" outside art are comments; so are other lines before the first
// "== " for a game (packs stored before CountPictures refused them still play).
func ParsePictures(b []byte) ([]Picture, error) { return parsePictures(b, false) }

// CountPictures checks a pack of pictures as ParsePictures does, and a line before the
// first picture that is not a comment too: it is most likely a first picture whose
// "== " line is missing or written "==cat", which a game would skip without a word.
func CountPictures(b []byte) (int, error) {
	ps, err := parsePictures(b, true)
	return len(ps), err
}

func parsePictures(b []byte, strict bool) ([]Picture, error) {
	var ps rules.Problems
	if !utf8.Valid(b) {
		ps.Add(0, "not UTF-8")
		return nil, ps.Err(ErrContent)
	}
	var out []Picture
	var cur *Picture
	start := 0   // the line of cur's "== "
	flawed := -1 // a problem's count from which on it is cur's: a flawed picture is not counted
	seenAlt := map[string]int{}
	seenArt := map[string]int{}
	finish := func() {
		if cur == nil {
			return
		}
		p := cur
		cur = nil
		if ps.Len() > flawed {
			return
		}
		for len(p.Art) > 0 && strings.TrimSpace(p.Art[len(p.Art)-1]) == "" {
			p.Art = p.Art[:len(p.Art)-1]
		}
		for len(p.Art) > 0 && strings.TrimSpace(p.Art[0]) == "" {
			p.Art = p.Art[1:]
		}
		switch {
		case len(p.Art) == 0:
			ps.Add(start, "%q has no art", p.Alt)
			return
		case len(p.Art) > PictureRows:
			ps.Add(start, "%q is %d lines tall (at most %d)", p.Alt, len(p.Art), PictureRows)
			return
		}
		key := rules.Fold(p.Alt)
		if first, dup := seenAlt[key]; dup {
			ps.Add(start, "the alt text %q repeats line %d", p.Alt, first)
			return
		}
		art := strings.Join(p.Art, "\n")
		if first, dup := seenArt[art]; dup {
			ps.Add(start, "%q has the same art as the picture of line %d", p.Alt, first)
			return
		}
		seenAlt[key], seenArt[art] = start, start
		out = append(out, *p)
	}
	line := 0
	for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		line++
		switch {
		case strings.HasPrefix(l, "== "):
			finish()
			alt := strings.TrimSpace(l[3:])
			start, flawed = line, ps.Len()
			err := rules.CheckWidth(alt, AltMax)
			if c := rules.ControlChar(alt); c != "" {
				err = errors.New("holding " + c)
			} else if alt == "" {
				err = errors.New("empty")
			}
			if err != nil {
				ps.Add(line, "alt text is %v", err)
				alt = fmt.Sprintf("picture of line %d", line)
			}
			cur = &Picture{Alt: alt, Base: "#CCCCCC", Inks: map[string]string{}}
		case cur == nil:
			// comment before the first picture
			if t := strings.TrimSpace(l); strict && t != "" && !strings.HasPrefix(t, ";") {
				ps.Add(line, `text before the first picture: a picture starts with "== " and its alt text, and a comment with ";"`)
			}
		case strings.HasPrefix(l, "ink ") && len(cur.Art) == 0:
			if err := parseInks(cur, l[4:]); err != nil {
				ps.Add(line, "%v", err)
			}
		default:
			l = strings.TrimRight(l, " ")
			if w, ok := ArtWidth(l); !ok {
				ps.Add(line, "a character that is not single-width (art may use printable ASCII, box drawing, blocks and · ° ≈)")
			} else if w > PictureCols {
				ps.Add(line, "%d columns wide (at most %d)", w, PictureCols)
			}
			cur.Art = append(cur.Art, l)
		}
	}
	finish()
	return out, ps.Err(ErrContent) // with problems, out is what read well: see rules.Deck.Check
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
