package session

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Zed", "Zed"},
		{"  Zed   Zeppelin ", "Zed Zeppelin"},
		{"\x1b[31mAna\x1b[0m", "Ana"},
		{"Ana\u202e", "Ana"},
		{"李小龍", "李小龍"},
		{"Mum \U0001F469\u200D\U0001F469\u200D\U0001F467", "Mum \U0001F469\U0001F469\U0001F467"}, // as every terminal draws it
		{"José", "José"},
		{strings.Repeat("你", 8), strings.Repeat("你", 8)},
	} {
		if got, err := CheckName(c.in); err != nil || got != c.want {
			t.Errorf("CheckName(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, blank := range []string{"", "   ", "\u3164", "\u3164\u3164\u3164", "\u0301\u0301\u0301", "\u200D\u200D", "\u200B\u2060", "\x1b[2J", "\u2800\u2800"} {
		if _, err := CheckName(blank); !errors.Is(err, ErrBlankName) {
			t.Errorf("CheckName(%q) = %v, want ErrBlankName", blank, err)
		}
	}
	// Lengths are columns: nine wide characters take 18.
	for _, bad := range []string{"x", strings.Repeat("x", 17), strings.Repeat("你", 9)} {
		if _, err := CheckName(bad); err == nil || !strings.Contains(err.Error(), "2 to 16") {
			t.Errorf("CheckName(%q) = %v, want a length error", bad, err)
		}
	}
}

// TestBotNamesAreTheBots: a player cannot go by a bot's name, in any case or accent, or
// in letters of another script that look the same; a name that only begins with the
// letters is fine.
func TestBotNamesAreTheBots(t *testing.T) {
	for _, name := range []string{"Bot Ada", "bot ada", "BÒT Mo", "Bot",
		"B\u043et Ada",                       // a Cyrillic о
		"\u0412ot Ada",                       // a Cyrillic В
		"\u0392\u03bft Mo",                   // Greek Β ο
		"\u0392\u03bf\u03c4 Mo",              // Greek Β ο τ
		"\u0412\u043e\u0442 Ann",             // Cyrillic В о т
		"B0t Ada",                            // a zero
		"\U0001d401\U0001d428\U0001d42d Ada", // mathematical bold 𝐁𝐨𝐭
		"Ｂｏｔ Ada",                            // fullwidth
	} {
		if _, err := CheckName(name); !errors.Is(err, ErrBotName) {
			t.Errorf("CheckName(%q) = %v, want ErrBotName", name, err)
		}
	}
	for _, name := range []string{"Botticelli", "Abbot", "Robot Bo"} {
		if _, err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v", name, err)
		}
	}
}

// TestNamesCannotForgeMarks: a name may not carry what the seat lists mark players with.
func TestNamesCannotForgeMarks(t *testing.T) {
	for _, name := range []string{"cat ★host", "bob (away)", "Ann²", "me ← you", "Zed (guest)"} {
		if _, err := CheckName(name); !errors.Is(err, ErrMarkName) {
			t.Errorf("CheckName(%q) = %v, want ErrMarkName", name, err)
		}
	}
	for _, name := range []string{"Ann 2", "Star Zed", "O'Neil", "Anne-Marie"} {
		if _, err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v", name, err)
		}
	}
}
