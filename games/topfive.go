package games

import (
	_ "parlor/rules/topfive"   // Top Five's engine and bot
	_ "parlor/session/topfive" // Top Five's screen
)
