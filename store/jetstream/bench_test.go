package jetstream_test

import (
	"context"
	"fmt"
	"testing"

	"parlor/internal/testkit/natstest"
	"parlor/store"
)

// BenchmarkAppendTables measures one acknowledged append on an embedded server: a single
// entry (one plain publish) and one group commit of many tables (one atomic batch).
func BenchmarkAppendTables(b *testing.B) {
	srv := natstest.Start(b)
	nc := natstest.Connect(b, srv.URL())
	for _, tables := range []int{1, 50} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			s := open(b, nc, newPrefix())
			ctx := context.Background()
			seq := int64(0)
			batch := make([]store.TableEntry, tables)
			for b.Loop() {
				seq++
				for i := range batch {
					kind := store.EntryEvent
					if seq == 1 {
						kind = store.EntrySnapshot
					}
					batch[i] = store.TableEntry{Table: fmt.Sprintf("T%03d", i), Seq: seq, Kind: kind, Data: []byte(`{"kind":"act","seat":1}`)}
				}
				if err := s.AppendTables(ctx, batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tables), "ns/entry")
		})
	}
}
