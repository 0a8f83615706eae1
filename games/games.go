// Package games links every game into the binary: each file here imports one game's rules
// package (which registers its rules.Spec) and its screen package (which registers its
// gameui.Screen). Adding a game is adding one file.
package games
