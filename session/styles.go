package session

import (
	"charm.land/lipgloss/v2"

	"parlor/session/gameui"
)

// The palette: colours are downsampled (or dropped for TERM=dumb and NO_COLOR) by the
// program's colour profile, so the styles only say what things are.
var (
	accent     = gameui.Accent.Color()
	dim        = gameui.Dim.Color()
	titleStyle = lipgloss.NewStyle().Bold(true).Reverse(true)
	headStyle  = lipgloss.NewStyle().Bold(true).Foreground(accent)
	dimStyle   = lipgloss.NewStyle().Foreground(dim)
	errStyle   = lipgloss.NewStyle().Bold(true).Foreground(gameui.Error.Color())
	okStyle    = lipgloss.NewStyle().Foreground(gameui.OK.Color())
	keyStyle   = lipgloss.NewStyle().Bold(true)
	selStyle   = lipgloss.NewStyle().Reverse(true)
)
