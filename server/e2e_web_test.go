package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlor/internal/testkit/e2e"
)

// The browser door in a real browser: Debian's chromium, headless, driven by chromedp.
// One browser for the whole test, a tab per player, to keep it quick.

// chromium finds the browser, or skips: CI installs it (.ci/run).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium here: the browser door's browser tests need it (apt-get install -y chromium)")
	return ""
}

// browser starts one headless chromium for the test. A start that fails is tried again
// (twice): on a busy CI box chromium once exited as it started (its crash reporter's
// lines and nothing else), which says nothing about the door.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 800),
	)
	var err error
	for range 3 {
		actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelB := chromedp.NewContext(actx)
		if err = chromedp.Do(ctx); err == nil { // starts the browser, for as long as ctx lives
			t.Cleanup(cancel)
			t.Cleanup(cancelB)
			return ctx
		}
		cancelB()
		cancel()
		t.Logf("chromium did not start, trying again: %v", err)
	}
	t.Fatalf("chromium did not start: %v", err)
	return nil
}

// tab is one page in the test's browser.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func openTab(t *testing.T, b context.Context, url string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab, for as long as ctx lives
		t.Fatalf("a new tab: %v", err)
	}
	tb := &tab{t: t, ctx: ctx}
	tb.run(chromedp.Navigate(url))
	return tb
}

func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, e2e.Wait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the tab and gives its value.
func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, e2e.Wait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.t.Fatalf("browser: %s: %v", js, err)
	}
	return v
}

// screen is the text of the terminal's rows, as xterm.js draws them.
func (tb *tab) screen() string {
	ctx, cancel := context.WithTimeout(tb.ctx, e2e.Wait)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.xterm-rows')||{innerText:''}).innerText`))
	return strings.ReplaceAll(s, "\u00a0", " ")
}

