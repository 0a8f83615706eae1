package session

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"parlor/session/gameui"
)

// pager is a scrollable text: the help, the rules on the create and table screens, the
// whole event log. The viewport keeps the scroll position; home/end are added to its keys.
type pager struct {
	vp    viewport.Model
	lines []string
	// shown is the last view and at what it showed: a screen is drawn again for
	// whatever changed on it (a player joins the waiting room, a line of chat), and the
	// pager's part seldom changes with it.
	shown   []string
	shownAt pagerAt
	multi   bool // some line holds a line break: the viewport splits it
}

// pagerAt is what a pager's view is drawn from besides its text.
type pagerAt struct{ offset, w, h int }

var pagerKeys = struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}{
	Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑↓", "scroll")),
	Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "down")),
	PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup pgdn", "page")),
	PageDown: key.NewBinding(key.WithKeys("pgdown", "space", "f"), key.WithHelp("pgdn", "page down")),
	Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home end", "top/end")),
	End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "end")),
}

// newPager is an empty pager; one is made when its text is first shown.
func newPager() *pager {
	vp := viewport.New()
	km := viewport.DefaultKeyMap()
	km.Up, km.Down, km.PageUp, km.PageDown = pagerKeys.Up, pagerKeys.Down, pagerKeys.PageUp, pagerKeys.PageDown
	km.Left, km.Right = key.NewBinding(key.WithDisabled()), key.NewBinding(key.WithDisabled())
	vp.KeyMap = km
	return &pager{vp: vp}
}

// set gives the pager its text and size; the scroll position stays where it can.
func (p *pager) set(lines []string, w, h int) {
	p.vp.SetWidth(w)
	p.vp.SetHeight(h)
	if !equal(lines, p.lines) {
		p.lines = lines
		off := p.vp.YOffset()
		p.multi = slices.ContainsFunc(lines, func(l string) bool { return strings.ContainsAny(l, "\r\n") })
		if p.multi {
			// The viewport splits such lines in place, and lines may be shared
			// (rulesCache): it gets a copy. Without them it only reads them.
			lines = slices.Clone(lines)
		}
		p.vp.SetContentLines(lines)
		p.vp.SetYOffset(off)
		p.shown = nil
	}
}

// key scrolls; it reports whether k was a scrolling key.
func (p *pager) key(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, pagerKeys.Home):
		p.vp.GotoTop()
	case key.Matches(k, pagerKeys.End):
		p.vp.GotoBottom()
	case key.Matches(k, pagerKeys.Up, pagerKeys.Down, pagerKeys.PageUp, pagerKeys.PageDown):
		p.vp, _ = p.vp.Update(k)
	default:
		return false
	}
	return true
}

// view is the visible part, exactly the pager's size.
func (p *pager) view() []string {
	at := pagerAt{p.vp.YOffset(), p.vp.Width(), p.vp.Height()}
	if p.shown == nil || at != p.shownAt {
		p.shown, p.shownAt = p.window(at), at
	}
	return p.shown
}

// window is the viewport's view at: its lines from the offset, fitted. Lines without
// breaks are cut and fitted here rather than by the viewport's View, which styles every
// visible line through lipgloss again (a fifth of a waiting room's redraw at each join)
// while the shared memo has fitted these lines already.
func (p *pager) window(at pagerAt) []string {
	if p.multi {
		return block(p.vp.View(), at.w, at.h)
	}
	from := min(at.offset, len(p.lines))
	return gameui.Block(p.lines[from:min(from+at.h, len(p.lines))], at.w, at.h)
}

// position says where the view is, e.g. "lines 21–40 of 58 · 34%", or "all" when the
// whole text fits.
func (p *pager) position() string {
	total := p.vp.TotalLineCount()
	if total <= p.vp.Height() {
		return "all shown"
	}
	first := p.vp.YOffset() + 1
	last := min(total, p.vp.YOffset()+p.vp.Height())
	return fmt.Sprintf("lines %d–%d of %d · %d%%", first, last, total, int(p.vp.ScrollPercent()*100+0.5))
}

// scrollKeys are the pager's keys for a footer.
func scrollKeys() []key.Binding {
	return []key.Binding{pagerKeys.Up, pagerKeys.PageUp, pagerKeys.Home}
}

// footerLine fits key bindings into a footer of width w.
func footerLine(w int, bs ...key.Binding) string { return gameui.Footer(w, bs...) }

// footerLines is a screen's key help on one line, or on two when one would cut it: the
// screen gives up a line of its body so that every key shows.
func footerLines(w int, bs ...key.Binding) []string {
	first, second := gameui.Footer2(w, bs...)
	if second == "" {
		return []string{first}
	}
	return []string{first, second}
}
