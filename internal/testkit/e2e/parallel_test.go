package e2e

import (
	"flag"
	"strconv"
	"testing"
)

func TestMostlyWaitingRaisesParallelUnlessGiven(t *testing.T) {
	f := flag.Lookup("test.parallel")
	before := f.Value.String()
	t.Cleanup(func() { _ = f.Value.Set(before) })
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	n, err := strconv.Atoi(before)
	if err != nil {
		t.Fatal(err)
	}
	MostlyWaiting(n + 3)
	want := strconv.Itoa(n + 3)
	if given { // go test -parallel N: the command line wins
		want = before
	}
	if got := f.Value.String(); got != want {
		t.Errorf("-parallel is %s after MostlyWaiting(%d), want %s (given on the command line: %v)", got, n+3, want, given)
	}
}
