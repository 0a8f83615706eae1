package server_test

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/packtest"
	"parlor/packs"
	"parlor/server"
)

const officeWords = "# words from our office\nStapler\nCoffee mug\nWhiteboard\nPrinter\nDesk plant\nLanyard\n"

// mustRun runs a pack command that must succeed and returns what it printed.
func mustRun(t *testing.T, s *e2e.Server, key e2e.Key, cmd, stdin string) string {
	t.Helper()
	out, errOut, err := s.RunInput(t, key, cmd, stdin)
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, errOut)
	}
	return out
}

// mustFail runs a pack command that must fail and returns its error text.
func mustFail(t *testing.T, s *e2e.Server, key e2e.Key, cmd, stdin string) string {
	t.Helper()
	out, errOut, err := s.RunInput(t, key, cmd, stdin)
	if err == nil {
		t.Fatalf("%s succeeded: %s", cmd, out)
	}
	return errOut
}

func wantHas(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s: %q does not say %q", what, got, w)
		}
	}
}

// TestPackCommand: add, list, show, share, remove and publish over SSH without a PTY,
// the name being the rest of the command line.
func TestPackCommand(t *testing.T) {
	admin, ann, ben := e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, func(c *server.Config) { c.Admins = []string{admin.Fingerprint()} })

	out := mustRun(t, s, ann, "pack add quadrant-words Office life", officeWords)
	wantHas(t, "add", out, `Stored "Office life": quadrant-words, 6 words.`)
	out = mustRun(t, s, ann, "pack add topfive-topics Büro Themen", "Montage\nKaffee\nMeetings\nDeadlines\nUrlaub\n")
	wantHas(t, "add German", out, `Stored "Büro Themen": topfive-topics, 5 topics.`)

	// A pack added under a name already taken replaces it, and says so.
	out = mustRun(t, s, ann, "pack add topfive-topics Büro Themen", "Montag\nKaffee\nMeetings\nDeadlines\nUrlaub\n")
	wantHas(t, "replace", out, `Replaced your topfive-topics pack "Büro Themen": now topfive-topics, 5 topics.`)
	mustRun(t, s, ann, "pack add quadrant-words 日本語の言葉", packtest.JapaneseWords)
	out = mustRun(t, s, ann, "pack list", "")
	wantHas(t, "list", out, "Your packs (3 of 20):", "Office life", "quadrant-words", "6 words", "Büro Themen", "Published packs:\n  none")
	// Columns line up whatever the script: a Japanese name is as wide as its characters.
	wantHas(t, "list columns", out, "  Office life           quadrant-words", "  日本語の言葉          quadrant-words")
	if got := mustRun(t, s, ann, "pack show Office life", ""); got != officeWords {
		t.Errorf("show = %q, want the file as sent", got)
	}
	if out := mustRun(t, s, ben, "pack list", ""); strings.Contains(out, "Office life") {
		t.Errorf("Ben sees Ann's pack before it is published:\n%s", out)
	}

	// Publishing is for admins; a published pack is listed for everyone.
	wantHas(t, "publish by a player", mustFail(t, s, ann, "pack publish Office life", ""), "only an admin")
	mustRun(t, s, admin, "pack add topfive-topics Party", "Karaoke\nConfetti\nBalloons\nCake\nDancing\n")
	wantHas(t, "publish", mustRun(t, s, admin, "pack publish Party", ""), `Published "Party"`)
	out = mustRun(t, s, ben, "pack list", "")
	wantHas(t, "list after publish", out, "Your packs (0 of 20):", "Published packs:", "Party", "5 topics")
	if got := mustRun(t, s, ben, "pack show Party", ""); !strings.Contains(got, "Karaoke") {
		t.Errorf("Ben cannot read a published pack: %q", got)
	}

	// Replacing keeps one pack of a name; removing forgets it.
	mustRun(t, s, ann, "pack add quadrant-words Office life", officeWords+"Paperclip\n")
	wantHas(t, "replace", mustRun(t, s, ann, "pack list", ""), "Your packs (3 of 20):", "7 words")
	// Names ignore case: one pack, under the newest spelling.
	wantHas(t, "replace in another case", mustRun(t, s, ann, "pack add quadrant-words office LIFE", officeWords),
		`Replaced your quadrant-words pack "office LIFE" (was "Office life"): now quadrant-words, 6 words.`)
	wantHas(t, "show in another case", mustRun(t, s, ann, "pack show OFFICE life", ""), "Whiteboard")
	wantHas(t, "remove", mustRun(t, s, ann, "pack remove Office life", ""), `Removed "Office life"`)
	wantHas(t, "show removed", mustFail(t, s, ann, "pack show Office life", ""), "no pack of that name")
	wantHas(t, "remove twice", mustFail(t, s, ann, "pack remove Office life", ""), "no pack of that name")
}

