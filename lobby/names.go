package lobby

import (
	"errors"
	"strings"
	"sync"

	"github.com/mtibben/confusables"

	"parlor/rules"
)

// ErrNameInUse refuses a name a player online now goes by (another key, or a guest):
// taking it would let anyone pass for them in the lobby's list, where tables go by
// their host's name. At a table, players with the same name are told apart anyway
// (uniqueName), for a name whose owner is offline.
var ErrNameInUse = errors.New("that name is in use")

// nameKey is what two names must differ in to be two names: case, accents and letters
// that look alike aside ("Bob", "BÖB" and "B0b" are one), by Unicode's confusable
// skeleton (TS 39) of the name in capitals, as botName in session does.
func nameKey(name string) string {
	return confusables.Skeleton(strings.ToUpper(rules.Plain(name)))
}

// heldName is a name held by the connections of one player.
type heldName struct {
	id string
	n  int // connections of that player holding it
}

// Online is a player's connection, counted online until Done, and the name it holds.
type Online struct {
	l   *Lobby
	id  string
	mu  sync.Mutex
	key string // the name held; "" for none
	end bool
}

// Connected counts the player with this id as online until Done.
func (l *Lobby) Connected(id string) *Online {
	l.mu.Lock()
	l.online++
	l.mu.Unlock()
	return &Online{l: l, id: id}
}

// Name holds name for this connection, letting go of the one it held: an error wrapping
// ErrNameInUse if another player online, here or on another node of a cluster, has it.
func (o *Online) Name(name string) error {
	k := nameKey(name)
	l := o.l
	taken := func(id string) bool { return id != o.id }
	if l.cfg.Cluster != nil {
		if id, ok := l.cfg.Cluster.NameHolder(k); ok && taken(id) {
			return nameInUse(name)
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.end {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.names[k]; ok && taken(h.id) {
		return nameInUse(name)
	}
	if k == o.key {
		return nil
	}
	l.releaseLocked(o.key)
	h := l.names[k]
	h.id, h.n = o.id, h.n+1
	l.names[k] = h
	o.key = k
	return nil
}

func nameInUse(name string) error {
	return told(ErrNameInUse, "Someone called %s is playing here now: please pick another name.", name)
}

// Done ends the connection: it is no longer online, and its name is free unless the same
// player holds it on another connection. Calling it again does nothing.
func (o *Online) Done() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.end {
		return
	}
	o.end = true
	l := o.l
	l.mu.Lock()
	l.online--
	l.releaseLocked(o.key)
	l.mu.Unlock()
}

// releaseLocked lets go of one connection's hold on the name k; l.mu is held.
func (l *Lobby) releaseLocked(k string) {
	h, ok := l.names[k]
	if !ok {
		return
	}
	if h.n--; h.n <= 0 {
		delete(l.names, k)
	} else {
		l.names[k] = h
	}
}
