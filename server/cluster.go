package server

import (
	"context"
	"path/filepath"
	"time"

	"charm.land/log/v2"

	"parlor/cluster"
	"parlor/store"
	"parlor/store/jetstream"
)

// joinCluster connects to NATS and joins the cluster as cfg.Node.
func joinCluster(cfg cluster.Config, logger *log.Logger) (*cluster.Node, error) {
	nc, err := cluster.Connect(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	node, err := cluster.New(ctx, nc, cfg, logger.WithPrefix("cluster"))
	if err != nil {
		nc.Close()
		return nil, err
	}
	return node, nil
}

// openStore opens the store: SQLite in the data directory for a lone server, JetStream
// (every node sees the same players, history and table logs) for a cluster node.
func openStore(cfg Config) (store.Store, func(), error) {
	if cfg.Cluster.URLs == "" {
		st, err := store.OpenSQLite(filepath.Join(cfg.DataDir, databaseFile))
		if err != nil {
			return nil, nil, err
		}
		return st, func() { _ = st.Close() }, nil
	}
	nc, err := cluster.Connect(cfg.Cluster)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	replicas := max(cfg.Cluster.Replicas, 1)
	st, err := jetstream.Open(ctx, jetstream.Config{Conn: nc, Replicas: replicas})
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return st, func() {
		_ = st.Close()
		// Drain: what the store published is delivered before the connection goes.
		_ = nc.Drain()
	}, nil
}
