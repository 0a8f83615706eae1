package fingertip

import "strings"

// stretch draws a picture twice as tall, for a large game area: every row becomes two.
// Pictures are made of characters, so doubling each row would double every line and dot;
// instead a character goes where it sits in its cell. Strokes and fills that run up and
// down (| / \ ( ) [ ] # @ and capital letters) are drawn in both rows, so shapes grow
// taller; marks at the bottom of a cell (_ . ,) go in the lower row only; everything else
// (- = ~ * o ' ^ …) in the upper row only. Both rows keep the width of the original, so
// the colours (inks) still apply character by character.
func stretch(art []string) []string {
	out := make([]string, 0, 2*len(art))
	for _, line := range art {
		var upper, lower strings.Builder
		for _, r := range line {
			u, l := r, r
			switch {
			case r == ' ':
			case strings.ContainsRune("_.,", r):
				u = ' '
			case strings.ContainsRune(`|/\()[]{}#@%$`, r) || (r >= 'A' && r <= 'Z' && r != 'O'):
			default:
				l = ' '
			}
			upper.WriteRune(u)
			lower.WriteRune(l)
		}
		out = append(out, strings.TrimRight(upper.String(), " "), strings.TrimRight(lower.String(), " "))
	}
	return out
}
