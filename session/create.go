package session

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parlor/rules"
	"parlor/session/gameui"
)

// createScreen picks a game and its options for a new table.
type createScreen struct {
	games   []*rules.Spec
	game    int
	row     int // 0: the game; 1..len(options): an option; then "private"
	opts    rules.Options
	private bool
	rules   *pager // the selected game's rules
	// tableOptions gives the options the table keeps beyond the game's (away players, and
	// the deck, with the player's packs and the published ones, and the family filter),
	// fetched into own when the game changes.
	tableOptions func(gameID string) []rules.Option
	own          []rules.Option
}

func newCreateScreen(tableOptions func(gameID string) []rules.Option) *createScreen {
	c := &createScreen{games: rules.Games(), rules: newPager(), tableOptions: tableOptions}
	if len(c.games) > 0 {
		c.pick(0)
	}
	return c
}

// pick selects game i with its default options.
func (c *createScreen) pick(i int) {
	c.game = i
	c.opts = c.spec().Defaults()
	c.own = c.tableOptions(c.spec().ID)
	for _, opt := range c.own {
		c.opts[opt.Key] = opt.Default
	}
}

func (c *createScreen) spec() *rules.Spec { return c.games[c.game] }

// options are the rows a player sets: the game's options, then the table's own.
func (c *createScreen) options() []rules.Option {
	return append(append([]rules.Option(nil), c.spec().Options...), c.own...)
}

func (c *createScreen) rows() int { return len(c.options()) + 2 }

func (c *createScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	if len(c.games) == 0 {
		m.show(screenLobby)
		return nil
	}
	ck := createKeys
	switch s := k.String(); {
	case keyMatches(k, ck.Up):
		c.row = (c.row + c.rows() - 1) % c.rows()
	case keyMatches(k, ck.Down):
		c.row = (c.row + 1) % c.rows()
	case keyMatches(k, ck.Change):
		d := 1
		if s == "left" || s == "h" {
			d = -1
		}
		c.change(d)
	case keyMatches(k, ck.Create):
		return m.enter(m.o.Lobby.Create(m.o.Player, c.spec().ID, c.opts, c.private))
	case keyMatches(k, ck.Back):
		m.show(screenLobby)
	default:
		// The rules beside the rows scroll with the page keys; ↑↓ choose rows here.
		switch s {
		case "pgup", "pgdown", "home", "end":
			c.rules.key(k)
		}
	}
	return nil
}

// change moves the value of the selected row by d.
func (c *createScreen) change(d int) {
	switch {
	case c.row == 0:
		c.pick((c.game + len(c.games) + d) % len(c.games))
		c.rules = newPager()
	case c.row <= len(c.options()):
		opt := c.options()[c.row-1]
		c.opts[opt.Key] = cycle(opt.Choices, c.opts[opt.Key], d)
	default:
		c.private = !c.private
	}
}

func cycle(choices []string, cur string, d int) string {
	for i, v := range choices {
		if v == cur {
			return choices[(i+len(choices)+d)%len(choices)]
		}
	}
	return choices[0]
}

func (c *createScreen) render(m *Model, w, h int) []string {
	out := []string{m.title(w, "parlor · new table", "")}
	if len(c.games) == 0 {
		return append(out, block("No games are installed.", w, h-1)...)
	}
	spec := c.spec()
	leftW := 40
	var left []string
	row := func(i int, label, value string) {
		// A long value (a pack's name) keeps its start and its end, and the row its ›.
		line := fmt.Sprintf("  %-20s ‹ %s ›", label, gameui.CutMiddle(value, leftW-27))
		if i == c.row {
			line = selStyle.Paint(fit("▸"+line[1:], leftW))
		}
		left = append(left, line)
	}
	left = append(left, headStyle.Paint(" Choose a game and its options"), "")
	row(0, "Game", spec.Name)
	for i, opt := range c.options() {
		row(i+1, opt.Name, c.opts[opt.Key])
	}
	private := "no (listed)"
	if c.private {
		private = "yes (by code)"
	}
	row(c.rows()-1, "Private", private)
	left = append(left, "")
	if opts := c.options(); c.row > 0 && c.row <= len(opts) {
		opt := opts[c.row-1]
		// A value too long for its row (a pack's name) is shown whole above the help.
		if v := c.opts[opt.Key]; rules.Width(fmt.Sprintf("▸ %-20s ‹ %s ›", opt.Name, v)) > leftW {
			for _, l := range gameui.Wrap(v, leftW-2) {
				left = append(left, " "+l)
			}
		}
		for _, l := range gameui.Wrap(opt.Help, leftW-2) {
			left = append(left, dimStyle.Paint(" "+l))
		}
	}
	rightW := w - leftW - 2
	right := []string{headStyle.Paint(spec.Name) + dimStyle.Paint(" · "+playersText(spec)+" players"), ""}
	min, max := spec.PlayerRange(c.opts)
	right = append(right, gameui.Wrap(spec.Summary, rightW)...)
	for _, l := range gameui.Wrap(fmt.Sprintf("With these options: %s.", playerRange(min, max)), rightW) {
		right = append(right, dimStyle.Paint(l))
	}
	right = append(right, "")
	ck := createKeys
	foot := footerLines(w, helpKey, ck.Create, ck.Up, ck.Change, bind("pgup pgdn", "rules", "pgup", "pgdown"), ck.Back)
	status := m.statusLines(w, statusMax, "")
	bodyH := h - 1 - len(status) - len(foot) // below the title, above the status
	rulesH := bodyH - len(right) - 1
	c.rules.set(specRules(spec, rightW), rightW, rulesH)
	right = append(right, c.rules.view()...)
	right = append(right, dimStyle.Paint("Rules: "+c.rules.position()))
	body := columns(2, blockOf(left, leftW, bodyH), blockOf(right, rightW, bodyH))
	out = append(out, body...)
	out = append(out, status...)
	return append(out, foot...)
}

func playerRange(min, max int) string {
	if min == max {
		return fmt.Sprintf("exactly %d players", min)
	}
	return fmt.Sprintf("%d to %d players", min, max)
}
