package server

import (
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"
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
	refused  *prometheus.CounterVec
	reports  prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{
		reg:      prometheus.NewRegistry(),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlor_sessions", Help: "Open player sessions, SSH and browser (parlor_web_sessions counts the browser ones)."}),
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
	m.reports = prometheus.NewCounter(prometheus.CounterOpts{Name: "parlor_reports_total", Help: "Players' reports about other players, kept for the admins."})
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parlor_refused_total", Help: "Connections turned away or closed by the front door, by reason."}, []string{"reason"})
	buildInfo := prometheus.NewGauge(prometheus.GaugeOpts{Name: "parlor_build_info", Help: "Always 1; the labels say which parlor is running.",
		ConstLabels: prometheus.Labels{"version": Version(), "goversion": runtime.Version()}})
	buildInfo.Set(1)
	m.reg.MustRegister(m.sessions, m.tables, m.started, m.finished, m.actions, m.fanOut, m.refused, m.reports, buildInfo,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) refuse(reason string) { m.refused.WithLabelValues(reason).Inc() }

// watchGate exports the gate's connection counts.
func (m *metrics) watchGate(g *gate) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlor_connections", Help: "Open SSH connections, by state.", ConstLabels: prometheus.Labels{"state": "login"}},
			func() float64 { return float64(g.LoggingIn()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlor_connections", Help: "Open SSH connections, by state.", ConstLabels: prometheus.Labels{"state": "authenticated"}},
			func() float64 { return float64(g.Authenticated()) }),
	)
}

// watchWeb exports the browser door's open sessions.
func (m *metrics) watchWeb(n *atomic.Int64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parlor_web_sessions", Help: "Open browser sessions (the browser door), of parlor_sessions."},
		func() float64 { return float64(n.Load()) }))
}

func (m *metrics) hooks() lobby.Hooks {
	return lobby.Hooks{
		GameStarted:  func(g string) { m.started.WithLabelValues(g).Inc() },
		GameFinished: func(g string) { m.finished.WithLabelValues(g).Inc() },
		Action:       func(g string) { m.actions.WithLabelValues(g).Inc() },
		FanOut:       func(d time.Duration) { m.fanOut.Observe(d.Seconds()) },
		Tables:       func(n int) { m.tables.Set(float64(n)) },
		// Reported is not counted here: the report is counted once it is kept (fileReport).
	}
}

// handler serves /metrics, and /healthz: 200 "ok", or 503 and why not.
func (m *metrics) handler(health func() error) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if err := health(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = fmt.Fprintf(w, "unhealthy: %v\n", err)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	return mux
}
