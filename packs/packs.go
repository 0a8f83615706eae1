// Package packs is the library of content packs players upload over SSH: their own
// words, topics, questions, illustrations and pictures for a game, in the same format as
// the built-in files. It checks a pack with its game's own parser (rules.Deck) and the
// per-player limits before the store keeps it, so a stored pack is always valid.
package packs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

// How a table's deck option names the built-in deck and a pack mixed with it; no pack may
// be named so that it reads as one of these.
const (
	Builtin   = "built-in"
	MixPrefix = "mix: "
)

// Limits on what one player may upload; docs/packs.md and the README give the numbers.
const (
	MaxBytes   = 64 << 10 // one pack's file
	MaxPacks   = 20       // packs per player
	MaxNameLen = 40       // columns a pack's name takes (rules.Width)
)

// Errors a caller may branch on; their text is shown to players as it is.
var (
	ErrGuest     = errors.New("guests cannot keep packs: connect with an SSH key (make one with: ssh-keygen -t ed25519)")
	ErrNotFound  = errors.New("you have no pack of that name (pack list shows yours)")
	ErrTooMany   = fmt.Errorf("you already keep %d packs, the most a player may: remove one first (pack remove NAME)", MaxPacks)
	ErrTooBig    = fmt.Errorf("the file is larger than %d KiB, the most a pack may be", MaxBytes>>10)
	ErrNotAdmin  = errors.New("only an admin can publish a pack for everyone, or unpublish one")
	ErrBadKind   = errors.New("unknown pack kind")
	ErrEmptyName = errors.New("a pack needs a name: it comes after the command, as in pack add KIND NAME < file or pack show NAME")
)

// Library keeps packs in a store.
type Library struct {
	Store store.Packs
	Now   func() time.Time // the clock; time.Now if nil
}

// Kinds lists the pack kinds, for messages.
func Kinds() string {
	var out []string
	for _, d := range rules.Decks() {
		out = append(out, d.Kind)
	}
	return strings.Join(out, ", ")
}

// CheckName tidies a pack's name (the rest of the command line, so it may hold spaces)
// and checks it.
func CheckName(name string) (string, error) {
	// The one sanitiser, as for a player's name: escape sequences, control and invisible
	// characters go, spaces collapse, an emoji sequence terminals disagree on splits.
	name = norm.NFC.String(playertext.Clean(name))
	switch {
	case name == "":
		return "", ErrEmptyName
	case strings.ContainsRune(name, utf8.RuneError):
		return "", errors.New("a pack's name must be UTF-8 text")
	case rules.Width(name) > MaxNameLen:
		return "", fmt.Errorf("a pack's name is %v", rules.CheckWidth(name, MaxNameLen))
	case strings.EqualFold(name, Builtin) || strings.HasPrefix(strings.ToLower(name), strings.TrimSpace(MixPrefix)):
		return "", fmt.Errorf("a pack's name may not be %q or start with %q: the deck option uses those words", Builtin, strings.TrimSpace(MixPrefix))
	}
	return name, nil
}

// Add checks content as a pack of kind and stores it as the owner's pack name, replacing
// an earlier one of that name. A pack with problems is not stored: the error is a
// *rules.ContentError listing every problem with its line.
func (l *Library) Add(ctx context.Context, owner string, guest bool, kind, name string, content []byte) (store.Pack, error) {
	if guest {
		return store.Pack{}, ErrGuest
	}
	d, _, ok := rules.LookupDeck(kind)
	if !ok {
		return store.Pack{}, fmt.Errorf("%w %q: the kinds are %s", ErrBadKind, kind, Kinds())
	}
	name, err := CheckName(name)
	if err != nil {
		return store.Pack{}, err
	}
	if len(content) > MaxBytes {
		return store.Pack{}, ErrTooBig
	}
	content, nerr := Normalize(content)
	if content == nil {
		return store.Pack{}, nerr
	}
	n, err := d.Check(content) // with bad characters taken out: every problem at once
	if err = mergeProblems(nerr, err); err != nil {
		return store.Pack{}, err
	}
	mine, err := l.Store.PacksOf(ctx, owner)
	if err != nil {
		return store.Pack{}, err
	}
	old, replacing := Named(mine, name)
	if len(mine) >= MaxPacks && !replacing {
		return store.Pack{}, ErrTooMany
	}
	p := store.Pack{Owner: owner, Name: name, Kind: kind, Content: content, Entries: n, Created: l.now()}
	if err := l.Store.SavePack(ctx, p); err != nil {
		return store.Pack{}, err
	}
	if replacing && old.Name != name {
		// The same name in another case: the new spelling replaces the old pack.
		if err := l.Store.DeletePack(ctx, owner, old.Name); err != nil {
			return store.Pack{}, err
		}
	}
	return p, nil
}

