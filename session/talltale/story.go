package talltale

import (
	"unicode"

	tea "charm.land/bubbletea/v2"

	tt "parlor/rules/talltale"
)

// storyKey edits the story; enter sends it, after a warning naming a forbidden word
// unless the table plays strict (then the penalty simply applies).
func (s *Screen) storyKey(k tea.KeyPressMsg) any {
	switch k.String() {
	case "esc":
		s.writing = false
	case "enter":
		text := tt.CleanStory(string(s.story))
		if text == "" || len([]rune(text)) > tt.MaxStory || tt.Sentences(text) > 2 {
			return nil
		}
		if word, _ := s.forbidden(); word != "" && s.v.Mode != tt.ModeStrict && s.warned != word {
			s.warned = word
			return nil
		}
		return tt.Story{Type: "story", Text: text, Confirm: s.warned != ""}
	case "backspace":
		if len(s.story) > 0 {
			s.story = s.story[:len(s.story)-1]
		}
	case "ctrl+u":
		s.story = nil
	case "space":
		s.typeText(" ")
	default:
		if k.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			s.typeText(k.Text)
		}
	}
	return nil
}

// typeText adds typed or pasted text, without control characters, up to the limit.
func (s *Screen) typeText(t string) {
	for _, r := range t {
		if r == '\n' || r == '\t' || r == '\r' {
			r = ' '
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar {
			continue
		}
		if len(s.story) >= tt.MaxStory {
			break
		}
		s.story = append(s.story, r)
	}
	s.warned = ""
}

// forbidden finds a forbidden word of the kept illustrations in the story being
// written: the word and the illustration's name.
func (s *Screen) forbidden() (string, string) {
	if s.v == nil || s.v.Hand == nil {
		return "", ""
	}
	for _, k := range s.v.Hand.Kept {
		if w, ok := tt.FindForbidden(string(s.story), k.Forbidden); ok {
			return w, k.Name
		}
	}
	return "", ""
}
