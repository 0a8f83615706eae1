package fingertip

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	ft "parlor/rules/fingertip"
	"parlor/session/gameui"
)

// cell draws position i of the square: a label line (number, target, fingers) and the
// picture (scale times as tall) or its description, h lines of exactly w cells.
func (s *Screen) cell(i, w, h, scale int, plain bool) []string {
	c := s.v.Square[i]
	out := []string{s.label(c, i, w, plain)}
	rows := h - 1
	var body []string
	switch {
	case c.Empty:
		body = []string{"(empty)"}
	case s.showText():
		body = strings.Split(ansi.Wordwrap(c.Alt, w-2, " "), "\n")
		for j := range body {
			body[j] = " " + body[j]
		}
	case scale == 2:
		body = stretch(c.Art)
	default:
		body = c.Art
	}
	// Centre short pictures vertically; crop tall ones at the bottom.
	pad := max(0, (rows-len(body))/2)
	for r := range rows {
		j := r - pad
		line := ""
		if j >= 0 && j < len(body) {
			line = body[j]
		}
		switch {
		case plain || c.Empty:
			out = append(out, gameui.Fit(line, w))
		case s.showText():
			out = append(out, gameui.Fit(ink(line, c.Base, nil, w, faded(c)), w))
		default:
			out = append(out, ink(line, c.Base, c.Inks, w, faded(c)))
		}
	}
	return out
}

// faded reports that a card no longer counts for the race: a "no" is on it, or it is
// leaving the square.
func faded(c ft.Card) bool { return c.Answer == "no" || (c.Leaves != "" && !c.Target) }

// label is the line above a picture: its number, then what happened to it.
func (s *Screen) label(c ft.Card, i, w int, plain bool) string {
	num := " " + strconv.Itoa(c.Position) + " "
	cursorOn := s.mayPoint() && s.aimed && i == s.cursor
	if cursorOn {
		num = "[" + strconv.Itoa(c.Position) + "]"
	}
	var text, styled string
	switch {
	case c.Target && s.v.Phase == ft.PhaseReveal:
		text = "★ target"
	case c.Target:
		text = "★ your card"
	}
	switch c.Answer {
	case "no":
		text = "✗ no: " + s.name(c.Finger)
	case "yes":
		text = "★ yes: " + s.name(c.Finger)
	}
	// What happened to the card, as short as it reads (a cell is 22 columns at 80):
	// the legend says ★ marks the target and → who took it.
	switch c.Leaves {
	case "taken":
		if c.Answer == "no" {
			text = "✗ " + s.name(c.Finger)
		}
		if c.Answer != "yes" {
			text += " → " + s.name(c.TakenBy)
		}
	case "discarded":
		text = "★ discarded"
		if !c.Target {
			text = "discarded"
		}
	}
	if text != "" {
		text = ansi.Truncate(" "+text+" ", w-3, "…")
	}
	rest := max(0, w-3-rules.Width(text))
	line := strings.Repeat("─", rest)
	if plain {
		return num + text + line
	}
	switch {
	case cursorOn:
		num = cursorStyle.Render(num)
	default:
		num = boldStyle.Render(num)
	}
	switch {
	case c.Target:
		styled = targetStyle.Render(text)
	case c.Answer == "yes":
		styled = yesStyle.Render(text)
	case c.Answer == "no":
		styled = gameui.SeatInk(c.Finger).Paint(text)
	default:
		styled = text
	}
	return num + styled + dimStyle.Render(line)
}

// ink colours an art line character by character (runs of one colour share one escape
// sequence), padded to w cells. Colours are truecolor; the painter lowers them to what the
// player's terminal shows (termrt/paint.go).
func ink(line, base string, inks map[string]string, w int, fade bool) string {
	var b strings.Builder
	cur := ""
	n := 0
	for _, r := range line {
		if n == w {
			break
		}
		col := base
		if c, ok := inks[string(r)]; ok {
			col = c
		}
		if r == ' ' {
			col = cur
		}
		if col != cur {
			b.WriteString(sgr(col, fade))
			cur = col
		}
		b.WriteRune(r)
		n++
	}
	if cur != "" {
		b.WriteString("\x1b[0m")
	}
	if n < w {
		b.WriteString(strings.Repeat(" ", w-n))
	}
	return b.String()
}

// sgr is the escape sequence for a "#RRGGBB" foreground, faint when fade.
func sgr(hex string, fade bool) string {
	r, g, bl, ok := rgb(hex)
	if !ok {
		return "\x1b[0m"
	}
	pre := "\x1b[0;"
	if fade {
		pre = "\x1b[0;2;"
	}
	return pre + "38;2;" + strconv.Itoa(r) + ";" + strconv.Itoa(g) + ";" + strconv.Itoa(bl) + "m"
}

func rgb(hex string) (int, int, int, bool) {
	if len(hex) != 7 || hex[0] != '#' {
		return 0, 0, 0, false
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	return int(v >> 16 & 0xFF), int(v >> 8 & 0xFF), int(v & 0xFF), true
}
