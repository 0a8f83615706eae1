package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/store"
)

// Moderation lives in one key-value bucket, PREFIX_moderation: bans under ban.ID,
// mutes under mute.PLAYER (a token), whom a player ignores under ignore.PLAYER (a JSON
// object, ignored id → name), reports under report.ID (and the ID a call's report has
// under reportcall.CALL, a token), the audit log under
// audit.N, and the last number given out for each under seq.ban, seq.report and
// seq.audit, so that IDs are unique across the cluster and never reused. Every node
// reads the bans and mutes from here, which is how a ban made on one node holds on the
// others.

type banRecord struct {
	Kind   string `json:"kind"`
	Target string `json:"target"`
	Reason string `json:"reason"`
	By     string `json:"by"`
	At     int64  `json:"at"`
	Until  int64  `json:"until,omitempty"`
}

type muteRecord struct {
	Player string `json:"player"`
	Reason string `json:"reason"`
	By     string `json:"by"`
	At     int64  `json:"at"`
	Until  int64  `json:"until,omitempty"`
}

type reportRecord struct {
	Table     string   `json:"table"`
	ByID      string   `json:"by_id"`
	ByName    string   `json:"by_name"`
	AboutID   string   `json:"about_id"`
	AboutName string   `json:"about_name"`
	Reason    string   `json:"reason"`
	Chat      []string `json:"chat"`
	At        int64    `json:"at"`
	Call      string   `json:"call,omitempty"`
}

type auditRecord struct {
	At     int64  `json:"at"`
	By     string `json:"by"`
	Action string `json:"action"`
	Target string `json:"target"`
	Reason string `json:"reason"`
}

// next gives out the next number of a sequence (1, 2, …), by a revision-checked update
// of seq.NAME, so two nodes never get the same one.
func (s *Store) next(ctx context.Context, name string) (int64, error) {
	key := "seq." + name
	for range maxRetries {
		var n int64
		var rev uint64
		e, err := get(ctx, s.mod, key)
		switch {
		case err == nil:
			if n, err = strconv.ParseInt(string(e.Value()), 10, 64); err != nil {
				return 0, fmt.Errorf("%s: %w", key, err)
			}
			rev = e.Revision()
		case err != store.ErrNotFound:
			return 0, err
		}
		n++
		val := []byte(strconv.FormatInt(n, 10))
		if rev == 0 {
			_, err = s.mod.Create(ctx, key, val)
		} else {
			_, err = s.mod.Update(ctx, key, val, rev)
		}
		if err == nil {
			return n, nil
		}
		if !revisionConflict(err) {
			return 0, err
		}
	}
	return 0, ErrConflict
}

// putNew stores v under PREFIX.n with the next number of the sequence, and returns it.
func (s *Store) putNew(ctx context.Context, seq string, v any) (int64, error) {
	n, err := s.next(ctx, seq)
	if err != nil {
		return 0, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	if _, err := s.mod.Put(ctx, seq+"."+strconv.FormatInt(n, 10), b); err != nil {
		return 0, err
	}
	return n, nil
}

// each calls fn with the number (or key) after the prefix and the value of every key
// under prefix, through a watcher that delivers the current values and then a nil.
func (s *Store) each(ctx context.Context, prefix string, fn func(key string, value []byte) error) error {
	w, err := s.mod.Watch(ctx, prefix+".*", natsjs.IgnoreDeletes())
	if err != nil {
		return err
	}
	defer w.Stop() //nolint:errcheck // nothing to do about a failed unsubscribe
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case kv, ok := <-w.Updates():
			if !ok {
				return fmt.Errorf("watcher stopped")
			}
			if kv == nil {
				return nil
			}
			if err := fn(strings.TrimPrefix(kv.Key(), prefix+"."), kv.Value()); err != nil {
				return fmt.Errorf("%s: %w", kv.Key(), err)
			}
		}
	}
}

