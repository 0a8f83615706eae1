package storetest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"parlor/store"
)

// browserTests cover store.Browsers.
var browserTests = []struct {
	name string
	fn   func(t *testing.T, s store.Store)
}{
	{"BrowsersAddListRemove", testBrowsersAddListRemove},
	{"BrowserInvalid", testBrowserInvalid},
	{"LinkCodeWorksOnce", testLinkCodeWorksOnce},
}

func browser(n int, player int, added time.Time) store.Browser {
	id := strings.Repeat(string(rune('a'+n)), store.BrowserIDLen)
	return store.Browser{ID: id, Player: fp(player), PlayerKey: []byte{0, 0, 0, 11, byte(player)}, PublicKey: []byte{0x30, byte(n)},
		Label: "Firefox", Added: added}
}

func testBrowsersAddListRemove(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b, other := browser(0, 1, base.Add(time.Minute)), browser(1, 1, base), browser(2, 2, base)
	for _, x := range []store.Browser{a, b, other} {
		if err := s.AddBrowser(ctx, x); err != nil {
			t.Fatalf("AddBrowser(%s): %v", x.ID, err)
		}
	}
	if err := s.AddBrowser(ctx, browser(0, 2, base)); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("AddBrowser with a taken id: %v, want ErrInvalid", err)
	}
	got, err := s.Browser(ctx, a.ID)
	want := a
	want.Added = ms(a.Added)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Browser = %+v, %v; want %+v", got, err, want)
	}
	if _, err := s.Browser(ctx, browser(9, 1, base).ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Browser of an unknown id: %v, want ErrNotFound", err)
	}
	list, err := s.Browsers(ctx, fp(1))
	if err != nil || len(list) != 2 || list[0].ID != b.ID || list[1].ID != a.ID {
		t.Fatalf("Browsers = %+v, %v; want %s then %s (oldest first)", list, err, b.ID, a.ID)
	}
	// One player cannot remove another's browser.
	if err := s.RemoveBrowser(ctx, fp(1), other.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RemoveBrowser of another player's: %v, want ErrNotFound", err)
	}
	if err := s.RemoveBrowser(ctx, fp(1), a.ID); err != nil {
		t.Fatalf("RemoveBrowser: %v", err)
	}
	if _, err := s.Browser(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a removed browser is still there: %v", err)
	}
	if err := s.RemoveBrowser(ctx, fp(1), a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RemoveBrowser twice: %v, want ErrNotFound", err)
	}
	if list, _ := s.Browsers(ctx, fp(2)); len(list) != 1 || list[0].ID != other.ID {
		t.Errorf("the other player's browsers: %+v", list)
	}
}

func testBrowserInvalid(t *testing.T, s store.Store) {
	ctx := context.Background()
	short := browser(0, 1, base)
	short.ID = "abc"
	noKey := browser(1, 1, base)
	noKey.PublicKey = nil
	for _, b := range []store.Browser{short, noKey} {
		if err := s.AddBrowser(ctx, b); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("AddBrowser(%+v): %v, want ErrInvalid", b, err)
		}
	}
}

func testLinkCodeWorksOnce(t *testing.T, s store.Store) {
	ctx := context.Background()
	c := store.LinkCode{Code: "ABCD2345", Player: fp(1), PlayerKey: []byte{0, 0, 0, 11, 1}, Expires: base.Add(5 * time.Minute)}
	if err := s.AddLinkCode(ctx, c, base); err != nil {
		t.Fatalf("AddLinkCode: %v", err)
	}
	if err := s.AddLinkCode(ctx, c, base); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("AddLinkCode of a code already there: %v, want ErrInvalid", err)
	}
	late := store.LinkCode{Code: "LATE2345", Player: fp(2), PlayerKey: []byte{1}, Expires: base.Add(time.Minute)}
	if err := s.AddLinkCode(ctx, late, base); err != nil {
		t.Fatalf("AddLinkCode: %v", err)
	}
	got, err := s.TakeLinkCode(ctx, c.Code, base.Add(time.Minute))
	want := c
	want.Expires = ms(c.Expires)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("TakeLinkCode = %+v, %v; want %+v", got, err, want)
	}
	if _, err := s.TakeLinkCode(ctx, c.Code, base.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("TakeLinkCode twice: %v, want ErrNotFound", err)
	}
	if _, err := s.TakeLinkCode(ctx, late.Code, base.Add(2*time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("TakeLinkCode after it expired: %v, want ErrNotFound", err)
	}
	if _, err := s.TakeLinkCode(ctx, "NOPE2345", base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("TakeLinkCode of an unknown code: %v, want ErrNotFound", err)
	}
	if err := s.AddLinkCode(ctx, store.LinkCode{Code: "ab", Player: fp(1), PlayerKey: []byte{1}, Expires: base}, base); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("AddLinkCode of a malformed code: %v, want ErrInvalid", err)
	}
}
