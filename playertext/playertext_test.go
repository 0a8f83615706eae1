package playertext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	family   = "\U0001F469\u200D\U0001F469\u200D\U0001F467" // 👩‍👩‍👧
	rainbow  = "\U0001F3F3\uFE0F\u200D\U0001F308"           // 🏳️‍🌈
	scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
)

func TestClean(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "hello there", "hello there"},
		{"CSI SGR", "\x1b[1mthat one\x1b[0m", "that one"},
		{"CSI with many params", "a\x1b[38;2;255;0;0mred\x1b[m", "ared"},
		{"CSI private mode", "x\x1b[?1049hy", "xy"},
		{"CSI clear screen", "a\x1b[2Jb", "ab"},
		{"OSC 52 clipboard, BEL", "copy\x1b]52;c;ZWNobyBwd25lZA==\x07me", "copyme"},
		{"OSC 52 clipboard, ST", "copy\x1b]52;c;ZWNobyBwd25lZA==\x1b\\me", "copyme"},
		{"OSC title", "\x1b]0;you have been hacked\x07hi", "hi"},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"DCS", "a\x1bPq#0;2;0;0;0#0~~@@\x1b\\b", "ab"},
		{"APC", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"PM", "a\x1b^private\x1b\\b", "ab"},
		{"SOS", "a\x1bXstring\x1b\\b", "ab"},
		{"C1 CSI U+009B with params", "a\u009b31mred\u009b0m", "ared"},
		{"C1 OSC U+009D with C1 ST", "a\u009d0;title\u009cb", "ab"},
		{"C1 DCS U+0090", "a\u0090data\u009cb", "ab"},
		{"C1 APC U+009F", "a\u009fdata\u009cb", "ab"},
		{"8-bit CSI byte", "a\x9b31mb", "ab"},
		{"C1 NEL is a line break", "one\u0085two", "one two"},
		{"other C1 control", "a\u0084b", "ab"},
		{"charset designation ESC ( B", "a\x1b(Bb", "ab"},
		{"charset designation ESC ) 0", "a\x1b)0b", "ab"},
		{"ESC 7 save cursor", "a\x1b7b\x1b8", "ab"},
		{"ESC c reset", "\x1bcreset", "reset"},
		{"lone ESC at the end", "bye\x1b", "bye"},
		{"unterminated CSI", "bye\x1b[12;", "bye"},
		{"unterminated OSC swallows the rest", "bye\x1b]0;title", "bye"},
		{"CAN cancels an OSC", "a\x1b]0;t\x18b", "ab"},
		{"escape inside an emoji", "\U0001F469\x1b[1m\u200D\U0001F469", "\U0001F469\U0001F469"},
		{"NUL", "a\x00b", "ab"},
		{"DEL", "a\x7fb", "ab"},
		{"BEL and backspace", "a\x07\x08b", "ab"},
		{"newline and tab become spaces", "one\ntwo\tthree\r\nfour", "one two three four"},
		{"runs of spaces collapse, ends trimmed", "   a    b   ", "a b"},
		{"unicode spaces", "a\u00a0\u2003\u3000b", "a b"},
		{"line separator", "a\u2028b", "a b"},
		{"RTL override U+202E", "abc\u202Etxt.exe", "abctxt.exe"},
		{"LRE RLE PDF LRO", "\u202Aa\u202Bb\u202Cc\u202Dd", "abcd"},
		{"isolates U+2066-2069", "\u2066a\u2067b\u2068c\u2069", "abc"},
		{"LRM RLM ALM", "a\u200Eb\u200Fc\u061Cd", "abcd"},
		{"zero-width space and BOM", "a\u200Bb\uFEFFc", "abc"},
		{"word joiner and soft hyphen", "a\u2060b\u00ADc", "abc"},
		// Emoji sequences terminals draw at different widths stand apart (agreed).
		{"ZWJ family emoji split", "hi " + family, "hi \U0001F469\U0001F469\U0001F467"},
		{"flag with VS16 and ZWJ split", rainbow + "!", "\U0001F3F3\U0001F308!"},
		{"subdivision flag tags kept", scotland, scotland},
		{"skin tone dropped", "\U0001F44B\U0001F3FD", "\U0001F44B"},
		{"emoji variation selector dropped", "\u2764\uFE0F", "\u2764"},
		{"keycap dropped", "1\uFE0F\u20E3", "1"},
		{"regional indicator flag kept", "\U0001F1EB\U0001F1F7", "\U0001F1EB\U0001F1F7"},
		{"conjoining Hangul kept", "\u1100\u1161\u11A8", "\u1100\u1161\u11A8"},
		{"combining accent on a base letter kept", "Jose\u0301", "Jose\u0301"},
		{"Devanagari cluster kept", "\u0928\u092E\u0938\u094D\u0924\u0947", "\u0928\u092E\u0938\u094D\u0924\u0947"},
		{"CJK kept", "你好世界", "你好世界"},
		{"ZWNJ in Persian kept", "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645", "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645"},
		{"lone ZWJ dropped", "\u200D", ""},
		{"leading combining marks dropped", "\u0301\u0302abc", "abc"},
		{"invalid UTF-8 replaced", "bad\xffbyte", "bad\uFFFDbyte"},
		{"truncated UTF-8 replaced", "cut\xe2\x82", "cut\uFFFD"},
		{"overlong UTF-8 replaced", "a\xc0\xafb", "a\uFFFD\uFFFDb"},
		{"stray continuation byte replaced", "a\xa0b", "a\uFFFDb"},
		{"Hangul filler is a space", "a\u3164b", "a b"},
		{"8-bit C1 byte is a control", "a\x85b\x90q\x9cc", "a bc"},
		{"Zalgo pile cut", "a" + strings.Repeat("\u0301", 100), "a" + strings.Repeat("\u0301", maxClusterRunes-1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Clean(c.in)
			if got != c.want {
				t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("Clean(%q) = %q is not valid UTF-8", c.in, got)
			}
			if Clean(got) != got {
				t.Errorf("Clean is not idempotent on %q: %q", got, Clean(got))
			}
		})
	}
}

