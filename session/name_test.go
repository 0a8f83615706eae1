package session

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

// TestACutNameSaysSo: a name pasted into the name box is cut to its 16 columns, and the
// player is told why, as a key typed past the limit is, and as a chat paste too long for
// a message is; the name the lobby then greets is the cut one, which they have seen.
func TestACutNameSaysSo(t *testing.T) {
	long := "Bartholomew the Magnificent of Somewhere"
	h := newHarness(t, "Zed", 80, 24)
	h.press("N", "backspace", "backspace", "backspace")
	h.m.Update(tea.PasteMsg{Content: long})
	if got := h.m.name.input.value(); got != "Bartholomew the " {
		t.Fatalf("the box holds %q", got)
	}
	if !strings.Contains(h.flat(), "A name has at most 16 characters, wide ones such as 漢 counting twice: the rest of the paste was left out.") {
		t.Fatalf("the cut name is not explained:\n%s", h.screen())
	}
	// A paste that fits says nothing.
	h = newHarness(t, "Zed", 80, 24)
	h.press("N", "backspace", "backspace", "backspace")
	h.m.Update(tea.PasteMsg{Content: "Bartholomew"})
	if strings.Contains(h.flat(), "at most 16") {
		t.Fatalf("a paste that fits is said to be cut:\n%s", h.screen())
	}
}

// TestATooLongNameCountsItsColumns: the API's hello (and an SSH user name) is refused,
// not cut, with the name's real width, however long.
func TestATooLongNameCountsItsColumns(t *testing.T) {
	for _, c := range []struct {
		name string
		cols string
	}{
		{"Bartholomew the Magnificent of Somewhere", "counts 40"},
		{strings.Repeat("Bartholomew ", 10), "counts 119"},
	} {
		_, err := CheckName(c.name)
		if err == nil || !strings.Contains(err.Error(), c.cols) {
			t.Errorf("CheckName(%q) = %v, want it to say it %s", c.name, err, c.cols)
		}
	}
}
