package rules

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Sentinel errors carry a stable code, so that an error keeps its identity wherever it
// travels: from a table on another node of a cluster, or through the JSON API. The code
// is declared once, with the error (Sentinel); a wire carries Wire{Code, Text}; Err
// turns it back into the very sentinel (errors.Is holds) with the very same text.

// Coded is a sentinel error with a stable code. Declare one with Sentinel.
type Coded struct{ code, text string }

// Error is the text players read.
func (e *Coded) Error() string { return e.text }

// Code is the error's stable name on every wire, e.g. "lobby.full".
func (e *Coded) Code() string { return e.code }

var (
	codesMu sync.RWMutex
	codes   = map[string]*Coded{}
)

// Sentinel declares a sentinel error with a stable code, at package level. It panics on
// a code declared twice, which is a programming error.
func Sentinel(code, text string) error {
	codesMu.Lock()
	defer codesMu.Unlock()
	if code == "" {
		panic("rules: a sentinel error needs a code: " + text)
	}
	if _, dup := codes[code]; dup {
		panic("rules: duplicate error code " + code)
	}
	e := &Coded{code: code, text: text}
	codes[code] = e
	return e
}

// Sentinels lists every declared sentinel error, ordered by code.
func Sentinels() []*Coded {
	codesMu.RLock()
	defer codesMu.RUnlock()
	out := make([]*Coded, 0, len(codes))
	for _, e := range codes {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out
}

// ErrorCode is the code of the sentinel err is or wraps; "" for an error without one.
func ErrorCode(err error) string {
	var c *Coded
	if errors.As(err, &c) {
		return c.code
	}
	return ""
}

// Wire is an error as it crosses a wire: the code of the sentinel it wraps, if any, and
// its whole text. The zero value is no error.
type Wire struct {
	Code string `json:"code,omitempty"`
	Text string `json:"error,omitempty"`
}

// ToWire is err ready to cross a wire; nil for no error.
func ToWire(err error) *Wire {
	if err == nil {
		return nil
	}
	return &Wire{Code: ErrorCode(err), Text: err.Error()}
}

// Err is the error again on the receiving side: the sentinel itself when the text is
// its own, the text wrapping the sentinel when the sender said more ("table ABCD: the
// table is full"), and a plain error with the text for an unknown or absent code.
func (w *Wire) Err() error {
	if w == nil || (w.Code == "" && w.Text == "") {
		return nil
	}
	codesMu.RLock()
	c := codes[w.Code]
	codesMu.RUnlock()
	switch {
	case c == nil:
		if w.Text == "" {
			return fmt.Errorf("error %s", w.Code)
		}
		return errors.New(w.Text)
	case w.Text == c.text || w.Text == "":
		return c
	default:
		return &worded{text: w.Text, err: c}
	}
}

// Worded is err told in other words, for the one who reads it: errors.Is still finds err
// (and its code crosses every wire), while the text is text.
func Worded(err error, text string) error { return &worded{text: text, err: err} }

// worded is a sentinel told in other (or more) words.
type worded struct {
	text string
	err  error
}

func (e *worded) Error() string { return e.text }
func (e *worded) Unwrap() error { return e.err }
