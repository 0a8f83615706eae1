package server

import (
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// The SSH algorithms parlor offers, strongest first. x/crypto's defaults also offer the
// NIST-curve and SHA-1 key exchanges and encrypt-and-MAC MACs, which ssh-audit fails or
// warns about. Every client in the README's compatibility list (OpenSSH ≥ 6.5, PuTTY
// ≥ 0.68, Dropbear ≥ 2020.79) speaks curve25519, chacha20-poly1305 and ed25519.
var (
	keyExchanges = []string{
		gossh.KeyExchangeMLKEM768X25519, // post-quantum hybrid, OpenSSH 9.9+
		gossh.KeyExchangeCurve25519,
		"curve25519-sha256@libssh.org", // the same exchange under its older name
	}
	// Only AEAD ciphers: with these the MAC is part of the cipher.
	ciphers = []string{gossh.CipherChaCha20Poly1305, gossh.CipherAES256GCM, gossh.CipherAES128GCM}
	// Encrypt-then-MAC only; never used with the AEAD ciphers above, but offered lists
	// are what an audit reads.
	macs = []string{gossh.HMACSHA256ETM, gossh.HMACSHA512ETM}
)

// sshConfig is each connection's x/crypto configuration: only strong algorithms, and
// the gate hears when the connection has logged in.
func sshConfig(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{
		Config: gossh.Config{KeyExchanges: keyExchanges, Ciphers: ciphers, MACs: macs},
		// Called after each login attempt, with a nil error only once a method has
		// succeeded (a public key offered without a signature is not an attempt).
		AuthLogCallback: func(_ gossh.ConnMetadata, _ string, err error) {
			if c := connOf(ctx); c != nil && err == nil {
				c.authenticated()
			}
		},
	}
}
