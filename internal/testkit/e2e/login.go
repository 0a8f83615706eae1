package e2e

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TryLogin logs in with key as OpenSSH does by default — the key first, then
// keyboard-interactive without answers (a guest login), so a server that refuses the key
// but lets in guests is seen to — and returns everything the server said before the
// login ended (banners, keyboard-interactive instructions) and the login's error, nil
// when it got in. The connection is closed either way.
func (s *Server) TryLogin(t testing.TB, key Key) (told string, err error) {
	t.Helper()
	var mu sync.Mutex
	var b strings.Builder
	say := func(text string) {
		mu.Lock()
		b.WriteString(text)
		mu.Unlock()
	}
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(name, instruction string, _ []string, _ []bool) ([]string, error) {
		say(name + instruction)
		return nil, nil
	})}
	if key.Signer() != nil {
		auth = append([]gossh.AuthMethod{gossh.PublicKeys(key.Signer())}, auth...)
	}
	cfg := &gossh.ClientConfig{User: "player", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: Wait,
		BannerCallback: func(msg string) error { say(msg); return nil }}
	conn, err := net.DialTimeout("tcp", s.AddrString(), Wait)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(Wait))
	cc, chans, reqs, err := gossh.NewClientConn(conn, s.AddrString(), cfg)
	if err == nil {
		_ = gossh.NewClient(cc, chans, reqs).Close()
	}
	mu.Lock()
	defer mu.Unlock()
	return b.String(), err
}