// TestPackHelpGivesEachKindsFormat: a player who cannot open the repository's docs
// reads a kind's format and example over ssh.
func TestPackHelpGivesEachKindsFormat(t *testing.T) {
	ann := e2e.NewKey(t)
	s := e2e.Start(t, nil)
	wantHas(t, "help", mustRun(t, s, ann, "pack help", ""), "pack help KIND", "the file format of a kind")
	wantHas(t, "help for a kind", mustRun(t, s, ann, "pack help quadrant-words", ""), "quadrant-words: at least 5 words a pack.", "One word (a concrete thing) a line.", "    Löffel")
	wantHas(t, "help for no kind", mustFail(t, s, ann, "pack help quadrant", ""), `"quadrant"`, "quadrant-words")
}

// TestPackErrors: a bad pack is refused with every problem and its line, and nothing is
// stored; so are guests, unknown kinds, missing files and unknown verbs.
func TestPackErrors(t *testing.T) {
	ann := e2e.NewKey(t)
	s := e2e.Start(t, nil)

	bad := "Stapler\nA word far too long for the quadrant plane\n\nstapler\nCoffee\x1b[31m mug\n"
	got := mustFail(t, s, ann, "pack add quadrant-words Broken", bad)
	wantHas(t, "control character", got, "The pack was not stored", "line 5: an escape character, which starts terminal escape sequences (U+001B) at column")
	// Every problem at once, not the escape alone: the long word, the repeat and the size.
	wantHas(t, "with the escape", got, "4 problems to fix", "needs at least 5 words, and this one has 2 (not counting the lines with problems)", "line 2:", "at most 24", `line 4: "stapler" repeats line 1`)
	got = mustFail(t, s, ann, "pack add quadrant-words Broken", strings.ReplaceAll(bad, "\x1b[31m", ""))
	wantHas(t, "bad words", got, "3 problems to fix", "line 2:", "at most 24", `line 4: "stapler" repeats line 1`)
	got = mustFail(t, s, ann, "pack add fingertip-pictures Wide", "== a wide picture\n"+strings.Repeat("#", 30)+"\n")
	wantHas(t, "wide picture", got, "line 2: 30 columns wide (at most 22)")
	got = mustFail(t, s, ann, "pack add talltale-illustrations Colours", "[red]\nrose | @}-,-- | roses, red flower\n")
	wantHas(t, "colour", got, `line 2: rose: forbidden form "red flower" names the board colour red`)
	got = mustFail(t, s, ann, "pack add topfive-topics Repeats", strings.Repeat("Same\n", 500))
	if n := strings.Count(got, "\n"); n > 40 || !strings.Contains(got, "500 problems to fix") || !strings.Contains(got, "…and 470 more like these.") {
		t.Errorf("500 repeats: %d lines:\n%s", n, got)
	}
	got = mustFail(t, s, ann, "pack add topfive-topics Tiny", "One\nTwo\n")
	wantHas(t, "too few", got, "a topfive-topics pack needs at least 5 topics, and this one has 2")
	wantHas(t, "after errors", mustRun(t, s, ann, "pack list", ""), "Your packs (0 of 20):")

	wantHas(t, "kind", mustFail(t, s, ann, "pack add crossword-clues Mine", "a\n"), `unknown pack kind "crossword-clues"`, "quadrant-words", "fingertip-pictures")
	wantHas(t, "no name", mustFail(t, s, ann, "pack add quadrant-words", officeWords), "needs a kind and a name")
	wantHas(t, "no file", mustFail(t, s, ann, "pack add quadrant-words Empty", ""), "The pack was not stored", "the file was empty (or none was sent)")
	wantHas(t, "verb", mustFail(t, s, ann, "pack frobnicate", ""), `unknown pack command "frobnicate"`, "pack add KIND NAME < file")
	// The commands name the server's port: "ssh HOST pack list" would dial port 22.
	_, port, _ := net.SplitHostPort(s.Addr().String())
	wantHas(t, "help", mustRun(t, s, ann, "pack", ""), "ssh -p "+port+" HOST pack add KIND NAME < file", "topfive-topics")
	wantHas(t, "empty list", mustRun(t, s, ann, "pack list", ""), "none yet: ssh -p "+port+" HOST pack add")
	wantHas(t, "guest", mustFail(t, s, e2e.Guest, "pack add quadrant-words Mine", officeWords), "guests cannot keep packs")
}

