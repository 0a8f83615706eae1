package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"charm.land/ssh"

	"parlor/docs"
	"parlor/lobby"
	"parlor/packs"
	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

const packUsage = `Content packs: your own words for the games, in any language.

  ssh HOST pack help KIND              the file format of a kind, with an example
  ssh HOST pack add KIND NAME < file   keep a pack (the same format as the built-in files)
  ssh HOST pack list                   your packs and the published ones
  ssh HOST pack show NAME              print one of your packs
  ssh HOST pack remove NAME            forget one of your packs
  ssh HOST pack share CODE NAME        offer one of your packs to table CODE
  ssh HOST pack publish NAME           show your pack to everyone (admins)
  ssh HOST pack unpublish NAME         stop showing it (admins)

KIND is one of: KINDS.
`

// stdinWait is how long "pack add" waits for its file before giving up, so that a
// forgotten "< file" ends with advice instead of a silent hang.
const stdinWait = time.Minute

// servePack runs "ssh host pack …". It needs no terminal: it reads a file on standard
// input and answers in plain text, errors on standard error with exit status 1.
func (s *Server) servePack(sess ssh.Session, args []string) {
	player, _ := s.identify(sess)
	ctx, cancel := context.WithTimeout(sess.Context(), 2*stdinWait)
	defer cancel()
	out, err := s.packCommand(ctx, sess, player, args)
	if err != nil {
		fail(sess, packError(err))
		return
	}
	fmt.Fprint(sess, out)
	_ = sess.Exit(0)
}

// maxPackProblems is how many of a bad pack's problems the terminal is told one by one.
const maxPackProblems = 30

// packError words an error for the terminal: a bad pack lists its problems (the first
// maxPackProblems, and how many more).
func packError(err error) string {
	var ce *rules.ContentError
	if errors.As(err, &ce) {
		var b strings.Builder
		fmt.Fprintf(&b, "The pack was not stored: %d problem", len(ce.Problems))
		if len(ce.Problems) != 1 {
			b.WriteString("s")
		}
		b.WriteString(" to fix.\n")
		for i, p := range ce.Problems {
			if i == maxPackProblems && len(ce.Problems) > maxPackProblems+1 {
				// A file of thousands of repeats would print thousands of lines.
				fmt.Fprintf(&b, "  …and %d more like these.\n", len(ce.Problems)-i)
				break
			}
			b.WriteString("  " + playertext.Short(p.String(), 200) + "\n")
		}
		return strings.TrimRight(b.String(), "\n")
	}
	return err.Error()
}

func (s *Server) packCommand(ctx context.Context, sess ssh.Session, p lobby.Player, args []string) (string, error) {
	usage := strings.NewReplacer("KINDS", packs.Kinds(), "ssh HOST", s.sshCommand()).Replace(packUsage)
	if len(args) == 0 || args[0] == "help" && len(args) == 1 {
		return usage, nil
	}
	if args[0] == "help" {
		text, ok := docs.PackKind(args[1])
		d, _, known := rules.LookupDeck(args[1])
		if !ok || !known {
			return "", fmt.Errorf("%w %q: the kinds are %s", packs.ErrBadKind, args[1], packs.Kinds())
		}
		// The example shows the format; a pack needs more entries than it has.
		return fmt.Sprintf("%s: at least %d %s a pack.\n\n%s", d.Kind, d.Min, d.What, text), nil
	}
	verb, rest := args[0], args[1:]
	name := strings.Join(rest, " ") // ssh joins the words of a remote command with spaces
	if p.Guest {
		return "", packs.ErrGuest
	}
	lib := s.packs
	switch verb {
	case "add":
		if len(rest) < 2 {
			return "", errors.New("pack add needs a kind and a name: pack add KIND NAME < file")
		}
		content, err := readStdin(ctx, sess)
		if err != nil {
			return "", err
		}
		name := strings.Join(rest[1:], " ")
		old, oldErr := lib.Mine(ctx, p.ID, name) // replacing one is said, never silent
		pk, err := lib.Add(ctx, p.ID, p.Guest, rest[0], name, content)
		if err != nil {
			return "", err
		}
		// The tables where the player sits show the pack among the deck's choices now,
		// not once the host presses a key or joins again.
		s.lobby.PacksChanged(p)
		d, _, _ := rules.LookupDeck(pk.Kind)
		if oldErr == nil {
			renamed := ""
			if old.Name != pk.Name { // names ignore case: "office life" replaces "Office life"
				renamed = fmt.Sprintf(" (was %q)", old.Name)
			}
			return fmt.Sprintf("Replaced your %s pack %q%s: now %s, %d %s.\n", old.Kind, pk.Name, renamed, pk.Kind, pk.Entries, d.What), nil
		}
		return fmt.Sprintf("Stored %q: %s, %d %s.\n", pk.Name, pk.Kind, pk.Entries, d.What), nil
	case "list":
		return s.packList(ctx, p)
	case "show":
		pk, err := lib.Mine(ctx, p.ID, name)
		if errors.Is(err, packs.ErrNotFound) {
			// A published pack is everyone's to read, as it is to play.
			if pub, ok := s.publishedPack(ctx, p, name); ok {
				return string(pub.Content), nil
			}
		}
		if err != nil {
			return "", err
		}
		return string(pk.Content), nil
	case "remove":
		if err := lib.Remove(ctx, p.ID, name); err != nil {
			return "", err
		}
		s.lobby.PacksChanged(p) // a removed pack is no longer a choice (a table playing it keeps its copy)
		return fmt.Sprintf("Removed %q. Tables that already play it keep their copy.\n", name), nil
	case "publish", "unpublish":
		if err := lib.Publish(ctx, p.ID, p.Admin, name, verb == "publish"); err != nil {
			return "", err
		}
		if verb == "publish" {
			return fmt.Sprintf("Published %q: every player can choose it for a table now.\n", name), nil
		}
		return fmt.Sprintf("%q is yours alone again.\n", name), nil
	case "share":
		if len(rest) < 2 {
			return "", errors.New("pack share needs a table code and a name: pack share CODE NAME")
		}
		pk, err := lib.Mine(ctx, p.ID, strings.Join(rest[1:], " "))
		if err != nil {
			return "", err
		}
		if err := s.lobby.Share(p, rest[0], pk); err != nil {
			return "", err
		}
		return fmt.Sprintf("Shared %q with table %s: its host can choose it as the deck.\n", pk.Name, strings.ToUpper(rest[0])), nil
	}
	return "", fmt.Errorf("unknown pack command %q.\n\n%s", playertext.Short(verb, 20), usage)
}

