package games

import (
	_ "parlor/rules/talltale"   // registers the Tall Tale rules
	_ "parlor/session/talltale" // registers the Tall Tale screen
)
