package server

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"parlor/lobby"
	"parlor/store"
)

// moderator holds the bans and mutes in force, for the checks at the door and at every
// chat line, which must not wait on the store. The store is the truth: a lone server
// reads it again after each change it makes; a node of a cluster also reads it every
// clusterRefresh, so a ban made on another node holds here within a second.
type moderator struct {
	st  store.Store
	now func() time.Time // the wall clock (the tests' clock in tests)
	log *log.Logger
	// enforce is called, outside the lock, with each ban seen for the first time, so
	// that the sessions it covers end.
	enforce func(store.Ban)

	mu    sync.RWMutex
	keys  map[string]store.Ban // key bans by fingerprint
	addrs []addrBan
	mutes map[string]store.Mute
	seen  map[int64]bool // bans already enforced
}

type addrBan struct {
	prefix netip.Prefix
	ban    store.Ban
}

// clusterRefresh is how often a node of a cluster reads the bans and mutes again.
const clusterRefresh = 250 * time.Millisecond

func newModerator(st store.Store, now func() time.Time, logger *log.Logger) *moderator {
	return &moderator{st: st, now: now, log: logger, keys: map[string]store.Ban{},
		mutes: map[string]store.Mute{}, seen: map[int64]bool{}}
}

// refresh reads the bans and mutes in force from the store, and enforces the new bans.
func (m *moderator) refresh(ctx context.Context) error {
	now := m.now()
	bans, err := m.st.Bans(ctx, now)
	if err != nil {
		return err
	}
	mutes, err := m.st.Mutes(ctx, now)
	if err != nil {
		return err
	}
	keys, addrs, ms := map[string]store.Ban{}, []addrBan(nil), map[string]store.Mute{}
	var fresh []store.Ban
	m.mu.Lock()
	for _, b := range bans {
		switch b.Kind {
		case store.BanKey:
			keys[b.Target] = b
		case store.BanAddr:
			p, err := netip.ParsePrefix(b.Target)
			if err != nil {
				m.log.Warn("a stored address ban is not a CIDR; ignored", "ban", b.ID, "target", b.Target)
				continue
			}
			addrs = append(addrs, addrBan{p.Masked(), b})
		}
		if !m.seen[b.ID] {
			m.seen[b.ID] = true
			fresh = append(fresh, b)
		}
	}
	for _, mu := range mutes {
		ms[mu.Player] = mu
	}
	m.keys, m.addrs, m.mutes = keys, addrs, ms
	m.mu.Unlock()
	if m.enforce != nil {
		for _, b := range fresh {
			m.enforce(b)
		}
	}
	return nil
}

// enforced notes that the sessions ban id covers are being ended already, so refresh
// leaves them to the caller.
func (m *moderator) enforced(id int64) {
	m.mu.Lock()
	m.seen[id] = true
	m.mu.Unlock()
}

// watch reads the store every clusterRefresh until ctx ends (a node of a cluster).
func (m *moderator) watch(ctx context.Context) {
	t := time.NewTicker(clusterRefresh)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := m.refresh(rctx)
		cancel()
		if err != nil && !failing && ctx.Err() == nil {
			m.log.Warn("could not read the bans and mutes; keeping the last ones", "err", err)
		}
		failing = err != nil
	}
}

// keyBan is the ban in force on a key fingerprint, if any.
func (m *moderator) keyBan(fp string) (store.Ban, bool) {
	if fp == "" {
		return store.Ban{}, false
	}
	m.mu.RLock()
	b, ok := m.keys[fp]
	m.mu.RUnlock()
	return b, ok && store.InForce(b.Until, m.now())
}

// addrBan is the ban in force on an address (without its port), if any.
func (m *moderator) addrBan(host string) (store.Ban, bool) {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return store.Ban{}, false
	}
	a = a.Unmap()
	now := m.now()
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, ab := range m.addrs {
		if ab.prefix.Contains(a) && store.InForce(ab.ban.Until, now) {
			return ab.ban, true
		}
	}
	return store.Ban{}, false
}

// muted is lobby.Config.Muted: whether a player is muted server-wide, why and until when.
func (m *moderator) muted(playerID string) (reason string, until time.Time, muted bool) {
	m.mu.RLock()
	mu, ok := m.mutes[playerID]
	m.mu.RUnlock()
	if !ok || !store.InForce(mu.Until, m.now()) {
		return "", time.Time{}, false
	}
	return mu.Reason, mu.Until, true
}

// covers says whether ban b covers a player with this key fingerprint and address.
func covers(b store.Ban, fp, host string) bool {
	switch b.Kind {
	case store.BanKey:
		return fp != "" && b.Target == fp
	case store.BanAddr:
		p, err := netip.ParsePrefix(b.Target)
		a, aerr := netip.ParseAddr(host)
		return err == nil && aerr == nil && p.Contains(a.Unmap())
	}
	return false
}

// banMessage is what a banned player is told: banned, why, and until when.
func banMessage(b store.Ban) string {
	what := "Your key is banned from this parlor server"
	if b.Kind == store.BanAddr {
		what = "Your address is banned from this parlor server"
	}
	return fmt.Sprintf("%s: %s. %s.", what, b.Reason, untilText(b.Until))
}

// untilText says how long a ban or a mute lasts.
func untilText(until time.Time) string {
	if until.IsZero() {
		return "It is for good"
	}
	return "It ends " + until.UTC().Format("2006-01-02 15:04 UTC")
}

// fileReport is lobby.Config.Report: a player's report goes to the store, where the
// operators read it (admin reports), and the audit log.
func (s *Server) fileReport(ctx context.Context, r lobby.Report) error {
	chat := make([]string, 0, len(r.Chat))
	for _, l := range r.Chat {
		chat = append(chat, fmt.Sprintf("%s %s: %s", s.lobby.Shown(l.At).UTC().Format("15:04"), l.From, l.Text))
	}
	at := r.At
	if at.IsZero() {
		at = s.mod.now()
	}
	stored, err := s.store.AddReport(ctx, store.Report{Table: r.Table, ByID: r.ByID, ByName: r.ByName,
		AboutID: r.AboutID, AboutName: r.AboutName, Reason: r.Reason, Chat: chat, At: at, Call: r.Call})
	if errors.Is(err, store.ErrFiled) {
		return nil // the same call again (a cluster's session's second try): filed, counted and audited once
	}
	if err != nil {
		if errors.Is(err, store.ErrInvalid) {
			return errors.New("a report needs a reason")
		}
		return fmt.Errorf("the report was not filed: %w", s.wrote(err))
	}
	s.metrics.reports.Inc()
	s.audit(ctx, r.ByID, "report", r.AboutID, fmt.Sprintf("report %d at %s: %s", stored.ID, r.Table, r.Reason))
	return nil
}

// refuseBanned is the middleware step that refuses a banned key (and an address banned
// since its connection came in) before anything else runs, saying why and until when.
func (s *Server) refuseBanned(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		fp := ""
		if k := sess.PublicKey(); k != nil {
			fp = gossh.FingerprintSHA256(k)
		}
		host := hostOf(sess.RemoteAddr())
		b, banned := s.mod.keyBan(fp)
		if !banned {
			b, banned = s.mod.addrBan(host)
		}
		if banned {
			s.refused.add(host, refusedBanned)
			fail(sess, banMessage(b))
			return
		}
		next(sess)
	}
}
