package server

import (
	"context"
	"time"

	"charm.land/log/v2"

	"parlor/cluster"
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