// Normalize makes an uploaded file ready for its parser: a byte-order mark and Windows
// line ends are dropped, and accents are composed (NFC), so that a letter typed with a
// combining accent is one character, as it looks. A file with invalid UTF-8 or control
// characters (escape sequences, even in comments, which "pack show" prints) is refused,
// with every such line listed; the file is still returned with those characters taken
// out, so that its other problems can be listed with them (nil: a file past reading).
func Normalize(b []byte) ([]byte, error) {
	var ps rules.Problems
	if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) ||
		bytes.Count(b, []byte{0}) > len(b)/4 {
		// Every other byte zero: each line would be "not UTF-8" or a control character.
		ps.Add(0, "the file is UTF-16 (a Windows editor's \"Unicode\"): save it as UTF-8")
		return nil, ps.Err(rules.ErrPack)
	}
	s := strings.TrimPrefix(string(b), "\uFEFF")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		switch {
		case !utf8.ValidString(line):
			ps.Add(i+1, "not UTF-8 (save the file as UTF-8)")
			lines[i] = strings.ToValidUTF8(line, "")
		default:
			// Tabs separate fields in some formats: the kind's own check judges them.
			if c := rules.ControlChar(strings.ReplaceAll(line, "\t", " ")); c != "" {
				ps.Add(i+1, "%s", c)
				lines[i] = strings.Map(func(r rune) rune {
					if r != '\t' && (unicode.IsControl(r) || unicode.In(r, unicode.Bidi_Control)) {
						return -1
					}
					return r
				}, line)
			}
		}
	}
	// Invisible characters (zero-width spaces, word joiners, soft hyphens, a mark within a
	// line) go, as from all a player sends: an entry of them only would show as blank,
	// and one with them beside its twin without as another. playertext.Typed keeps a
	// line's spaces where they are (pictures are drawn with them); tabs stay too.
	for i, line := range lines {
		fields := strings.Split(line, "\t")
		for j, f := range fields {
			fields[j] = playertext.Typed(f)
		}
		lines[i] = strings.Join(fields, "\t")
	}
	return []byte(norm.NFC.String(strings.Join(lines, "\n"))), ps.Err(rules.ErrPack)
}

// mergeProblems is one error listing the problems of both, by line, or the first error
// that lists none.
func mergeProblems(a, b error) error {
	var all []rules.Problem
	for _, err := range []error{a, b} {
		var ce *rules.ContentError
		switch {
		case err == nil:
		case errors.As(err, &ce):
			all = append(all, ce.Problems...)
		default:
			return err
		}
	}
	if len(all) == 0 {
		return nil
	}
	slices.SortStableFunc(all, func(x, y rules.Problem) int { return x.Line - y.Line })
	var ps rules.Problems
	for _, p := range all {
		ps.Add(p.Line, "%s", p.Text)
	}
	return ps.Err(rules.ErrPack)
}

// Named is the pack of ps with that name, ignoring case (an exact match first): one
// player's packs "Office" and "office" would look alike in every list, so a name is a
// name in any case.
func Named(ps []store.Pack, name string) (store.Pack, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p, true
		}
	}
	for _, p := range ps {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return store.Pack{}, false
}

func (l *Library) now() time.Time {
	if l.Now == nil {
		return time.Now()
	}
	return l.Now()
}

// Mine returns the owner's pack of that name (in any case), or ErrNotFound.
func (l *Library) Mine(ctx context.Context, owner, name string) (store.Pack, error) {
	name, err := CheckName(name)
	if err != nil {
		return store.Pack{}, err
	}
	p, err := l.Store.Pack(ctx, owner, name)
	if errors.Is(err, store.ErrNotFound) {
		mine, err := l.Store.PacksOf(ctx, owner) // the name in another case
		if err != nil {
			return store.Pack{}, err
		}
		if p, ok := Named(mine, name); ok {
			return p, nil
		}
		return store.Pack{}, fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	return p, err
}

// Remove deletes the owner's pack. Tables that already play it keep their copy.
func (l *Library) Remove(ctx context.Context, owner, name string) error {
	p, err := l.Mine(ctx, owner, name)
	if err != nil {
		return err
	}
	return l.Store.DeletePack(ctx, owner, p.Name)
}

// Publish shows the owner's pack to everyone (or stops showing it); admins only.
func (l *Library) Publish(ctx context.Context, owner string, admin bool, name string, published bool) error {
	if !admin {
		return ErrNotAdmin
	}
	p, err := l.Mine(ctx, owner, name)
	if err != nil {
		return err
	}
	return l.Store.SetPublished(ctx, owner, p.Name, published)
}

// Usable lists the packs a player may choose for a table: their own, then the published
// packs of others.
func (l *Library) Usable(ctx context.Context, playerID string) ([]store.Pack, error) {
	var out []store.Pack
	if playerID != "" {
		mine, err := l.Store.PacksOf(ctx, playerID)
		if err != nil {
			return nil, err
		}
		out = mine
	}
	pub, err := l.Store.PublishedPacks(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range pub {
		if p.Owner != playerID {
			out = append(out, p)
		}
	}
	return out, nil
}
