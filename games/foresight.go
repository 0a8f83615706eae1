package games

// Foresight: answer questions about yourself, predict your friends and wager on it.
import (
	_ "parlor/rules/foresight"
	_ "parlor/session/foresight"
)
