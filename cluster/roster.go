package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// The roster: the operators' list of players online spans every node. It is asked for,
// not published: every node answers a request on rosterSubject with its own sessions,
// and the asking node gathers the answers of every node whose presence is fresh. A
// session's key and address stay out of presence, which every node puts every Renew.

// rosterSubject is where a node asks every node for its sessions.
const rosterSubject = "parlor.admin.roster"

// rosterChunk bounds the sessions of one answer message, far below NATS's 1 MB payload.
const rosterChunk = 500

// rosterWait is how long Roster waits for the nodes that have not answered.
const rosterWait = 2 * time.Second

// Session is one player's session on a node, as the operators' list shows it.
type Session struct {
	Node   string   `json:"node"`
	Name   string   `json:"name"`
	ID     string   `json:"id"`     // key fingerprint, or guest id
	Addr   string   `json:"addr"`   // the address the player connected from
	Client string   `json:"client"` // the SSH client's version
	Kind   string   `json:"kind"`   // "tui" or "api"
	Tables []string `json:"tables"` // the codes of the tables the player sits at, on any node
}

// rosterPart is one message of a node's answer; last marks its final one.
type rosterPart struct {
	Node     string    `json:"node"`
	Sessions []Session `json:"sessions"`
	Last     bool      `json:"last"`
}

// OnRoster has this node answer every node's Roster with sessions(), its own sessions.
func (n *Node) OnRoster(sessions func() []Session) error {
	_, err := n.nc.Subscribe(rosterSubject, func(m *nats.Msg) {
		if m.Reply == "" {
			return
		}
		all := sessions()
		for i := 0; ; i += rosterChunk {
			part := rosterPart{Node: n.name, Sessions: all[i:min(i+rosterChunk, len(all))], Last: i+rosterChunk >= len(all)}
			for j := range part.Sessions {
				part.Sessions[j].Node = n.name
			}
			b, _ := json.Marshal(part)
			if err := n.nc.Publish(m.Reply, b); err != nil || part.Last {
				return
			}
		}
	})
	return err
}

// Roster gathers the sessions of every node (this one included, once it answers with
// OnRoster), sorted by node. silent names the nodes that were expected — their presence
// is fresh — and did not answer in time; their sessions are missing.
func (n *Node) Roster(ctx context.Context) (sessions []Session, silent []string, err error) {
	want := map[string]bool{n.name: true}
	n.mu.Lock()
	for name := range n.freshLocked() {
		want[name] = true
	}
	n.mu.Unlock()
	inbox := n.nc.NewRespInbox()
	sub, err := n.nc.SubscribeSync(inbox)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: roster: %w", err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := n.nc.PublishRequest(rosterSubject, inbox, nil); err != nil {
		return nil, nil, fmt.Errorf("cluster: roster: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, rosterWait)
	defer cancel()
	done := map[string]bool{}
	for len(done) < len(want) {
		m, err := sub.NextMsgWithContext(ctx)
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("cluster: roster: %w", err)
		}
		var part rosterPart
		if json.Unmarshal(m.Data, &part) != nil || done[part.Node] {
			continue
		}
		sessions = append(sessions, part.Sessions...)
		if part.Last {
			done[part.Node] = true
		}
	}
	for name := range want {
		if !done[name] {
			silent = append(silent, name)
		}
	}
	slices.Sort(silent)
	slices.SortStableFunc(sessions, func(a, b Session) int { return strings.Compare(a.Node, b.Node) })
	return sessions, silent, nil
}
