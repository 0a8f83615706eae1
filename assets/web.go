package assets

import "embed"

// Web is the browser door's page and its files (server/web.go): the page, its script
// and style, and xterm.js with its fit add-on (npm @xterm/xterm 6.0.0 and
// @xterm/addon-fit 0.11.0, unchanged, with their licence), so that no request leaves
// for another host.
//
//go:embed web
var Web embed.FS
