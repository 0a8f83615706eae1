package store_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parlor/store"
	"parlor/store/storetest"
)

func openSQLite(t *testing.T, path string) *store.SQLite {
	t.Helper()
	s, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatalf("OpenSQLite(%s): %v", path, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return openSQLite(t, filepath.Join(t.TempDir(), "parlor.db"))
	})
}

func TestSQLiteSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	// The parent directory does not exist yet, and the name needs URI escaping.
	path := filepath.Join(t.TempDir(), "new dir", "parlor?#%.db")
	at := time.Date(2026, 5, 1, 20, 0, 0, 0, time.UTC)
	s := openSQLite(t, path)
	if err := s.SavePlayer(ctx, store.Player{ID: "SHA256:ann", Name: "Ann", FirstSeen: at, LastSeen: at}); err != nil {
		t.Fatal(err)
	}
	g := store.FinishedGame{GameID: "topfive", Table: "ABCD", FinishedAt: at,
		Seats: []store.Seat{{PlayerID: "SHA256:ann", Name: "Ann", Score: 7, Winner: true}, {Name: "Bot", Score: 3}}}
	if err := s.RecordGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Opening twice more also proves migrations are not re-run on a current schema.
	for range 2 {
		s = openSQLite(t, path)
		p, err := s.Player(ctx, "SHA256:ann")
		if err != nil || p.Name != "Ann" || !p.FirstSeen.Equal(at) {
			t.Fatalf("after reopen: Player = %+v, %v", p, err)
		}
		gs, err := s.RecentGames(ctx, "SHA256:ann", 10)
		if err != nil || len(gs) != 1 || len(gs[0].Seats) != 2 || gs[0].Seats[1].Name != "Bot" {
			t.Fatalf("after reopen: RecentGames = %+v, %v", gs, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSQLiteSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parlor.db")
	s := openSQLite(t, path)
	if err := s.SavePlayer(context.Background(), store.Player{ID: "SHA256:ann", Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal (it persists in the file)", mode, err)
	}
	var version int
	if err := db.QueryRow(`SELECT version FROM schema_version`).Scan(&version); err != nil || version < 1 {
		t.Errorf("schema_version = %d, %v", version, err)
	}
}

func TestSQLiteRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parlor.db")
	if err := openSQLite(t, path).Close(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if _, err := db.Exec(`UPDATE schema_version SET version = version + 1`); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	s, err := store.OpenSQLite(path)
	if err == nil {
		_ = s.Close()
		t.Fatal("OpenSQLite accepted a database from a newer binary")
	}
	if !strings.Contains(err.Error(), "newer") {
		t.Errorf("error does not say the database is newer: %v", err)
	}
}

// A database of schema version 7, before reports kept their call, is brought to the
// current version with its reports, which keep no call; reports filed after it are kept
// once per call.
func TestSQLiteKeepsReportsFiledBeforeTheirCalls(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "parlor.db")
	s := openSQLite(t, path)
	old := store.Report{Table: "ABCD", ByID: "SHA256:ann", ByName: "Ann", AboutID: "SHA256:bob", AboutName: "Bob",
		Reason: "rude", At: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)}
	if _, err := s.AddReport(ctx, old); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	db := rawDB(t, path)
	for _, q := range []string{`DROP INDEX reports_by_call`, `ALTER TABLE reports DROP COLUMN call`, `UPDATE schema_version SET version = 7`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	_ = db.Close()
	s = openSQLite(t, path)
	withCall := old
	withCall.Call = "node-a.1.9"
	first, err := s.AddReport(ctx, withCall)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := s.AddReport(ctx, withCall); !errors.Is(err, store.ErrFiled) || again.ID != first.ID {
		t.Errorf("the same call's report again: %+v, %v", again, err)
	}
	list, err := s.Reports(ctx, 0)
	if err != nil || len(list) != 2 || list[1].Reason != "rude" || list[1].Call != "" || list[0].Call != withCall.Call {
		t.Errorf("reports after the upgrade: %+v, %v", list, err)
	}
}

func TestSQLiteBadPath(t *testing.T) {
	if _, err := store.OpenSQLite(""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("empty path: err = %v, want ErrInvalid", err)
	}
	// A directory where the file should be.
	if _, err := store.OpenSQLite(t.TempDir()); err == nil {
		t.Error("opening a directory as a database succeeded")
	}
}

// rawDB opens the file directly, to inspect what the store cannot be asked.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
