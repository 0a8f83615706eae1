// Package playertext makes the text players send (names, chat, clues, stories) safe to
// show on anyone's terminal. It is the one sanitiser of the project: the lobby passes
// every string of a game action through it, the session cleans what is typed, and the
// server cleans what it logs.
//
// Escape sequences are recognised by x/ansi's decoder, so a whole sequence goes (its
// parameters too), never just its first byte; what is left is walked by grapheme
// cluster, so a limit never cuts a character in half. An emoji sequence that terminals
// draw at different widths (see agreed) is split into its pictures.
//
// The rest of the project's text rules live in rules, because the games use them on
// their content and rules imports nothing of the project: rules.Width, the one measure
// of terminal columns (Width here is the same), rules.Fold and rules.Plain, the forms in
// which two words count as one (a deck's duplicates, Tall Tale's forbidden words, names
// that look alike), and rules.ControlChar for content checks. playertext imports rules
// for them and nothing else of the project, so any package may use it.
package playertext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
)

// Clean returns s as one line of text that is safe on any terminal: escape sequences
// (CSI, OSC, DCS, SOS, PM, APC, charset designations, and their C1 forms) are removed
// whole; control, bidirectional and other invisible formatting characters are removed;
// invalid UTF-8 becomes U+FFFD (a lone byte 0x80–0x9F is read as the 8-bit C1 control it
// is to a terminal, and goes); line breaks, tabs and other spaces become single spaces;
// and the ends are trimmed. An emoji sequence whose width terminals disagree on loses
// its joiners, selectors and modifiers (agreed); a flag or a letter with its accents
// stays one character.
func Clean(s string) string {
	return strings.TrimSpace(graphemes(sequences(s), true))
}

// Typed is Clean for a piece of text being typed or pasted into a one-line box: spaces are
// kept where they are (not collapsed or trimmed), so the box keeps the space just typed.
func Typed(s string) string {
	return graphemes(sequences(s), false)
}

// Short is Clean cut to at most cols terminal columns: for a chat line, or for quoting
// what someone sent in an error message or a log line.
func Short(s string, cols int) string { return strings.TrimSpace(Truncate(Clean(s), cols)) }

// Width is how many terminal columns s takes: rules.Width, the project's one measure.
func Width(s string) int { return rules.Width(s) }

// Truncate cuts s to at most cols terminal columns, never inside a character.
func Truncate(s string, cols int) string { return ansi.Truncate(s, cols, "") }

// Blank reports whether s, once cleaned, shows nothing at all: no text, only spaces,
// only invisible characters.
func Blank(s string) bool {
	c := Clean(s)
	return c == "" || Width(c) == 0
}

// sequences removes escape sequences and control characters; a line break, tab or other
// spacing control becomes a space. Invalid UTF-8 becomes U+FFFD.
func sequences(s string) string {
	s = c1Bytes(s)
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		seq, _, n, _ := ansi.DecodeSequence(s, ansi.NormalState, nil)
		if n <= 0 || n > len(s) { // cannot happen with this decoder; never loop forever
			n = 1
			seq = s[:1]
		}
		s = s[n:]
		switch c := seq[0]; {
		case c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f' || c == 0x85: // 0x85: NEL
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0:
			// A control character, or a sequence it opens (ESC, CSI, OSC, DCS, …): the
			// decoder has measured the whole sequence, so all of it goes.
		case c < 0x80:
			b.WriteString(seq)
		default:
			b.WriteString(strings.ToValidUTF8(seq, "\uFFFD"))
		}
	}
	return b.String()
}

// c1Bytes rewrites each C1 control written in UTF-8 (U+0080–U+009F) as its single 8-bit
// byte: the decoder knows C1 controls (CSI U+009B, OSC U+009D, …) only in that form, and
// a terminal acts on both.
func c1Bytes(s string) string {
	if strings.IndexByte(s, 0xc2) < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0 {
			b = append(b, s[i+1])
			i++
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// maxClusterRunes bounds one character: the longest emoji sequences (a family with skin
// tones) have 11 code points; a pile of combining marks ("Zalgo" text) that would spill
// over the lines above and below is cut to this.
const maxClusterRunes = 16

// graphemes keeps the characters that show something, walking s by grapheme cluster;
// collapse turns each run of spaces into one.
func graphemes(s string, collapse bool) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for len(s) > 0 {
		cluster, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if cluster == "" { // cannot happen for a non-empty string; never loop forever
			_, size := utf8.DecodeRuneInString(s)
			cluster = s[:size]
		}
		s = s[len(cluster):]
		first, _ := utf8.DecodeRuneInString(cluster)
		switch {
		case unicode.IsSpace(first) || blankLetter(cluster):
			if collapse {
				space = true
			} else {
				b.WriteByte(' ')
			}
			continue
		case unicode.In(first, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me, unicode.Mc):
			// Controls and formatting characters (bidi overrides and isolates, zero-width
			// space, BOM, a lone joiner) stand alone and show nothing; a combining mark
			// that starts a cluster has nothing to combine with.
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if utf8.RuneCountInString(cluster) > maxClusterRunes {
			cluster = firstRunes(cluster, maxClusterRunes)
		}
		b.WriteString(agreed(cluster))
	}
	return b.String()
}

// agreed is cluster as every terminal draws it at the width parlor counts. Terminals
// disagree on emoji sequences: a family joined with U+200D, a skin tone, a flag made
// with a variation selector, a keycap. Some (kitty, WezTerm, iTerm2) draw one picture
// two columns wide, which is what x/ansi counts; others (tmux, xterm, GNOME's) draw the
// parts side by side, the width wcwidth counts. A name counted two columns and drawn
// eight pushes every column after it out of line on those players' screens. So when
// the two counts differ, the sequence loses what joins and modifies its pictures, which
// then stand side by side at a width both agree on (👨‍👩‍👧 becomes 👨👩👧, 👍🏽 becomes 👍,
// ❤️ becomes ❤). Other scripts (an Indic cluster, conjoining Hangul) hold none of these
// and are kept whatever the counts say.
func agreed(cluster string) string {
	if !strings.ContainsFunc(cluster, emojiGlue) || ansi.StringWidth(cluster) == ansi.StringWidthWc(cluster) {
		return cluster
	}
	return strings.Map(func(r rune) rune {
		if emojiGlue(r) {
			return -1
		}
		return r
	}, cluster)
}

// emojiGlue reports the code points that join or modify emoji: the zero-width joiner,
// the text and emoji variation selectors, the five skin tones, the combining keycap
// and the tag characters of subdivision flags.
func emojiGlue(r rune) bool {
	return r == 0x200D || r == 0xFE0E || r == 0xFE0F || r >= 0x1F3FB && r <= 0x1F3FF || r == 0x20E3 || r >= 0xE0020 && r <= 0xE007F
}

// blankLetter reports the letters that are drawn as empty space (Hangul fillers, the
// blank Braille pattern): on screen they are spaces, and a name of them would be invisible.
func blankLetter(cluster string) bool {
	switch cluster {
	case "\u3164", "\uffa0", "\u115f", "\u1160", "\u2800":
		return true
	}
	return false
}

func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
