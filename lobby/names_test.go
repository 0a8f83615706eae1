package lobby_test

import (
	"errors"
	"strings"
	"testing"

	"parlor/lobby"
)

// A name is one online player's: another key (or guest) is refused it, in any case and
// in letters that look alike, until the first one leaves or changes it; the same key on
// a second connection keeps it.
func TestOnlineNamesAreUnique(t *testing.T) {
	l := newLobby(t)
	bob := l.Connected("SHA256:bob")
	if err := bob.Name("Bob"); err != nil {
		t.Fatal(err)
	}
	eve := l.Connected("guest:eve")
	defer eve.Done()
	for _, name := range []string{"Bob", "bob", "BOB", "Böb", "B0b", "ʙoʙ"} {
		err := eve.Name(name)
		if !errors.Is(err, lobby.ErrNameInUse) {
			t.Fatalf("%q while Bob is online: %v, want ErrNameInUse", name, err)
		}
		if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "please pick another name") {
			t.Errorf("the refusal does not name %q and say what to do: %q", name, err)
		}
	}
	if err := eve.Name("Eve"); err != nil {
		t.Fatal(err)
	}
	if err := bob.Name("Eve"); !errors.Is(err, lobby.ErrNameInUse) {
		t.Fatalf("Bob took Eve's name: %v", err)
	}

	again := l.Connected("SHA256:bob") // Bob's second terminal
	if err := again.Name("Bob"); err != nil {
		t.Fatalf("the same key on a second connection: %v", err)
	}
	bob.Done()
	if err := eve.Name("Bob"); !errors.Is(err, lobby.ErrNameInUse) {
		t.Fatalf("Bob's second connection still holds the name: %v", err)
	}
	again.Done()
	again.Done() // twice is harmless
	if err := eve.Name("Bob"); err != nil {
		t.Fatalf("Bob left: %v", err)
	}
	// Eve's old name is free again.
	ann := l.Connected("SHA256:ann")
	defer ann.Done()
	if err := ann.Name("eve"); err != nil {
		t.Fatalf("Eve changed her name, the old one should be free: %v", err)
	}
	if l.Online() != 2 {
		t.Errorf("online: %d, want 2", l.Online())
	}
}

// Names that differ only in letters that look alike are one, however the look-alike is
// made: a capital I, a digit 1 or a small capital for an l; and names that only share
// letters are two.
func TestLookAlikeNamesAreOne(t *testing.T) {
	l := newLobby(t)
	for _, c := range []struct {
		online string
		same   []string
		other  []string
	}{
		{"Bill", []string{"BiII", "Bi11", "B1ll", "BILL", "ʙɪʟʟ"}, []string{"Bell", "Bil", "Billy"}},
		{"Olga", []string{"OIga", "0lga", "oʟga", "OLGA"}, []string{"Olgo", "Anne-Marie"}},
		{"Anne-Marie", []string{"ANNE-MARIE", "Aɴɴe-Marie"}, []string{"Anne Marie", "AnneXMarie"}},
	} {
		holder := l.Connected("SHA256:" + c.online)
		if err := holder.Name(c.online); err != nil {
			t.Fatal(err)
		}
		other := l.Connected("guest:" + c.online)
		for _, name := range c.same {
			if err := other.Name(name); !errors.Is(err, lobby.ErrNameInUse) {
				t.Errorf("%q while %q is online: %v", name, c.online, err)
			}
		}
		for _, name := range c.other {
			if err := other.Name(name); err != nil {
				t.Errorf("%q while %q is online: %v", name, c.online, err)
			}
		}
		other.Done()
		holder.Done()
	}
}
