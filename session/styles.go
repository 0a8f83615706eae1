package session

import (
	"charm.land/lipgloss/v2"

	"parlor/session/gameui"
)

// The palette: colours are downsampled (or dropped for TERM=dumb and NO_COLOR) by the
// program's colour profile, so the styles only say what things are.
var (
	accent = gameui.Accent.Color()
	dim    = gameui.Dim.Color()
)

// The screens' styles, as inks (gameui.Ink): a screen paints dozens of short runs in
// them per frame, and lipgloss.Style.Render walks the whole style each time.
var (
	titleStyle = gameui.InkOf(lipgloss.NewStyle().Bold(true).Reverse(true))
	headStyle  = gameui.InkOf(lipgloss.NewStyle().Bold(true).Foreground(accent))
	dimStyle   = gameui.InkOf(lipgloss.NewStyle().Foreground(dim))
	errStyle   = gameui.InkOf(lipgloss.NewStyle().Bold(true).Foreground(gameui.Error.Color()))
	okStyle    = gameui.InkOf(lipgloss.NewStyle().Foreground(gameui.OK.Color()))
	keyStyle   = gameui.InkOf(lipgloss.NewStyle().Bold(true))
	selStyle   = gameui.InkOf(lipgloss.NewStyle().Reverse(true))
)