// AddBan stores b under a new ID.
func (s *Store) AddBan(ctx context.Context, b store.Ban) (store.Ban, error) {
	if err := s.ready(ctx); err != nil {
		return store.Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	if err := store.CheckBan(b); err != nil {
		return store.Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	b = store.NormBan(b)
	id, err := s.putNew(ctx, "ban", banRecord{Kind: b.Kind, Target: b.Target, Reason: b.Reason, By: b.By,
		At: store.ToMillis(b.At), Until: store.ToMillis(b.Until)})
	if err != nil {
		return store.Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	b.ID = id
	return b, nil
}

// Bans lists the bans in force at now, by ID.
func (s *Store) Bans(ctx context.Context, now time.Time) ([]store.Ban, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list bans: %w", err)
	}
	var out []store.Ban
	err := s.each(ctx, "ban", func(key string, v []byte) error {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return err
		}
		var r banRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		b := store.Ban{ID: id, Kind: r.Kind, Target: r.Target, Reason: r.Reason, By: r.By,
			At: store.FromMillis(r.At), Until: store.FromMillis(r.Until)}
		if store.InForce(b.Until, now) {
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list bans: %w", err)
	}
	slices.SortFunc(out, func(a, b store.Ban) int { return int(a.ID - b.ID) })
	return out, nil
}

// remove deletes key, or reports ErrNotFound.
func (s *Store) remove(ctx context.Context, key string) error {
	for range maxRetries {
		e, err := get(ctx, s.mod, key)
		if err != nil {
			return err
		}
		err = s.mod.Delete(ctx, key, natsjs.LastRevision(e.Revision()))
		if !revisionConflict(err) {
			return err
		}
	}
	return ErrConflict
}

// RemoveBan lifts ban id.
func (s *Store) RemoveBan(ctx context.Context, id int64) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: remove ban %d: %w", id, err)
	}
	if err := s.remove(ctx, "ban."+strconv.FormatInt(id, 10)); err != nil {
		return fmt.Errorf("store: remove ban %d: %w", id, err)
	}
	return nil
}

// SetMute mutes a player, replacing any mute they had.
func (s *Store) SetMute(ctx context.Context, m store.Mute) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: mute %s: %w", m.Player, err)
	}
	if err := store.CheckMute(m); err != nil {
		return fmt.Errorf("store: mute: %w", err)
	}
	b, err := json.Marshal(muteRecord{Player: m.Player, Reason: m.Reason, By: m.By,
		At: store.ToMillis(m.At), Until: store.ToMillis(m.Until)})
	if err == nil {
		_, err = s.mod.Put(ctx, "mute."+token(m.Player), b)
	}
	if err != nil {
		return fmt.Errorf("store: mute %s: %w", m.Player, err)
	}
	return nil
}

// Mutes lists the mutes in force at now, by player.
func (s *Store) Mutes(ctx context.Context, now time.Time) ([]store.Mute, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list mutes: %w", err)
	}
	var out []store.Mute
	err := s.each(ctx, "mute", func(_ string, v []byte) error {
		var r muteRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		m := store.Mute{Player: r.Player, Reason: r.Reason, By: r.By, At: store.FromMillis(r.At), Until: store.FromMillis(r.Until)}
		if store.InForce(m.Until, now) {
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list mutes: %w", err)
	}
	slices.SortFunc(out, func(a, b store.Mute) int { return strings.Compare(a.Player, b.Player) })
	return out, nil
}

// RemoveMute lifts a player's mute.
func (s *Store) RemoveMute(ctx context.Context, player string) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: unmute %s: %w", player, err)
	}
	key := ""
	if player != "" {
		key = "mute." + token(player)
	}
	if err := s.remove(ctx, key); err != nil {
		return fmt.Errorf("store: unmute %s: %w", player, err)
	}
	return nil
}

// AddReport stores a report under a new ID, once for its call: reportcall.TOKEN
// holds the ID a call's report was stored under. The index is written after the
// report, so a node that dies between the two (or an index write that fails) leaves a
// report its call's next try files again: at most one more, where without it every try
// filed one.
func (s *Store) AddReport(ctx context.Context, r store.Report) (store.Report, error) {
	if err := s.ready(ctx); err != nil {
		return store.Report{}, fmt.Errorf("store: add report: %w", err)
	}
	if err := store.CheckReport(r); err != nil {
		return store.Report{}, fmt.Errorf("store: add report: %w", err)
	}
	r = store.NormReport(r)
	index := "reportcall." + token(r.Call)
	if r.Call != "" {
		had, err := s.filed(ctx, index)
		if err != nil || had.ID != 0 {
			if err == nil {
				err = store.ErrFiled
			}
			return had, err
		}
	}
	id, err := s.putNew(ctx, "report", reportRecord{Table: r.Table, ByID: r.ByID, ByName: r.ByName,
		AboutID: r.AboutID, AboutName: r.AboutName, Reason: r.Reason, Chat: r.Chat, At: store.ToMillis(r.At), Call: r.Call})
	if err != nil {
		return store.Report{}, fmt.Errorf("store: add report: %w", err)
	}
	r.ID = id
	if r.Call != "" {
		// The report is stored whatever this write does: failing it would tell the
		// player to file again, a second report for sure, where a lost index costs one
		// only if this very call comes again.
		_, _ = s.mod.Create(ctx, index, []byte(strconv.FormatInt(id, 10)))
	}
	return r, nil
}

