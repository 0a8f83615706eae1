package jetstream

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/synadia-io/orbit.go/jetstreamext"
)

// publish stores msgs in their stream, all of them or none, and returns the stream
// sequence of the last one once JetStream acknowledged them. Several messages go as one
// atomic batch (at most 1,000, nats-server's default limit): all but the last are sent
// without waiting, and the one acknowledgement of the commit covers the batch. A batch
// costs the server more than plain publishes (it stages the batch, on disk for a stream
// of one replica), so only finished games use it, where all-or-nothing matters and
// speed does not.
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
