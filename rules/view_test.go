package rules

import "testing"

type testView struct {
	Header
	N int
}

type otherView struct{ Header }

func TestViewAs(t *testing.T) {
	if v, ok := ViewAs[testView](testView{N: 1}); !ok || v.N != 1 {
		t.Errorf("ViewAs(value) = %v, %v; want N 1, true", v, ok)
	}
	if v, ok := ViewAs[testView](&testView{N: 2}); !ok || v.N != 2 {
		t.Errorf("ViewAs(pointer) = %v, %v; want N 2, true", v, ok)
	}
	if _, ok := ViewAs[testView]((*testView)(nil)); ok {
		t.Error("ViewAs(nil pointer) is ok, want false")
	}
	if _, ok := ViewAs[testView](otherView{}); ok {
		t.Error("ViewAs(another game's view) is ok, want false")
	}
	if _, ok := ViewAs[testView](nil); ok {
		t.Error("ViewAs(nil) is ok, want false")
	}
}
