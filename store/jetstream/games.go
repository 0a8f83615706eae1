package jetstream

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
	"github.com/synadia-io/orbit.go/jetstreamext"

	"parlor/store"
)

// gameRecord is one finished game as stored, once per registered player in it.
type gameRecord struct {
	Game       string       `json:"game"`
	Table      string       `json:"table"`
	FinishedAt int64        `json:"finished_at"` // Unix ms
	Seats      []seatRecord `json:"seats"`
}

type seatRecord struct {
	PlayerID string `json:"id,omitempty"`
	Name     string `json:"name"`
	Score    int    `json:"score"`
	Winner   bool   `json:"winner,omitempty"`
}

// gamesFilter is the subject filter of every game the player sat in; the last token
// says whether they won.
func (s *Store) gamesFilter(playerID string) string {
	return s.cfg.Prefix + ".games." + token(playerID) + ".*"
}

func (s *Store) gamesSubject(playerID string, won bool) string {
	result := "lost"
	if won {
		result = "won"
	}
	return s.cfg.Prefix + ".games." + token(playerID) + "." + result
}

// RecordGame stores one finished game: one message per registered player in it (a
// player holding two seats gets one), all in one atomic batch. Bots and guests have no
// history, so a game of only those stores nothing.
func (s *Store) RecordGame(ctx context.Context, g store.FinishedGame) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: record game %s at %s: %w", g.GameID, g.Table, err)
	}
	if err := store.CheckGame(g); err != nil {
		return fmt.Errorf("store: record game: %w", err)
	}
	rec := gameRecord{Game: g.GameID, Table: g.Table, FinishedAt: store.ToMillis(g.FinishedAt)}
	won := map[string]bool{}
	var players []string
	for _, seat := range g.Seats {
		rec.Seats = append(rec.Seats, seatRecord(seat))
		if seat.PlayerID == "" {
			continue
		}
		if _, ok := won[seat.PlayerID]; !ok {
			players = append(players, seat.PlayerID)
		}
		won[seat.PlayerID] = won[seat.PlayerID] || seat.Winner
	}
	if len(players) == 0 {
		return nil
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("store: record game %s at %s: %w", g.GameID, g.Table, err)
	}
	var msgs []*nats.Msg
	for _, id := range players {
		m := nats.NewMsg(s.gamesSubject(id, won[id]))
		m.Data = data
		msgs = append(msgs, m)
	}
	if _, err := s.publish(ctx, msgs); err != nil {
		return fmt.Errorf("store: record game %s at %s: %w", g.GameID, g.Table, err)
	}
	return nil
}

// RecentGames lists the player's finished games, newest first (the later recorded first
// among equal times), at most limit of them. It reads all of the player's games, in
// batches of direct gets, since they may have been recorded out of time order.
func (s *Store) RecentGames(ctx context.Context, playerID string, limit int) ([]store.FinishedGame, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
	}
	if playerID == "" {
		return nil, nil
	}
	type stored struct {
		g   store.FinishedGame
		seq uint64
	}
	var all []stored
	err := s.readGames(ctx, playerID, func(m *natsjs.RawStreamMsg) error {
		var rec gameRecord
		if err := json.Unmarshal(m.Data, &rec); err != nil {
			return fmt.Errorf("game at stream sequence %d: %w", m.Sequence, err)
		}
		g := store.FinishedGame{GameID: rec.Game, Table: rec.Table, FinishedAt: store.FromMillis(rec.FinishedAt)}
		for _, seat := range rec.Seats {
			g.Seats = append(g.Seats, store.Seat(seat))
		}
		all = append(all, stored{g, m.Sequence})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
	}
	slices.SortFunc(all, func(a, b stored) int {
		if c := b.g.FinishedAt.Compare(a.g.FinishedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.seq, a.seq)
	})
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	var out []store.FinishedGame
	for _, st := range all {
		out = append(out, st.g)
	}
	return out, nil
}

// readGames calls each for every game message of the player, in stream order.
func (s *Store) readGames(ctx context.Context, playerID string, each func(*natsjs.RawStreamMsg) error) error {
	stream := s.games.CachedInfo().Config.Name
	next := uint64(1)
	for {
		msgs, err := jetstreamext.GetBatch(ctx, s.js, stream, readBatch,
			jetstreamext.GetBatchSeq(next), jetstreamext.GetBatchSubject(s.gamesFilter(playerID)))
		if err != nil {
			return err
		}
		got, pending := 0, ""
		for m, err := range msgs {
			if errors.Is(err, jetstreamext.ErrNoMessages) {
				break
			}
			if err != nil {
				return err
			}
			if err := each(m); err != nil {
				return err
			}
			got++
			next = m.Sequence + 1
			pending = m.Header.Get("Nats-Num-Pending")
		}
		// Nats-Num-Pending counts the matching messages in the whole stream after this
		// one; a batch may also end early at the server's byte limit.
		if got == 0 || pending == "0" {
			return nil
		}
	}
}

// PlayerStats counts the player's finished and won games: the number of messages on
// their two subjects, which the stream's leader knows without reading them.
func (s *Store) PlayerStats(ctx context.Context, playerID string) (store.Stats, error) {
	if err := s.ready(ctx); err != nil {
		return store.Stats{}, fmt.Errorf("store: stats of %s: %w", playerID, err)
	}
	if playerID == "" {
		return store.Stats{}, nil
	}
	info, err := s.games.Info(ctx, natsjs.WithSubjectFilter(s.gamesFilter(playerID)))
	if err != nil {
		return store.Stats{}, fmt.Errorf("store: stats of %s: %w", playerID, err)
	}
	won := int(info.State.Subjects[s.gamesSubject(playerID, true)])
	lost := int(info.State.Subjects[s.gamesSubject(playerID, false)])
	return store.Stats{Played: won + lost, Won: won}, nil
}
