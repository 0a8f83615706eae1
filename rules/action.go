package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrBadAction wraps every action that cannot be decoded.
var ErrBadAction = Sentinel("rules.bad_action", "bad action")

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
		return fmt.Errorf("%w: %s", ErrBadAction, JSONProblem(err, dst))
	}
	if d.More() {
		return fmt.Errorf("%w: trailing data", ErrBadAction)
	}
	return nil
}

// JSONProblem words an error from decoding a JSON object into dst (a pointer to a
// struct) for the one who sent it: which field is wrong and what it must be, or which
// fields the object may have; never the decoder's Go words. encoding/json reports an
// unknown field only in its message, so that one is read from the text.
func JSONProblem(err error, dst any) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		want := "a string"
		kind := typeErr.Type.Kind()
		if kind == reflect.Pointer {
			kind = typeErr.Type.Elem().Kind()
		}
		switch kind {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			want = "a whole number" // 1.5 and 1e30 are numbers too
		case reflect.Float32, reflect.Float64:
			want = "a number"
		case reflect.Bool:
			want = "true or false"
		case reflect.Slice, reflect.Array:
			want = "a list"
		case reflect.Map, reflect.Struct:
			want = "an object"
		}
		if typeErr.Type.Kind() != reflect.Map && slices.Contains(jsonFieldsOf(dst), jsonField{typeErr.Field, reflect.Map}) {
			// A value inside an object of values: {"options": {"placement_time": 30}}
			// (not the object itself: {"options": [1, 2]}).
			return fmt.Sprintf("every value in %q must be %s", typeErr.Field, want)
		}
		return fmt.Sprintf("%q must be %s", typeErr.Field, want)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		var names []string
		for _, f := range jsonFieldsOf(dst) {
			names = append(names, strconv.Quote(f.name))
		}
		if len(names) > 0 {
			return fmt.Sprintf("%s is not a field of this action: it has %s", field, List(names))
		}
		return fmt.Sprintf("%s is not a field of this action", field)
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "not a whole JSON object"
	}
	return "its fields could not be read"
}

// jsonField is a field of a struct as JSON names it.
type jsonField struct {
	name string
	kind reflect.Kind
}

// jsonFieldsOf are the fields of the struct dst points to, under their JSON names.
func jsonFieldsOf(dst any) []jsonField {
	t := reflect.TypeOf(dst)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []jsonField
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name, f.Type.Kind()})
	}
	return out
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

// Refusal is what a player reads of a refused action, in every door: an engine's error
// starts with its game's id for the logs ("fingertip: taken — pick another"), which
// means nothing to a player, so that goes, and the sentence starts with a capital.
func Refusal(game string, err error) string {
	s := err.Error()
	if game != "" {
		s = strings.TrimPrefix(s, game+": ")
	}
	if r, n := utf8.DecodeRuneInString(s); n > 0 && r != utf8.RuneError {
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}
