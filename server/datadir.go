package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The files parlor keeps in its data directory.
const (
	hostKeyFile  = "host_ed25519"
	databaseFile = "parlor.db"
)

// prepareDataDir makes the data directory if needed and checks that parlor can write
// there, so that a wrong owner is one clear message at start instead of a failure on
// the first finished game.
func prepareDataDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return dataDirError(dir, err)
	}
	if err := writable(dir); err != nil {
		return dataDirError(dir, err)
	}
	for _, file := range []string{hostKeyFile, databaseFile, databaseFile + "-wal", databaseFile + "-shm"} {
		f, err := os.OpenFile(filepath.Join(dir, file), os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return dataDirError(dir, err)
		}
		_ = f.Close()
	}
	return nil
}

// dataDirError says what to do about a data directory parlor cannot use.
func dataDirError(dir string, err error) error {
	if !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	uid := os.Geteuid()
	return fmt.Errorf("data directory %s: permission denied (%v). parlor runs as uid %d and must own it: "+
		"chown -R %d:%d %s, or choose another directory with --data. "+
		"The Docker image runs as uid 65532: for a bind mount run sudo chown -R 65532:65532 on the host directory", dir, err, uid, uid, os.Getegid(), dir)
}

// writable checks that a file can be made (and removed) in dir.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".parlor-write-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}
