package server

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// A line over apiMaxLine is read to its end and refused, and the lines after it are
// read as usual; one that the client ends without a newline is refused, then the input
// ends.
func TestAnAPILineTooLongIsSkippedAndTheNextRead(t *testing.T) {
	long := strings.Repeat("x", apiMaxLine+5000) // past the limit by more than a read
	for _, c := range []struct {
		name, input string
		want        []string // "" for errLineTooLong
	}{
		{"between lines", "a\n" + long + "\nb\n", []string{"a", "", "b"}},
		{"last, with no newline", "a\n" + long, []string{"a", ""}},
		{"just short enough", long[5000:] + "\n", []string{long[5000:]}},
	} {
		r := bufio.NewReaderSize(strings.NewReader(c.input), 4096)
		for i, want := range c.want {
			got, err := readLine(r)
			switch {
			case want == "" && !errors.Is(err, errLineTooLong):
				t.Errorf("%s: line %d: %q, %v; want errLineTooLong", c.name, i, shorten(got), err)
			case want != "" && (err != nil || string(got) != want):
				t.Errorf("%s: line %d: %q, %v; want %q", c.name, i, shorten(got), err, shorten([]byte(want)))
			}
		}
		if got, err := readLine(r); err != io.EOF {
			t.Errorf("%s: after the lines: %q, %v; want io.EOF", c.name, shorten(got), err)
		}
	}
}

func shorten(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "…"
	}
	return string(b)
}