// TestPackLimits: a file over the size limit and a pack over the count limit are refused.
func TestPackLimits(t *testing.T) {
	ann := e2e.NewKey(t)
	s := e2e.Start(t, nil)
	s.FromManyAddresses() // more connections than one address may open at once

	huge := strings.Repeat("word\n", packs.MaxBytes/5+1)
	wantHas(t, "size", mustFail(t, s, ann, "pack add quadrant-words Huge", huge), "larger than 64 KiB")
	for i := range packs.MaxPacks {
		mustRun(t, s, ann, fmt.Sprintf("pack add topfive-topics Deck %d", i+1), "a\nb\nc\nd\ne\n")
	}
	wantHas(t, "count", mustFail(t, s, ann, "pack add topfive-topics One more", "a\nb\nc\nd\ne\n"), "already keep 20 packs")
	mustRun(t, s, ann, "pack add topfive-topics Deck 1", "f\ng\nh\ni\nj\n") // replacing one is fine
}

// TestPackTableOverAPI: a table created over the API plays its host's pack; a table-mate
// shares theirs with "pack share CODE NAME" or the API's "share"; a pack too small for
// the table is refused at the start, and mixed with the built-in deck it plays.
func TestPackTableOverAPI(t *testing.T) {
	annKey, benKey := e2e.NewKey(t), e2e.NewKey(t)
	s := e2e.Start(t, nil)
	mustRun(t, s, annKey, "pack add quadrant-words Office life", officeWords)
	mustRun(t, s, benKey, "pack add quadrant-words Küche", "Löffel\nGabel\nMesser\nTopf\nPfanne\nSieb\nSchüssel\n")
	mustRun(t, s, benKey, "pack add quadrant-criteria Gefühle", "gemütlicher\nlauter\nteurer\n")

	ann := s.API(t, "ann", annKey)
	ann.Send(map[string]any{"op": "create", "game": "quadrant", "options": map[string]string{"deck": "Office life"}})
	code := fmt.Sprint(ann.Expect("joined")["code"])
	ann.Until("table", func(m map[string]any) bool {
		return m["type"] == "table" && strings.Contains(fmt.Sprint(m["table"]), "deck:Office life")
	})
	ben := s.API(t, "ben", benKey)
	ben.Send(map[string]any{"op": "join", "code": code})
	ben.Expect("joined")
	wantHas(t, "share", mustRun(t, s, benKey, "pack share "+strings.ToLower(code)+" Küche", ""), `Shared "Küche" with table `+code)
	ben.Send(map[string]any{"op": "share", "pack": "Gefühle"})
	ben.Expect("ok")
	ben.Send(map[string]any{"op": "share", "pack": "Nothing"})
	wantHas(t, "share unknown", errorText(ben.Expect("error")), `no quadrant-words or quadrant-criteria pack named "Nothing"`)
	ann.Until("table", func(m map[string]any) bool {
		return m["type"] == "table" && strings.Contains(fmt.Sprint(m["table"]), "mix: Gefühle (ben)")
	})

	for range 2 {
		ann.Send(map[string]any{"op": "bot"})
		ann.Expect("ok")
	}
	ann.Send(map[string]any{"op": "start"})
	wantHas(t, "small deck", errorText(ann.Expect("error")), `the deck "Office life"`, "6 words, and this game of 4 players needs 15", "mix this one with the built-in deck")
	ann.Send(map[string]any{"op": "options", "options": map[string]string{"deck": "mix: Office life"}})
	ann.Expect("ok")
	ann.Send(map[string]any{"op": "start"})
	ann.Expect("ok")
	ann.Expect("view")
}

