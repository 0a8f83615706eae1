package lobby

import (
	"encoding/json"
	"testing"
)

func TestCleanActionCleansEveryStringAndNothingElse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"clue","text":"\u001b[1mbold\u001b[0m"}`, `{"text":"bold","type":"clue"}`},
		{`{"type":"x","list":["a\u202eb",{"deep":" c\n"}],"n":12345678901234567890}`, `{"list":["ab",{"deep":"c"}],"n":12345678901234567890,"type":"x"}`},
		{`{"type":"pick","n":1}`, `{"type":"pick","n":1}`}, // nothing to clean: the bytes as sent
		{`{"type":`, `{"type":`}, // the game refuses it with its own message
		{`{"type":"a"} {"type":"b"}`, `{"type":"a"} {"type":"b"}`},
	} {
		if got := string(cleanAction(json.RawMessage(c.in))); got != c.want {
			t.Errorf("cleanAction(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
