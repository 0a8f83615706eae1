package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrBadAction wraps every action that cannot be decoded.
var ErrBadAction = errors.New("bad action")

// Encode marshals an action struct for Apply. Action structs always marshal.
func Encode(action any) json.RawMessage {
	b, err := json.Marshal(action)
	if err != nil {
		panic(fmt.Sprintf("rules: action %T does not marshal: %v", action, err))
	}
	return b
}

// ActionType reads the "type" field of an action.
func ActionType(raw json.RawMessage) (string, error) {
	var t struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return "", fmt.Errorf("%w: not a JSON object", ErrBadAction)
	}
	if t.Type == "" {
		return "", fmt.Errorf("%w: missing \"type\"", ErrBadAction)
	}
	return t.Type, nil
}

// Decode unmarshals an action strictly: unknown fields and trailing data are errors.
func Decode(raw json.RawMessage, dst any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(dst); err != nil {
		return fmt.Errorf("%w: %v", ErrBadAction, err)
	}
	if d.More() {
		return fmt.Errorf("%w: trailing data", ErrBadAction)
	}
	return nil
}

// OptionDuration reads a timer option value such as "60s", "2m" or "off" (zero).
func OptionDuration(v string) time.Duration {
	if v == "" || v == "off" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0
	}
	return d
}

// Log is a short event log kept in a game's state; views copy it with Tail.
type Log []string

// Add appends an event line, keeping at most 50.
func (l *Log) Add(format string, args ...any) {
	*l = append(*l, fmt.Sprintf(format, args...))
	if len(*l) > 50 {
		*l = append((*l)[:0:0], (*l)[len(*l)-50:]...)
	}
}

// Tail copies the last n lines.
func (l Log) Tail(n int) []string {
	if len(l) < n {
		n = len(l)
	}
	return append([]string(nil), l[len(l)-n:]...)
}