// filed is the report a call's index (reportcall.TOKEN) names; ID 0 when there is none.
func (s *Store) filed(ctx context.Context, index string) (store.Report, error) {
	e, err := get(ctx, s.mod, index)
	if errors.Is(err, store.ErrNotFound) {
		return store.Report{}, nil
	}
	if err != nil {
		return store.Report{}, fmt.Errorf("store: add report: %s: %w", index, err)
	}
	id, err := strconv.ParseInt(string(e.Value()), 10, 64)
	if err != nil {
		return store.Report{}, fmt.Errorf("store: add report: %s: %w", index, err)
	}
	v, err := get(ctx, s.mod, "report."+strconv.FormatInt(id, 10))
	if err != nil {
		return store.Report{}, fmt.Errorf("store: add report: report %d of %s: %w", id, index, err)
	}
	var rec reportRecord
	if err := json.Unmarshal(v.Value(), &rec); err != nil {
		return store.Report{}, fmt.Errorf("store: add report: report %d: %w", id, err)
	}
	return reportOf(id, rec), nil
}

// reportOf is a stored report record as a store.Report.
func reportOf(id int64, r reportRecord) store.Report {
	return store.NormReport(store.Report{ID: id, Table: r.Table, ByID: r.ByID, ByName: r.ByName,
		AboutID: r.AboutID, AboutName: r.AboutName, Reason: r.Reason, Chat: r.Chat, At: store.FromMillis(r.At), Call: r.Call})
}

// Reports lists reports, newest first. It reads them all: reports are few.
func (s *Store) Reports(ctx context.Context, limit int) ([]store.Report, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	var out []store.Report
	err := s.each(ctx, "report", func(key string, v []byte) error {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return err
		}
		var r reportRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		out = append(out, reportOf(id, r))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	slices.SortFunc(out, func(a, b store.Report) int { return int(b.ID - a.ID) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// AddAudit appends to the audit log.
func (s *Store) AddAudit(ctx context.Context, e store.AuditEntry) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	if err := store.CheckAudit(e); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	if _, err := s.putNew(ctx, "audit", auditRecord{At: store.ToMillis(e.At), By: e.By, Action: e.Action, Target: e.Target, Reason: e.Reason}); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	return nil
}

// Audit lists the audit log, newest first.
func (s *Store) Audit(ctx context.Context, limit int) ([]store.AuditEntry, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	type numbered struct {
		n int64
		e store.AuditEntry
	}
	var all []numbered
	err := s.each(ctx, "audit", func(key string, v []byte) error {
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return err
		}
		var r auditRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		all = append(all, numbered{n, store.AuditEntry{At: store.FromMillis(r.At), By: r.By, Action: r.Action, Target: r.Target, Reason: r.Reason}})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	slices.SortFunc(all, func(a, b numbered) int { return int(b.n - a.n) })
	var out []store.AuditEntry
	for _, x := range all {
		if limit > 0 && len(out) == limit {
			break
		}
		out = append(out, x.e)
	}
	return out, nil
}

// SetIgnore remembers that by ignores about: a revision-checked update of by's list, so
// two nodes changing it at once both count.
func (s *Store) SetIgnore(ctx context.Context, by, about, name string) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	if err := store.CheckIgnore(by, about); err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	err := s.changeIgnores(ctx, by, func(list map[string]string) bool {
		list[about] = name
		return true
	})
	if err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	return nil
}

// Ignores is whom by ignores.
func (s *Store) Ignores(ctx context.Context, by string) (map[string]string, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: ignores: %w", err)
	}
	list, _, err := s.ignores(ctx, by)
	if err != nil {
		return nil, fmt.Errorf("store: ignores: %w", err)
	}
	return list, nil
}

// RemoveIgnore forgets that by ignores about.
func (s *Store) RemoveIgnore(ctx context.Context, by, about string) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: unignore: %w", err)
	}
	err := s.changeIgnores(ctx, by, func(list map[string]string) bool {
		_, ok := list[about]
		delete(list, about)
		return ok
	})
	if err != nil {
		return fmt.Errorf("store: unignore: %w", err)
	}
	return nil
}

// ignores reads by's list and the revision to update it at (0: none yet).
func (s *Store) ignores(ctx context.Context, by string) (map[string]string, uint64, error) {
	list := map[string]string{}
	if by == "" {
		return list, 0, nil
	}
	e, err := get(ctx, s.mod, "ignore."+token(by))
	if err == store.ErrNotFound {
		return list, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal(e.Value(), &list); err != nil {
		return nil, 0, err
	}
	return list, e.Revision(), nil
}

// changeIgnores applies change to by's list and stores it, again on a concurrent
// change; change returns false when it found nothing to change (ErrNotFound).
func (s *Store) changeIgnores(ctx context.Context, by string, change func(map[string]string) bool) error {
	key := "ignore." + token(by)
	for range maxRetries {
		list, rev, err := s.ignores(ctx, by)
		if err != nil {
			return err
		}
		if !change(list) {
			return store.ErrNotFound
		}
		b, err := json.Marshal(list)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = s.mod.Create(ctx, key, b)
		} else {
			_, err = s.mod.Update(ctx, key, b, rev)
		}
		if !revisionConflict(err) {
			return err
		}
	}
	return ErrConflict
}
