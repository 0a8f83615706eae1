package lobby

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText makes player text safe to show on anyone's terminal: invalid UTF-8 is
// dropped, escape sequences and other control characters are removed (a newline or tab
// becomes a space), runs of spaces collapse, and the result is cut to max runes.
func CleanText(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for i := 0; i < len(s) && n < max; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			continue
		case r == 0x1b: // ESC: skip the whole sequence, not just the byte
			i += escapeLength(s[i:])
			continue
		case r == '\n' || r == '\t' || r == '\r' || unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (r >= 0x80 && r < 0xa0):
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
			if n >= max {
				break
			}
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// escapeLength is how many bytes after an ESC belong to its sequence (CSI, OSC, or one
// character), so that the sequence's parameters do not leak into the text.
func escapeLength(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '[': // CSI: parameters, then a final byte in 0x40–0x7e
		for i := 1; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ESC \
		for i := 1; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 1
}
