package server_test

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/e2e"
)

// offered reads the server's KEXINIT (sent in the clear) and returns its name-lists:
// key exchanges, host keys, ciphers, MACs (client to server).
func offered(t *testing.T, addr string) (kex, hostKeys, ciphers, macs []string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(e2e.Wait))
	if _, err := io.WriteString(c, "SSH-2.0-parlortest\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	if _, err := r.ReadString('\n'); err != nil { // the server's version line
		t.Fatal(err)
	}
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		t.Fatal(err)
	}
	pkt := make([]byte, binary.BigEndian.Uint32(head[:4])-1)
	if _, err := io.ReadFull(r, pkt); err != nil {
		t.Fatal(err)
	}
	const msgKexInit = 20
	if pkt[0] != msgKexInit {
		t.Fatalf("first packet is message %d, not KEXINIT", pkt[0])
	}
	rest := pkt[1+16:] // message number, cookie
	var lists [][]string
	for i := 0; i < 6; i++ { // kex, host keys, ciphers and MACs each way
		n := binary.BigEndian.Uint32(rest)
		lists = append(lists, strings.Split(string(rest[4:4+n]), ","))
		rest = rest[4+n:]
	}
	return lists[0], lists[1], lists[2], lists[4]
}

// TestOnlyStrongAlgorithms: the server offers post-quantum hybrid and curve25519 key
// exchange, AEAD ciphers and encrypt-then-MAC MACs only, and a client that offers nothing
// else is refused.
func TestOnlyStrongAlgorithms(t *testing.T) {
	s := e2e.Start(t, nil)
	kex, hostKeys, ciphers, macs := offered(t, s.AddrString())
	wantKex := []string{"mlkem768x25519-sha256", "curve25519-sha256", "curve25519-sha256@libssh.org"}
	for _, k := range kex {
		if !slices.Contains(wantKex, k) && !strings.HasPrefix(k, "kex-strict-") && !strings.HasPrefix(k, "ext-info-") {
			t.Errorf("weak key exchange offered: %s (all: %v)", k, kex)
		}
	}
	if !slices.Contains(kex, "mlkem768x25519-sha256") || !slices.Contains(kex, "kex-strict-s-v00@openssh.com") {
		t.Errorf("key exchanges %v lack the post-quantum hybrid or strict kex", kex)
	}
	if !slices.Equal(hostKeys, []string{"ssh-ed25519"}) {
		t.Errorf("host keys = %v", hostKeys)
	}
	if !slices.Equal(ciphers, []string{"chacha20-poly1305@openssh.com", "aes256-gcm@openssh.com", "aes128-gcm@openssh.com"}) {
		t.Errorf("ciphers = %v", ciphers)
	}
	if !slices.Equal(macs, []string{"hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com"}) {
		t.Errorf("MACs = %v", macs)
	}

	weak := []struct {
		name string
		cfg  gossh.Config
	}{
		{"nistp256 key exchange", gossh.Config{KeyExchanges: []string{gossh.KeyExchangeECDHP256}}},
		{"group14-sha1 key exchange", gossh.Config{KeyExchanges: []string{gossh.InsecureKeyExchangeDH14SHA1}}},
		{"CTR cipher", gossh.Config{Ciphers: []string{gossh.CipherAES128CTR}}},
		{"hmac-sha1 with CTR", gossh.Config{Ciphers: []string{gossh.CipherAES256CTR}, MACs: []string{gossh.HMACSHA1}}},
	}
	for _, w := range weak {
		cfg := &gossh.ClientConfig{Config: w.cfg, User: "weak", HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
			Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}}
		if c, err := gossh.Dial("tcp", s.AddrString(), cfg); err == nil {
			c.Close()
			t.Errorf("a client offering only %s got in", w.name)
		}
	}
}