func TestTypedKeepsSpaces(t *testing.T) {
	if got := Typed(" a  \x1b[1mb\n"); got != " a  b " {
		t.Errorf("Typed = %q", got)
	}
	if got := Typed(" "); got != " " {
		t.Errorf("Typed(space) = %q", got)
	}
}

func TestWidthCountsColumns(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"abc", 3},
		{"你好", 4},
		{family, 2},
		{rainbow, 2},
		{"Jose\u0301", 4},
		{"", 0},
	} {
		if got := Width(c.in); got != c.want {
			t.Errorf("Width(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestTruncateNeverSplitsACharacter(t *testing.T) {
	for _, c := range []struct {
		in   string
		cols int
		want string
	}{
		{"abcdef", 3, "abc"},
		{"你好世界", 5, "你好"},
		{"ab" + family + "c", 3, "ab"},
		{"ab" + family + "c", 4, "ab" + family},
		{"Jose\u0301 Luis", 4, "Jose\u0301"},
	} {
		if got := Truncate(c.in, c.cols); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.cols, got, c.want)
		}
	}
}

func TestBlank(t *testing.T) {
	for _, s := range []string{"", "   ", "\u3164", "\u3164\u3164\u3164", "\u0301\u0302", "\u200D\u200D", "\u200B", "\u2800", "\x1b[1m\x1b[0m", "\u202E \u2066"} {
		if !Blank(s) {
			t.Errorf("Blank(%q) = false", s)
		}
	}
	for _, s := range []string{"a", family, "你", "\u3164a"} {
		if Blank(s) {
			t.Errorf("Blank(%q) = true", s)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"\x1b[1mx", "\u009b31m", family, "a\xffb", "\x1b]52;c;x\x07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Clean(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202E {
				t.Fatalf("Clean(%q) = %q keeps control %U", s, got, r)
			}
		}
		if Clean(got) != got {
			t.Fatalf("Clean not idempotent: %q then %q", got, Clean(got))
		}
	})
}

func TestShortCutsAndTrims(t *testing.T) {
	if got := Short("hello \x1b[1mworld", 6); got != "hello" {
		t.Errorf("Short = %q", got)
	}
	if got := Short("你好世界", 3); got != "你" {
		t.Errorf("Short = %q", got)
	}
}
