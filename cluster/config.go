// Package cluster makes a parlor server one node of a cluster on NATS JetStream: any
// node serves any player, every node shows one lobby, a table runs on one node at a
// time (its owner, holding a lease in the table directory), and players on other nodes
// sit at it through a proxy that sends their calls to the owner and receives their own
// seat's updates only. When an owner stops renewing its leases another node claims its
// tables and restores them from their logs; a node that is stopped hands its tables
// over first. docs/cluster.md has the design.
package cluster

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// Config is how a node joins the cluster.
type Config struct {
	URLs  string // NATS servers, comma-separated: nats://nats-1:4222,nats://nats-2:4222
	Node  string // this node's name, unique in the cluster
	Creds string // a NATS credentials file; "" for none
	CA    string // a CA certificate (PEM) to verify the NATS servers with; "" for the system's
	Cert  string // a client certificate (PEM) for mutual TLS, with Key
	Key   string // the client certificate's private key (PEM)

	// Replicas is how many NATS servers keep each bucket (1 for a single server).
	Replicas int
	// Renew is how often a lease (and the node's presence) is renewed; Lease is how long
	// a lease stays valid without a renewal, after which another node claims the table.
	Renew, Lease time.Duration
}

// Defaults fills what is unset: leases renewed every second, lost after four.
func (c Config) withDefaults() Config {
	if c.Replicas < 1 {
		c.Replicas = 1
	}
	if c.Renew <= 0 {
		c.Renew = time.Second
	}
	if c.Lease <= 0 {
		c.Lease = 4 * c.Renew
	}
	return c
}

// Validate reports what is wrong with a cluster configuration, in flag names.
func (c Config) Validate() error {
	var errs []error
	if strings.TrimSpace(c.URLs) == "" {
		return nil // not a cluster
	}
	if strings.TrimSpace(c.Node) == "" {
		errs = append(errs, errors.New("--node: every node of a cluster needs its own name (--nats is set)"))
	} else if strings.ContainsAny(c.Node, ".*> \t") {
		errs = append(errs, fmt.Errorf("--node %q: use letters, digits, - and _ only", c.Node))
	}
	if (c.Cert == "") != (c.Key == "") {
		errs = append(errs, errors.New("--nats-cert and --nats-key go together"))
	}
	return errors.Join(errs...)
}

// Connect opens the node's NATS connection; it reconnects by itself after a network
// failure (the leases tell the other nodes if it stays away too long).
func Connect(c Config) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("parlor " + c.Node), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second)}
	if c.Creds != "" {
		opts = append(opts, nats.UserCredentials(c.Creds))
	}
	if c.CA != "" {
		opts = append(opts, nats.RootCAs(c.CA))
	}
	if c.Cert != "" {
		opts = append(opts, nats.ClientCert(c.Cert, c.Key))
	}
	nc, err := nats.Connect(c.URLs, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS %s: %w", c.URLs, err)
	}
	return nc, nil
}