// waitFor waits until every text shows in the terminal.
func (tb *tab) waitFor(texts ...string) string {
	tb.t.Helper()
	deadline := time.Now().Add(e2e.Wait)
	for {
		scr := tb.screen()
		if e2e.Shows(scr, texts...) {
			return scr
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("waited %s for %q; the browser shows:\n%s", e2e.Wait, texts, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitJS waits until a JavaScript expression is true.
func (tb *tab) waitJS(what, js string) {
	tb.t.Helper()
	deadline := time.Now().Add(e2e.Wait)
	for {
		if eval[bool](tb, js) {
			return
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("waited %s for %s; the browser shows:\n%s", e2e.Wait, what, tb.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// press types into the focused terminal: kb's named keys as key events, text as a
// keyboard's text input (a key event for a letter would type it twice in xterm.js:
// once for its keydown's text, once for its char event).
func (tb *tab) press(keys ...string) {
	tb.t.Helper()
	for _, k := range keys {
		if strings.ContainsAny(k, kb.Enter+kb.Backspace+kb.Escape+kb.Tab+kb.ArrowLeft+kb.ArrowRight+kb.ArrowUp+kb.ArrowDown) {
			tb.run(chromedp.KeyEvent(k))
		} else {
			tb.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: k})
				return err
			}))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pressUntil presses key until text shows (at most n times). Each press must change the
// screen, and the next is pressed only once it has: one pressed before the last showed
// could go past the text (a busy machine running the race detector took more than two
// seconds to show one, and the game list went round past the game).
func (tb *tab) pressUntil(key, text string, n int) {
	tb.t.Helper()
	for range n {
		before := tb.screen()
		if strings.Contains(before, text) {
			return
		}
		tb.press(key)
		deadline := time.Now().Add(e2e.Wait)
		for tb.screen() == before {
			if time.Now().After(deadline) {
				tb.t.Fatalf("waited %s for a press of %q to show; the browser shows:\n%s", e2e.Wait, key, before)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	tb.waitFor(text)
}

// shot saves a screenshot when PARLOR_WEB_SHOTS names a directory: how the page looks.
func (tb *tab) shot(name string) {
	dir := os.Getenv("PARLOR_WEB_SHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tb.ctx, e2e.Wait)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
}

var linkRE = regexp.MustCompile(`http://HOST:\d+/link/[A-Z0-9]+`)

func TestBrowserDoor(t *testing.T) {
	b := browser(t)
	s := e2e.Start(t, nil)
	door := "http://" + s.WebAddr()
	_, port, _ := strings.Cut(s.WebAddr(), ":")

	// The lobby renders in a browser, and a guest plays at once.
	cleo := openTab(t, b, door+"/")
	cleo.waitFor("Welcome to parlor", "guest")
	cleo.shot("name")
	cleo.press(kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace, "Cleo", kb.Enter)
	cleo.waitFor("Open tables", "you are Cleo")
	cleo.shot("lobby")

	// The screen-reader switch turns xterm.js's mode on (its accessibility tree) and
	// tells of parlor's linear mode, with this server's ssh command.
	cleo.run(chromedp.Click(chromedp.ID("reader")))
	cleo.waitJS("the screen-reader mode", `document.querySelector('.xterm-accessibility') !== null && !document.getElementById('reader-note').hidden`)
	if note := eval[string](cleo, `document.getElementById('reader-note').textContent`); !strings.Contains(note, "linear mode") || !strings.Contains(note, "ssh -p ") || !strings.Contains(note, " plain") {
		t.Errorf("the screen-reader note: %q", note)
	}
	cleo.run(chromedp.Click(chromedp.ID("reader")))
	if focused := eval[bool](cleo, `document.activeElement.classList.contains('xterm-helper-textarea')`); !focused {
		t.Error("after the switch the terminal does not have the keys")
	}

	// The guest creates a table; an SSH player joins it and they chat.
	cleo.press("c")
	cleo.waitFor("Choose a game")
	cleo.pressUntil(kb.ArrowRight, "‹ Pick ›", 12)
	cleo.press(kb.Enter)
	code := ""
	deadline := time.Now().Add(e2e.Wait)
	for code == "" {
		if m := regexp.MustCompile(`table ([A-Z]{4})\b`).FindStringSubmatch(cleo.screen()); m != nil {
			code = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no table code:\n%s", cleo.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cleo.waitFor("/t/" + code) // the table's link, beside its code
	cleo.shot("table")
	ann, annKey := newPlayer(t, s, "Ann")
	joinTable(t, ann, code)
	cleo.waitFor("Ann sits down")
	ann.Press("enter", "hi Cleo", "enter")
	cleo.waitFor("Ann: hi Cleo")
	cleo.press(kb.Enter, "hi Ann, from a browser", kb.Enter)
	ann.WaitFor("Cleo: hi Ann, from a browser")

	// /t/CODE seats a second browser.
	dot := openTab(t, b, door+"/t/"+code)
	dot.waitFor("Welcome to parlor")
	dot.press(kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace+kb.Backspace, "Dot", kb.Enter)
	dot.waitFor("table "+code, "Dot", "← you")
	ann.WaitFor("Dot sits down", "Seats 3/4")

	// /w/CODE watches, and its keys do not reach the game: no seat, no host's keys.
	eve := openTab(t, b, door+"/w/"+code)
	eve.waitFor("Welcome to parlor")
	eve.press("Eve", kb.Enter)
	eve.waitFor("table "+code, "watching")
	ann.WaitFor("1 watching")
	eve.press("b", "s", "x")
	// Her session handles her keys in order, and the table tells Ann of its changes in
	// order: once Ann sees the chat Eve sent after those keys, she sees what they did.
	eve.press(kb.Enter, "eve was here", kb.Enter)
	if scr := ann.WaitFor("eve was here"); !strings.Contains(scr, "Seats 3/4") || !strings.Contains(scr, "· waiting") {
		t.Fatalf("a watcher's keys changed the table:\n%s", scr)
	}

	// link binds a browser to Ann's key: after a reload it is still Ann; the code works once.
	out, _, err := s.Run(t, annKey, "link")
	if err != nil {
		t.Fatalf("link: %v %s", err, out)
	}
	url := linkRE.FindString(out)
	if url == "" {
		t.Fatalf("link printed no address:\n%s", out)
	}
	url = strings.Replace(url, "HOST", "127.0.0.1", 1)
	if !strings.Contains(url, ":"+port+"/") {
		t.Fatalf("link's address %s is not the door's (port %s)", url, port)
	}
	ann.Close()
	linked := openTab(t, b, url)
	linked.waitFor("you are Ann", "table "+code+" is waiting for you") // Ann, as over SSH
	// The terminal has the keys as soon as the screen shows, though the page may still
	// be saving its new key (a key pressed meanwhile was lost on a busy machine).
	if focused := eval[bool](linked, `document.activeElement.classList.contains('xterm-helper-textarea')`); !focused {
		t.Error("once the linked page shows the lobby the terminal does not have the keys")
	}
	linked.press("r")
	linked.waitFor("table "+code, "← you") // her seat, taken back
	linked.waitJS("the page to say it is linked", `document.getElementById('status').textContent.startsWith('linked')`)
	cleo.waitFor("Ann") // still at the table
	linked.run(chromedp.Reload())
	linked.waitFor("you are Ann")
	linked.waitJS("the reloaded page to sign in with its key", `document.getElementById('status').textContent.startsWith('linked')`)
	if path := eval[string](linked, `location.pathname`); path != "/" {
		t.Errorf("after a link the page's address is %q; want / (the code spent)", path)
	}
	again := openTab(t, b, url)
	again.waitJS("the spent code to be refused", `!document.getElementById('closed').hidden`)
	if why := eval[string](again, `document.getElementById('closed-why').textContent`); !strings.Contains(why, "used or expired") {
		t.Errorf("a spent link code: %q", why)
	}
	list, _, err := s.Run(t, annKey, "link list")
	if err != nil || !strings.Contains(list, "Chrome on Linux") {
		t.Fatalf("link list: %v\n%s", err, list)
	}

	// A page of another site cannot open a session.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<!doctype html><script>
window.result = 'pending';
const ws = new WebSocket('ws://%s/ws');
ws.onopen = () => { window.result = 'opened'; };
ws.onerror = () => { window.result = 'refused'; };
</script>`, s.WebAddr())
	}))
	defer evil.Close()
	foreign := openTab(t, b, evil.URL)
	foreign.waitJS("the foreign page's WebSocket to settle", `window.result !== 'pending'`)
	if result := eval[string](foreign, `window.result`); result != "refused" {
		t.Errorf("a foreign page's WebSocket: %s", result)
	}
	if n := metric(t, s, `parlor_refused_total{reason="origin"}`); n != 1 {
		t.Errorf("refused for their origin: %v; want 1", n)
	}

	// A phone: the key row shows, and the terminal is at least 80×24.
	phone := openTab(t, b, door+"/")
	phone.run(chromedp.EmulateViewport(412, 915, chromedp.EmulateScale(2.6), chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Reload())
	scr := phone.waitFor("you are Ann") // the same browser: still linked
	phone.waitJS("the key row", `!document.getElementById('keys').hidden`)
	if title, _, _ := strings.Cut(scr, "\n"); utf8.RuneCountInString(title) < 80 {
		t.Errorf("the phone's terminal is narrower than 80 columns:\n%s", scr)
	}
	phone.shot("phone")
}
