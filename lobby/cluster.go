package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"time"
)

// Cluster is what the lobby of one node asks the other nodes of a cluster (package
// cluster implements it): a code must be free everywhere, a table another node runs is
// joined through a proxy, and the lobby list, the online count and the way back to a
// seat span every node. The lobby calls it outside its own lock.
type Cluster interface {
	// Claim reserves a new table's code across the cluster for this node; false when
	// another table has it.
	Claim(code string) (bool, error)
	// Closed says a table of this node closed for good (not handed to another node).
	Closed(code string)
	// TakenOver says a table of this node stopped because another node took it over:
	// the store refused its log's entries as another writer's. It runs there now.
	TakenOver(code string)
	// Elsewhere tells whether another node runs the table with code.
	Elsewhere(code string) bool
	// Join seats p at (or, with watch, lets p watch) the table another node runs.
	Join(p Player, code string, watch bool) (Place, error)
	// Tables is the public state of the tables the other nodes run.
	Tables() []TableInfo
	// Seated lists the tables of other nodes where playerID holds a seat.
	Seated(playerID string) []TableInfo
	// Online is how many players the other nodes have connected.
	Online() int
	// NameHolder is the id of a player online at another node under the name whose
	// nameKey is key.
	NameHolder(key string) (id string, ok bool)
}

// errElsewhere says a code belongs to a table on another node of the cluster.
var errElsewhere = errors.New("the table runs on another node")

// elsewhere is find's answer for a code that is not here: the cluster may know it.
func (l *Lobby) elsewhere(code string) bool {
	return l.cfg.Cluster != nil && l.cfg.Cluster.Elsewhere(code)
}

// joinElsewhere sits p at a table of another node, when find said it is one.
func (l *Lobby) joinElsewhere(p Player, code string, watch bool, err error) (Place, error) {
	if !errors.Is(err, errElsewhere) {
		return nil, err
	}
	norm, _ := NormalizeCode(code)
	return l.cfg.Cluster.Join(p, norm, watch)
}

// claimCode picks a random code of size letters and claims it across the cluster.
func (l *Lobby) claimCode(size int) (string, error) {
	for try := 0; try < 20; try++ {
		b := make([]byte, size)
		for i := range b {
			b[i] = codeLetters[rand.IntN(len(codeLetters))]
		}
		ok, err := l.cfg.Cluster.Claim(string(b))
		if err != nil {
			return "", fmt.Errorf("could not reserve a table code: %w", err)
		}
		if ok {
			return string(b), nil
		}
	}
	return "", errors.New("could not find a free table code: please try again")
}

// unclaim gives back a claimed code that no table took after all.
func (l *Lobby) unclaim(code string) {
	if code != "" {
		l.cfg.Cluster.Closed(code)
	}
}

// tableGone tells the cluster that a table closed, unless it was only stopped so that
// another node (or this one, after a restart) brings it back from its log.
func (l *Lobby) tableGone(t *Table) {
	switch {
	case l.cfg.Cluster == nil:
	case t.jr != nil && t.jr.taken.Load():
		l.cfg.Cluster.TakenOver(t.code)
	case t.jr == nil || !t.jr.keep:
		l.cfg.Cluster.Closed(t.code)
	}
}

// withClusterTables adds the other nodes' tables p may see to a local list, ordered
// like Tables.
func (l *Lobby) withClusterTables(p Player, out []TableInfo) []TableInfo {
	if l.cfg.Cluster == nil {
		return out
	}
	out = slices.Clone(out) // out is the shared snapshot: never sort it in place
	for _, info := range l.cfg.Cluster.Tables() {
		if !info.Private || p.Admin {
			out = append(out, info)
		}
	}
	sortTables(out)
	return out
}

func sortTables(out []TableInfo) {
	sort.Slice(out, func(i, j int) bool {
		if a, b := stateOrder[out[i].State], stateOrder[out[j].State]; a != b {
			return a < b
		}
		return out[i].Code < out[j].Code
	})
}

// Local is the state of this node's own tables and players, which a cluster node
// publishes for the others.
type Local struct {
	Tables []TableInfo         // every open table here, private ones included
	Seated map[string][]string // player ids seated at each table
	Online int                 // players connected here
	Names  map[string]string   // the id of the player online here under each name, by nameKey
}

// LocalState is what this node runs, without the other nodes' part.
func (l *Lobby) LocalState() Local {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := Local{Seated: make(map[string][]string, len(l.seatIDs)), Online: l.online}
	out.Names = make(map[string]string, len(l.names))
	for k, h := range l.names {
		out.Names[k] = h.id
	}
	for _, info := range l.infos {
		out.Tables = append(out.Tables, info)
	}
	for code, ids := range l.seatIDs {
		out.Seated[code] = append([]string(nil), ids...)
	}
	sortTables(out.Tables)
	return out
}

// Runs tells whether this node runs the table with code.
func (l *Lobby) Runs(code string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.tables[code]
	return ok
}

// RestoreTable brings back one table from its log: on a cluster node that took over the
// table of a node that stopped. The log stays where it is; the table goes on from it.
// alive is when the node that ran it was last known to run (its lease's last renewal, in
// game time; zero if unknown): the downtime its timers are moved by counts from there,
// not from the table's last entry, which an idle table wrote long before its node died.
func (l *Lobby) RestoreTable(ctx context.Context, code string, alive time.Time) error {
	if l.journal == nil {
		return errors.New("restore: the lobby has no table log")
	}
	if l.Runs(code) {
		return nil
	}
	_, err := l.restoreOne(ctx, code, alive)
	return err
}

// HasLog tells whether the store holds an open log of the table with code: false once
// its close is recorded (the log removed, or ending in its closed entry), or if it never
// had one. A cluster node asks it before it takes a table whose directory entry is
// missing for closed: a table that moves keeps its log.
func (l *Lobby) HasLog(ctx context.Context, code string) (bool, error) {
	if l.cfg.Log == nil {
		return false, errors.New("the lobby has no table log")
	}
	entries, err := l.cfg.Log.ReadTable(ctx, code)
	return len(entries) > 0, err
}

// Handoff stops a table without closing it, so another node can bring it back from its
// log at once: its entries are made durable first, and its members are told notice.
// It returns once the table has stopped; false if no such table runs here.
func (l *Lobby) Handoff(code string, notice Closed) bool {
	l.mu.Lock()
	t := l.tables[code]
	l.mu.Unlock()
	if t == nil {
		return false
	}
	err := t.do(func(time.Time) error {
		t.stopForRestart()
		t.closing = notice
		return nil
	})
	if err != nil {
		return false
	}
	<-t.done
	return true
}
