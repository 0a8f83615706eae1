package session

import (
	"fmt"
	"strings"
	"sync"

	"parlor/rules"
	"parlor/session/gameui"
)

// rulesOf is a game's complete rules, or its one paragraph for a game that has no more.
func rulesOf(spec *rules.Spec) string {
	if spec.Rules != "" {
		return spec.Rules
	}
	return "# " + spec.Name + "\n" + spec.HowToPlay
}

// rulesLines lays out a game's rules text (rules.Spec.Rules) for a width: "# " and "## "
// lines are headings, "- " lines list items with a hanging indent ("  - " an item's own
// items, under it), other lines paragraphs. The text is our own light markdown, so a
// full markdown renderer is not needed.
func rulesLines(text string, w int) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		sub := strings.HasPrefix(line, "  - ")
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case sub:
			for i, l := range gameui.Wrap(strings.TrimPrefix(line, "- "), w-4) {
				if i == 0 {
					out = append(out, "  ◦ "+l)
				} else {
					out = append(out, "    "+l)
				}
			}
		case strings.HasPrefix(line, "# "):
			out = append(out, headStyle.Paint(strings.ToUpper(strings.TrimPrefix(line, "# "))), "")
		case strings.HasPrefix(line, "## "):
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			out = append(out, headStyle.Paint(strings.TrimPrefix(line, "## ")))
		case strings.HasPrefix(line, "- "):
			for i, l := range gameui.Wrap(strings.TrimPrefix(line, "- "), w-2) {
				if i == 0 {
					out = append(out, "• "+l)
				} else {
					out = append(out, "  "+l)
				}
			}
		default:
			out = append(out, gameui.Wrap(line, w)...)
		}
	}
	return out
}

// rulesCache keeps each game's rules laid out per width: the table and create screens
// draw them on every frame. Widths are clamped by the server, so it stays small.
var rulesCache sync.Map // "id/width" → []string

// specRules is a game's rules laid out for width w.
func specRules(spec *rules.Spec, w int) []string {
	k := fmt.Sprintf("%s/%d", spec.ID, w)
	if v, ok := rulesCache.Load(k); ok {
		return v.([]string)
	}
	lines := rulesLines(rulesOf(spec), w)
	rulesCache.Store(k, lines)
	return lines
}
