package lobby

import (
	"strings"
	"sync"

	"github.com/mtibben/confusables"

	"parlor/rules"
)

// ErrNameInUse refuses a name a player online now goes by (another key, or a guest):
// taking it would let anyone pass for them in the lobby's list, where tables go by
// their host's name. At a table, players with the same name are told apart anyway
// (uniqueName), for a name whose owner is offline.
var ErrNameInUse = rules.Sentinel("lobby.name_in_use", "that name is in use")

// nameKeys are what two names must differ in to be two names: case, accents and letters
// that look alike aside ("Bob", "BÖB", "B0b", "Bɪll" and "BiII" for "Bill"), by Unicode's
// confusable skeleton (TS 39). Two names are one if either key is the same: the skeleton
// of the name in capitals, as botName in session takes it (a Cyrillic т looks like a T,
// not like a t), and the skeleton of the name as typed, folded afterwards (a capital I
// looks like an l, which folding first would hide). Small capitals count as letters.
func nameKeys(name string) [2]string {
	name = smallCapitals.Replace(name)
	return [2]string{
		confusables.Skeleton(strings.ToUpper(rules.Plain(name))),
		rules.Plain(confusables.Skeleton(name)),
	}
}

// smallCapitals are Latin small capitals and their letters (TS 39 keeps them apart, the
// bots' names aside): "Aɴɴ" passes for "Ann" on a screen. Written out here as no library
// maps them to their letters; Unicode has no small capital x.
var smallCapitals = strings.NewReplacer("ᴀ", "a", "ʙ", "b", "ᴄ", "c", "ᴅ", "d", "ᴇ", "e", "ꜰ", "f", "ɢ", "g",
	"ʜ", "h", "ɪ", "i", "ᴊ", "j", "ᴋ", "k", "ʟ", "l", "ᴍ", "m", "ɴ", "n", "ᴏ", "o", "ᴘ", "p", "ꞯ", "q", "ʀ", "r",
	"ꜱ", "s", "ᴛ", "t", "ᴜ", "u", "ᴠ", "v", "ᴡ", "w", "ʏ", "y", "ᴢ", "z")

// heldName is a name held by the connections of one player.
type heldName struct {
	id string
	n  int // connections of that player holding it
}

// Online is a player's connection, counted online until Done, and the name it holds.
type Online struct {
	l    *Lobby
	id   string
	mu   sync.Mutex
	keys [2]string // the name held (nameKeys); empty for none
	end  bool
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
	keys := nameKeys(name)
	l := o.l
	taken := func(id string) bool { return id != o.id }
	if l.cfg.Cluster != nil {
		for _, k := range keys {
			if id, ok := l.cfg.Cluster.NameHolder(k); ok && taken(id) {
				return nameInUse(name)
			}
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.end {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		if h, ok := l.names[k]; ok && taken(h.id) {
			return nameInUse(name)
		}
	}
	if keys == o.keys {
		return nil
	}
	l.releaseLocked(o.keys)
	for _, k := range keys {
		h := l.names[k]
		h.id, h.n = o.id, h.n+1
		l.names[k] = h
	}
	o.keys = keys
	return nil
}

func nameInUse(name string) error {
	return told(ErrNameInUse, "%s is too like the name of a player online now: please pick another name.", name)
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
	l.releaseLocked(o.keys)
	l.mu.Unlock()
}

// releaseLocked lets go of one connection's hold on a name's keys; l.mu is held.
func (l *Lobby) releaseLocked(keys [2]string) {
	for _, k := range keys {
		h, ok := l.names[k]
		if !ok {
			continue
		}
		if h.n--; h.n <= 0 {
			delete(l.names, k)
		} else {
			l.names[k] = h
		}
	}
}
