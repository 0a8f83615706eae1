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
// whole event log. A viewport keeps the scroll position; home/end are added to its keys.
//
// The viewport is made when the pager first scrolls (or its text has line breaks for the
// viewport to split). Until then the pager shows its text from the top without one:
// every seat at a waiting room shows the rules, few scroll them, and a viewport with its
// key map and styles was 8 KB of garbage per login and 2–3 KB a seated player kept for
// the collector to scan.
type pager struct {
	vp    *viewport.Model // nil until needed (scroller)
	lines []string
	w, h  int
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
func newPager() *pager { return &pager{} }

// scroller is the pager's viewport, made with its text, size and keys if it has none.
func (p *pager) scroller() *viewport.Model {
	if p.vp == nil {
		vp := viewport.New()
		km := viewport.DefaultKeyMap()
		km.Up, km.Down, km.PageUp, km.PageDown = pagerKeys.Up, pagerKeys.Down, pagerKeys.PageUp, pagerKeys.PageDown
		km.Left, km.Right = key.NewBinding(key.WithDisabled()), key.NewBinding(key.WithDisabled())
		vp.KeyMap = km
		vp.SetWidth(p.w)
		vp.SetHeight(p.h)
		p.vp = &vp
		p.fill(0)
	}
	return p.vp
}

// fill gives the viewport the pager's lines, at offset off as far as they reach.
func (p *pager) fill(off int) {
	lines := p.lines
	if p.multi {
		// The viewport splits such lines in place, and lines may be shared
		// (rulesCache): it gets a copy. Without them it only reads them.
		lines = slices.Clone(lines)
	}
	p.vp.SetContentLines(lines)
	p.vp.SetYOffset(off)
}

// offset is the first line shown.
func (p *pager) offset() int {
	if p.vp == nil {
		return 0
	}
	return p.vp.YOffset()
}

// set gives the pager its text and size; the scroll position stays where it can.
func (p *pager) set(lines []string, w, h int) {
	p.w, p.h = w, h
	if p.vp != nil {
		p.vp.SetWidth(w)
		p.vp.SetHeight(h)
	}
	if !equal(lines, p.lines) {
		p.lines = lines
		p.multi = slices.ContainsFunc(lines, func(l string) bool { return strings.ContainsAny(l, "\r\n") })
		if p.vp != nil {
			p.fill(p.vp.YOffset())
		} else if p.multi {
			p.scroller()
		}
		p.shown = nil
	}
}

// key scrolls; it reports whether k was a scrolling key.
func (p *pager) key(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, pagerKeys.Home):
		p.scroller().GotoTop()
	case key.Matches(k, pagerKeys.End):
		p.scroller().GotoBottom()
	case key.Matches(k, pagerKeys.Up, pagerKeys.Down, pagerKeys.PageUp, pagerKeys.PageDown):
		vp := p.scroller()
		*vp, _ = vp.Update(k)
	default:
		return false
	}
	return true
}

// view is the visible part, exactly the pager's size.
func (p *pager) view() []string {
	at := pagerAt{p.offset(), p.w, p.h}
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

// percent is position without the line numbers: "40%", or "all shown".
func (p *pager) percent() string {
	if _, _, total, percent := p.scrolled(); total > p.h {
		return fmt.Sprintf("%d%%", percent)
	}
	return "all shown"
}

// position says where the view is, e.g. "lines 21–40 of 58 · 34%", or "all shown" when
// the whole text fits.
func (p *pager) position() string {
	first, last, total, percent := p.scrolled()
	if total <= p.h {
		return "all shown"
	}
	return fmt.Sprintf("lines %d–%d of %d · %d%%", first, last, total, percent)
}

// scrolled is where the pager is: the lines shown, of how many, and how far down.
func (p *pager) scrolled() (first, last, total, percent int) {
	total = len(p.lines) // at the top
	if p.vp != nil {
		total, percent = p.vp.TotalLineCount(), int(p.vp.ScrollPercent()*100+0.5)
	}
	return p.offset() + 1, min(total, p.offset()+p.h), total, percent
}

// scrollKeys are the pager's keys for a footer.
func scrollKeys() []key.Binding {
	return []key.Binding{pagerKeys.Up, pagerKeys.PageUp, pagerKeys.Home}
}

// footerLine fits key bindings into a footer of width w.
func footerLine(w int, bs ...key.Binding) string { return gameui.Footer(w, bs...) }

// footerLines is a screen's key help on one line, or on two when one would cut it: the
// screen gives up a line of its body so that every key shows.
func footerLines(w int, bs ...key.Binding) []string { return gameui.Footer2(w, bs...) }
