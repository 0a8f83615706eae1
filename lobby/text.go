package lobby

import (
	"bytes"
	"encoding/json"

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
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return raw
	}
	changed := false
	if v = cleanStrings(v, &changed); !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// cleanStrings cleans every string value (not the keys) inside a decoded JSON value;
// changed is set if any string changed.
func cleanStrings(v any, changed *bool) any {
	switch v := v.(type) {
	case string:
		c := playertext.Clean(v)
		*changed = *changed || c != v
		return c
	case []any:
		for i, e := range v {
			v[i] = cleanStrings(e, changed)
		}
	case map[string]any:
		for k, e := range v {
			v[k] = cleanStrings(e, changed)
		}
	}
	return v
}
