package cluster

import "github.com/nats-io/nats.go"

// broadcastSubject carries the operators' broadcasts to every node. Core NATS, not a
// stream: a line is for whoever is online now.
const broadcastSubject = "parlor.broadcast"

// Broadcast sends an operators' line to every node of the cluster, this one included:
// each hands it to its own sessions (OnBroadcast).
func (n *Node) Broadcast(text string) error {
	return n.nc.Publish(broadcastSubject, []byte(text))
}

// OnBroadcast calls f with every line Broadcast sends from any node, on a goroutine of
// the NATS connection's, until the node's connection closes.
func (n *Node) OnBroadcast(f func(text string)) error {
	_, err := n.nc.Subscribe(broadcastSubject, func(m *nats.Msg) { f(string(m.Data)) })
	return err
}