// packList lists the player's packs and the published ones.
func (s *Server) packList(ctx context.Context, p lobby.Player) (string, error) {
	usable, err := s.packs.Usable(ctx, p.ID)
	if err != nil {
		return "", err
	}
	var mine, pub []store.Pack
	for _, pk := range usable {
		if pk.Owner == p.ID {
			mine = append(mine, pk)
		} else {
			pub = append(pub, pk)
		}
	}
	var b strings.Builder
	section := func(title, none string, list []store.Pack) {
		b.WriteString(title + "\n")
		if len(list) == 0 {
			b.WriteString("  " + none + "\n")
		}
		for _, pk := range list {
			d, _, _ := rules.LookupDeck(pk.Kind)
			mark := ""
			if pk.Published && pk.Owner == p.ID {
				mark = "  (published)"
			}
			// Padded by terminal columns, so names in wide scripts line up too.
			name := pk.Name + strings.Repeat(" ", max(0, packs.MaxNameLen/2-rules.Width(pk.Name)))
			fmt.Fprintf(&b, "  %s  %-22s %4d %s%s\n", name, pk.Kind, pk.Entries, d.What, mark)
		}
	}
	section(fmt.Sprintf("Your packs (%d of %d):", len(mine), packs.MaxPacks), "none yet: "+s.sshCommand()+" pack add KIND NAME < file", mine)
	section("Published packs:", "none", pub)
	return b.String(), nil
}

// readStdin reads the whole file a client sends, at most packs.MaxBytes, within stdinWait.
func readStdin(ctx context.Context, sess ssh.Session) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(sess, packs.MaxBytes+1))
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("reading the file: %w", r.err)
		}
		if len(r.b) > packs.MaxBytes {
			return nil, packs.ErrTooBig
		}
		if len(r.b) == 0 {
			// A problem of the pack, so that it is told as the others: "The pack was not stored".
			var ps rules.Problems
			ps.Add(0, "the file was empty (or none was sent): send it on standard input, as in pack add KIND NAME < file")
			return nil, ps.Err(rules.ErrPack)
		}
		return r.b, nil
	case <-time.After(stdinWait):
		return nil, errors.New("no file arrived within a minute: send it on standard input, as in pack add KIND NAME < file")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// publishedPack is the published pack of that name a player may read, if any.
func (s *Server) publishedPack(ctx context.Context, p lobby.Player, name string) (store.Pack, bool) {
	name, err := packs.CheckName(name)
	if err != nil {
		return store.Pack{}, false
	}
	usable, err := s.packs.Usable(ctx, p.ID)
	if err != nil {
		return store.Pack{}, false
	}
	var published []store.Pack
	for _, pk := range usable {
		if pk.Published {
			published = append(published, pk)
		}
	}
	return packs.Named(published, name)
}