// TestPackTableInTheTUI: a player picks their pack as the deck on the create screen; the
// table screen shows it, a table-mate shares theirs with p, and the game deals the
// chosen pack's topics.
func TestPackTableInTheTUI(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, key := newPlayer(t, s, "Ann")
	mustRun(t, s, key, "pack add topfive-topics Übungen der Klasse 4b", packtest.Topics(30))
	ann.Press("c")
	ann.WaitFor("Choose a game")
	ann.PressUntil("right", "‹ Top Five ›", 12)
	ann.PressUntil("down", "▸ Deck", 12)
	// The name is too long for its row: the whole of it shows under the rows.
	ann.PressUntil("right", "\n Übungen der Klasse 4b", 6)
	ann.Press("enter")
	code := ann.TableCode()
	ann.WaitFor("Deck                 Übungen der Klasse 4b")

	ben, benKey := newPlayer(t, s, "Ben")
	mustRun(t, s, benKey, "pack add topfive-topics Bens Themen", packtest.Topics(12))
	joinTable(t, ben, code)
	ben.Press("p")
	ben.WaitFor("You shared 1 pack(s)")
	ann.WaitFor(`Ben shared the pack "Bens Themen" (12 topics)`)

	addBots(t, ann, 2, 1)
	ann.Press("s")
	ann.WaitFor("round 1 of 6", "Übung Nummer")
}

// TestAPackAddedWhileSeatedIsADeckChoiceAtOnce: a host seated at a table uploads a pack
// on another SSH connection, and it is among the deck's choices at once, with no key
// pressed and no request sent.
func TestAPackAddedWhileSeatedIsADeckChoiceAtOnce(t *testing.T) {
	s := e2e.Start(t, nil)
	key := e2e.NewKey(t)
	ann := s.API(t, "ann", key)
	ann.Send(map[string]any{"op": "hello", "name": "Ann"})
	ann.Expect("hello")
	ann.Send(map[string]any{"op": "create", "game": "quadrant"})
	ann.Expect("joined")
	deck := func(m map[string]any) string {
		if m["type"] != "table" {
			return ""
		}
		choices, _ := m["table"].(map[string]any)["choices"].([]any)
		for _, c := range choices {
			if o, _ := c.(map[string]any); o["key"] == "deck" {
				return fmt.Sprint(o["choices"])
			}
		}
		return ""
	}
	if got := deck(ann.Until("the deck option", func(m map[string]any) bool { return deck(m) != "" })); strings.Contains(got, "Office life") {
		t.Fatalf("the pack is a choice before it is added: %s", got)
	}
	mustRun(t, s, key, "pack add quadrant-words Office life", officeWords)
	ann.Until("the pack among the deck's choices", func(m map[string]any) bool {
		return strings.Contains(deck(m), "Office life")
	})
}
