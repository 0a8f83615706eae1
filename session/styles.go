package session

import (
	"charm.land/lipgloss/v2"
)

// The palette: colours are downsampled (or dropped for TERM=dumb and NO_COLOR) by the
// program's colour profile, so the styles only say what things are.
var (
	accent      = lipgloss.Color("#E8B04B")
	dim         = lipgloss.Color("#8A8A8A")
	titleStyle  = lipgloss.NewStyle().Bold(true).Reverse(true)
	headStyle   = lipgloss.NewStyle().Bold(true).Foreground(accent)
	dimStyle    = lipgloss.NewStyle().Foreground(dim)
	errStyle    = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#F2668B"))
	okStyle     = lipgloss.NewStyle().Foreground(lipgloss.Color("#7BD88F"))
	keyStyle    = lipgloss.NewStyle().Bold(true)
	selStyle    = lipgloss.NewStyle().Reverse(true)
	cursorStyle = lipgloss.NewStyle().Reverse(true)
)
