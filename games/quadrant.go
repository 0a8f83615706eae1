package games

// Quadrant: place your secret word on a two-criteria plane; guess everyone else's.
import (
	_ "parlor/rules/quadrant"
	_ "parlor/session/quadrant"
)
