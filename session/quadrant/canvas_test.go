package quadrant

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// paintedLine is line as it was before it wrote the inks' sequences itself: every run
// painted as a string of its own (gameui.Ink.Paint).
func paintedLine(row []cell, plain bool) string {
	var b, run strings.Builder
	for i := 0; i < len(row); {
		run.Reset()
		j := i
		for ; j < len(row) && row[j].look == row[i].look; j++ {
			run.WriteRune(row[j].ch)
		}
		if plain || row[i].look.kind == noLook {
			b.WriteString(run.String())
		} else {
			b.WriteString(lookInk(row[i].look).Paint(run.String()))
		}
		i = j
	}
	return b.String()
}

// A row renders exactly as painting each run of one look does, in every look (the
// underlined one is drawn by lipgloss, not concatenated), without colour, and with
// characters that a look cannot be wrapped around (a tab).
func TestLineIsEveryRunPainted(t *testing.T) {
	looks := []look{{}, {kind: dimLook}, {kind: labelLook}, {kind: seatLook, a: 2}, {kind: focusLook, a: 3},
		{kind: stackLook}, {kind: crowdLook}, {kind: bothLook}, {kind: pairLook, a: 1, b: 4}}
	chars := []rune(" ─│A▀⁵◆\t日")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		row := make([]cell, 1+rng.IntN(50))
		l := looks[rng.IntN(len(looks))]
		for i := range row {
			if rng.IntN(4) == 0 {
				l = looks[rng.IntN(len(looks))]
			}
			row[i] = cell{ch: chars[rng.IntN(len(chars))], look: l}
		}
		for _, plain := range []bool{false, true} {
			if got, want := line(row, plain), paintedLine(row, plain); got != want {
				t.Fatalf("plain %v, row %v:\n%q\nwant\n%q", plain, row, got, want)
			}
		}
	}
}

// The plane's cells and spots hold no pointer: the canvas every table keeps and the rows
// and spots every seat keeps are then nothing for the collector to scan (with a string
// in each cell, it marked 23 MB more at 5,000 players).
func TestCellsHoldNoPointers(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[cell](), reflect.TypeFor[spot]()} {
		if p := pointerIn(typ); p != "" {
			t.Errorf("%v holds a %s", typ, p)
		}
	}
}

// pointerIn names a kind in typ that holds a pointer, or is "".
func pointerIn(typ reflect.Type) string {
	switch typ.Kind() {
	case reflect.Struct:
		for i := range typ.NumField() {
			if p := pointerIn(typ.Field(i).Type); p != "" {
				return p
			}
		}
		return ""
	case reflect.Array:
		return pointerIn(typ.Elem())
	case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return typ.Kind().String()
	}
	return ""
}
