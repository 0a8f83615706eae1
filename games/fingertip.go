package games

import (
	_ "parlor/rules/fingertip"   // Fingertip's engine and bot
	_ "parlor/session/fingertip" // Fingertip's screen
)
