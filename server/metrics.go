package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"parlor/lobby"
)

// metrics are the server's Prometheus collectors, in a registry of their own so that
// several servers (as in tests) never collide.
type metrics struct {
	reg      *prometheus.Registry
	sessions prometheus.Gauge
	tables   prometheus.Gauge
	started  *prometheus.CounterVec
	finished *prometheus.CounterVec
	actions  *prometheus.CounterVec
	fanOut   prometheus.Histogram
}

func newMetrics() *metrics {
	m := &metrics{
		reg:      prometheus.NewRegistry(),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlor_sessions", Help: "Open SSH sessions."}),
		tables:   prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlor_tables_open", Help: "Open tables."}),
		started:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlor_games_started_total", Help: "Games started, by game."}, []string{"game"}),
		finished: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlor_games_finished_total", Help: "Games played to their end, by game."}, []string{"game"}),
		actions:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlor_actions_total", Help: "Game actions applied, by game."}, []string{"game"}),
		fanOut: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "parlor_fanout_seconds",
			Help:    "Time from a table change (an action, a tick) until every member's mailbox holds it.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25},
		}),
	}
	m.reg.MustRegister(m.sessions, m.tables, m.started, m.finished, m.actions, m.fanOut,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) hooks() lobby.Hooks {
	return lobby.Hooks{
		GameStarted:  func(g string) { m.started.WithLabelValues(g).Inc() },
		GameFinished: func(g string) { m.finished.WithLabelValues(g).Inc() },
		Action:       func(g string) { m.actions.WithLabelValues(g).Inc() },
		FanOut:       func(d time.Duration) { m.fanOut.Observe(d.Seconds()) },
		Tables:       func(n int) { m.tables.Set(float64(n)) },
	}
}

func (m *metrics) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
	return mux
}
