package server

import (
	"errors"
	"fmt"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// What parlor decides around the connection loop (termrt.Server, which Listen sets up):
// who logs in, and the gate's bound on the sessions one connection holds.

// noGuests is what a client without a key is told when guests are off.
const noGuests = "This parlor server lets in players with an SSH key only. Make one with\n" +
	"  ssh-keygen -t ed25519\n" +
	"and connect again: ssh offers it by itself, and it keeps your name and your seat."

// errBannedLogin refuses every login method of a connection that proved it holds a
// banned key.
var errBannedLogin = errors.New("a banned key")

// serverConfig is the connection's x/crypto/ssh configuration: the algorithms, the
// host key and the login methods.
func (s *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	cfg := sshConfig(ctx)
	for _, k := range s.hostSigners {
		cfg.AddHostKey(k)
	}
	// Every public key is let in but a banned one: it is the player's identity (the
	// loop records it for the session's PublicKey). A banned key is refused only once
	// the client has proven it holds it (VerifiedPublicKeyCallback; the first callback
	// is also asked about keys a client merely names), so only the key's holder learns
	// why: the refusal carries the ban's message as an SSH banner, which ssh prints as
	// it gives up. After that the connection lets nothing in — no other key, no guest —
	// so a banned player is not logged in under another identity behind their back.
	banned := false // this connection proved it holds a banned key
	cfg.PublicKeyCallback = func(gossh.ConnMetadata, gossh.PublicKey) (*gossh.Permissions, error) {
		if banned {
			return nil, errBannedLogin
		}
		return nil, nil
	}
	cfg.VerifiedPublicKeyCallback = func(m gossh.ConnMetadata, key gossh.PublicKey, perms *gossh.Permissions, _ string) (*gossh.Permissions, error) {
		b, ok := s.mod.keyBan(gossh.FingerprintSHA256(key))
		if !ok {
			return perms, nil
		}
		banned = true
		s.refused.add(hostOf(m.RemoteAddr()), refusedBanned)
		return nil, &gossh.BannerError{Err: errBannedLogin, Message: banMessage(b) + "\r\n"}
	}
	// Key-less clients get in as guests without being asked anything. With guests off
	// they are refused, but told why and what to do: "Permission denied (publickey)"
	// alone left a newcomer without a key guessing. (The advice is the challenge's
	// instruction, with no question: ssh prints it, and a client with a key, which logs
	// in by its key first, never sees it.)
	told := false // once per connection: ssh tries the method three times
	cfg.KeyboardInteractiveCallback = func(_ gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
		if banned {
			return nil, errBannedLogin
		}
		if s.cfg.Guests {
			return &gossh.Permissions{}, nil
		}
		if !told {
			told = true
			_, _ = ask("", noGuests, nil, nil)
		}
		return nil, errors.New("guests are not let in")
	}
	return cfg
}

// openSession bounds the session channels one connection may hold at once; the
// returned function frees the channel's place when it closes.
func (s *Server) openSession(ctx ssh.Context) (release func(), err error) {
	c := connOf(ctx)
	if c == nil {
		return nil, nil
	}
	if !c.openChannel() {
		s.refused.add(c.host, refusedTooManyChannels)
		return nil, fmt.Errorf("parlor takes at most %d sessions per connection", maxChannelsPerConn)
	}
	return c.closeChannel, nil
}
