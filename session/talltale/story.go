package talltale

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/playertext"
	"parlor/rules"
	tt "parlor/rules/talltale"
)

// storyRows is the height of the story box: 280 characters at 78 columns, with room.
const storyRows = 5

// newStoryBox is the narrator's story editor: bubbles' textarea wraps and measures wide
// characters and emoji by their columns and moves the cursor through them. Enter sends
// the story, so it inserts no line break; the cursor does not blink, so an idle screen
// costs nothing.
func newStoryBox() textarea.Model {
	ta := textarea.New()
	ta.Prompt = "> "
	ta.ShowLineNumbers = false
	ta.CharLimit = tt.MaxStory
	ta.MaxHeight = storyRows
	ta.SetHeight(storyRows)
	ta.KeyMap.InsertNewline.SetEnabled(false)
	st := textarea.DefaultDarkStyles()
	st.Cursor.Blink = false
	st.Focused.CursorLine = st.Focused.Text
	ta.SetStyles(st)
	ta.Focus()
	return ta
}

// storyView is the story box's rows, width wide. A plain frame has no escape codes, and
// bubbles draws its cursor in reverse video: there the box is drawn without its styles
// and the cursor's cell shows "_", as Fingertip's clue box does.
func (s *Screen) storyView(width int, plain bool) []string {
	if width != s.storyW {
		// The box's scroll position was worked out for the width it had (bubbles' own
		// default before the first frame): at a new width it would keep the cursor's row
		// at the top and hide the rows above. Set the text again at this width, which
		// scrolls afresh, and put the cursor back (the story is one line of text, so the
		// column is the place).
		col, text := s.story.Column(), s.story.Value()
		s.story.SetWidth(width)
		s.story.SetValue(text)
		s.story.SetCursorColumn(col)
		s.storyW = width
	}
	if !plain {
		return strings.Split(s.story.View(), "\n")
	}
	styles := s.story.Styles()
	s.story.SetStyles(textarea.Styles{})
	s.story.SetVirtualCursor(false)
	lines := strings.Split(s.story.View(), "\n")
	c := s.story.Cursor() // where a real cursor would go: only without the virtual one
	s.story.SetVirtualCursor(true)
	s.story.SetStyles(styles)
	if c != nil && c.Y >= 0 && c.Y < len(lines) {
		lines[c.Y] = cursorAt(lines[c.Y], c.X)
	}
	return lines
}

// cursorAt shows "_" at column x of a plain line: in place of a blank (the end of the
// text), or before the character there, the line then giving up a trailing blank.
func cursorAt(line string, x int) string {
	w := rules.Width(line)
	left, rest := ansi.Cut(line, 0, x), ansi.Cut(line, x, w)
	if rest == "" || strings.HasPrefix(rest, " ") {
		return left + "_" + strings.TrimPrefix(rest, " ")
	}
	return left + "_" + strings.TrimSuffix(rest, " ")
}

// storyText is the story being written.
func (s *Screen) storyText() string { return s.story.Value() }

// storyKey edits the story; enter sends it, after a warning naming a forbidden word
// unless the table plays strict (then the penalty simply applies). Enter refuses only
// what the screen says: an empty story, or one of storyProblems.
func (s *Screen) storyKey(k tea.KeyPressMsg) any {
	switch k.String() {
	case "esc":
		s.writing, s.note = false, ""
		return nil
	case "enter":
		text := playertext.Clean(s.storyText())
		if text == "" || len(storyProblems(text)) > 0 {
			return nil
		}
		if found := s.forbidden(); len(found) > 0 && s.v.Mode != tt.ModeStrict && s.warned != found[0].Word {
			s.warned = found[0].Word
			return nil
		}
		return tt.Story{Type: "story", Text: text, Confirm: s.warned != ""}
	}
	s.edit(k)
	return nil
}

// edit passes a key or a paste to the story box and keeps its text clean, as the lobby
// will: line breaks and tabs become spaces, escape sequences and control characters go.
func (s *Screen) edit(msg tea.Msg) {
	s.note = ""
	before := s.storyText()
	if p, ok := msg.(tea.PasteMsg); ok {
		msg = tea.PasteMsg{Content: playertext.Typed(p.Content)}
		if utf8.RuneCountInString(before)+utf8.RuneCountInString(msg.(tea.PasteMsg).Content) > s.story.CharLimit {
			// The box keeps what fits of a paste: say the rest was left out.
			s.note = fmt.Sprintf("The paste was cut at %d characters.", s.story.CharLimit)
		}
	}
	s.story, _ = s.story.Update(msg)
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Text != "" && s.storyText() == before &&
		utf8.RuneCountInString(before) >= s.story.CharLimit {
		s.note = fmt.Sprintf("The story is at its limit of %d characters.", s.story.CharLimit)
	}
	if after := s.storyText(); after != before {
		if clean := playertext.Typed(after); clean != after {
			s.story.SetValue(clean)
		}
		s.warned = ""
	}
}

// storyProblems says why the engine would refuse a cleaned, non-empty story, one line
// each: the screen shows them all, so enter never does nothing without a word.
func storyProblems(text string) []string {
	var out []string
	if n := tt.StoryWidth(text); n > tt.MaxStory {
		out = append(out, fmt.Sprintf("Too long: %d columns, at most %d (a wide character such as 你 counts two).", n, tt.MaxStory))
	}
	if n := tt.Sentences(text); n > 2 {
		out = append(out, fmt.Sprintf("That is %d sentences: a story has one or two.", n))
	}
	return out
}

// forbidden finds every forbidden form of the kept illustrations in the story being
// written (tt.ForbiddenIn).
func (s *Screen) forbidden() []tt.ForbiddenUse {
	if s.v == nil || s.v.Hand == nil {
		return nil
	}
	return tt.ForbiddenIn(s.storyText(), s.v.Hand.Kept)
}

// forbiddenNote is the warning about the forbidden words found: the first two named and
// how many more, with the penalty, which a story pays once; once warned, what enter does
// now follows as a paragraph of its own, so that it never breaks. A paragraph may take
// more than one line: the screen wraps it rather than cutting it.
func forbiddenNote(found []tt.ForbiddenUse, warned bool) []string {
	// Up to four named (the narrator must find them to edit them); a story holding more
	// says how many, so that the note still fits an 80×24 frame.
	list, cost := tt.ForbiddenList(found, 4), tt.PenaltyWords(found)
	if warned {
		return []string{fmt.Sprintf("Warning: your story says %s: sending costs %s.", list, cost), "Enter again sends anyway; or edit."}
	}
	if len(found) > 1 {
		return []string{fmt.Sprintf("Forbidden words: %s would cost %s.", list, cost)}
	}
	return []string{fmt.Sprintf("Forbidden word: %s would cost %s.", list, cost)}
}
