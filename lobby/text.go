package lobby

import (
	"bytes"
	"encoding/json"
	"strings"

	"parlor/playertext"
)

// chatMax is the longest chat line, in terminal columns.
const chatMax = 200

// cleanAction passes every string in a game action through the one sanitiser, so the
// games' texts (a Fingertip clue, a Tall Tale story, whatever a future game adds) are
// cleaned by the same rules as names and chat, and the engines need no cleaner of their
// own. Numbers keep their exact text. JSON that does not decode is returned as it is:
// the game refuses it with its own message.
func cleanAction(raw json.RawMessage) json.RawMessage {
	out, _ := cleanActionTexts(raw)
	return out
}

// cleanActionTexts is cleanAction that also returns the action's free texts, cleaned:
// every string in it but its "type". No game's action has a string that a player does
// not write (cards, seats and choices are numbers), so the lobby finds a clue or a story
// without knowing the game, for the family filter and a server-wide mute.
func cleanActionTexts(raw json.RawMessage) (json.RawMessage, []string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return raw, nil
	}
	w := stringWalk{}
	v = w.clean(v, true)
	if !w.changed {
		return raw, w.texts
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw, w.texts
	}
	return out, w.texts
}

// stringWalk cleans every string value (not the keys) inside a decoded JSON value;
// changed is set if any string changed, and texts are the strings but the top-level
// "type" that hold something.
type stringWalk struct {
	changed bool
	texts   []string
}

func (w *stringWalk) clean(v any, top bool) any {
	switch v := v.(type) {
	case string:
		c := playertext.Clean(v)
		w.changed = w.changed || c != v
		return c
	case []any:
		for i, e := range v {
			v[i] = w.clean(e, false)
			w.text(v[i])
		}
	case map[string]any:
		for k, e := range v {
			v[k] = w.clean(e, false)
			if !top || k != "type" {
				w.text(v[k])
			}
		}
	}
	return v
}

func (w *stringWalk) text(v any) {
	if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
		w.texts = append(w.texts, s)
	}
}
