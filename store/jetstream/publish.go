package jetstream

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/synadia-io/orbit.go/jetstreamext"
)

// maxBatch is the most messages one atomic batch may hold: nats-server's default limit
// (jetstream.limits.max_batch_size).
const maxBatch = 1000

// publish stores msgs in their stream, all of them or none, and returns the stream
// sequence of the last one once JetStream acknowledged them. Several messages go as one
// atomic batch: all but the last are sent without waiting, and the one acknowledgement
// of the commit covers the batch, so a batch costs one round trip however long it is.
// The messages of a batch get consecutive stream sequences.
func (s *Store) publish(ctx context.Context, msgs []*nats.Msg) (uint64, error) {
	if len(msgs) == 1 {
		// A plain publish: an atomic batch of one would stage it first for nothing.
		ack, err := s.js.PublishMsg(ctx, msgs[0])
		if err != nil {
			return 0, err
		}
		return ack.Sequence, nil
	}
	// No acknowledgement of the first message either: the commit's answer says if any
	// part of the batch was refused.
	ack, err := jetstreamext.PublishMsgBatch(ctx, s.js, msgs, jetstreamext.BatchFlowControl{AckFirst: false})
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}
