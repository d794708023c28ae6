// Package metrics is what an operator watches: the Prometheus metrics
// (/metrics) and the health check (/healthz) of a Tessera process. It is
// the only importer of the Prometheus client. The service, the bot and
// the web pages report to a Registry through small interfaces each of
// them defines (service.Meter, bot.Meter, web.LiveCounter), so none of
// them imports this package; cmd/tessera wires them and mounts the two
// handlers.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tessera"
)

// Outbox is what the gauges and the health check read of the store, at
// each scrape: how many announcements wait, and the oldest of them
// (storage.Outbox has both).
type Outbox interface {
	Outbox(ctx context.Context) (int, error)
	Pending(ctx context.Context, now time.Time, max int) ([]tessera.Announcement, error)
}

// DefaultTimeout bounds what one scrape or health check waits for the
// store and the transport.
const DefaultTimeout = 2 * time.Second

// Registry holds a process's metrics; New makes one, cmd/tessera hands
// it to the service, the bot and the web server, and serves Handler and
// Health.
type Registry struct {
	reg *prometheus.Registry

	moves       *prometheus.CounterVec
	aiMoves     *prometheus.CounterVec
	aiThink     *prometheus.HistogramVec
	rateLimited *prometheus.CounterVec
	retries     prometheus.Counter
	live        prometheus.Gauge

	// Timeout bounds each scrape's and health check's reads (default
	// DefaultTimeout); Now is the clock an announcement's age is measured
	// on (default time.Now: the store stamps announcements on the
	// machine's clock).
	Timeout time.Duration
	Now     func() time.Time
	// Logger gets what the health check does not show (default
	// slog.Default()).
	Logger *slog.Logger

	mu     sync.Mutex
	outbox Outbox
	ready  []readiness
}

// readiness is one part the health check asks whether it is up.
type readiness struct {
	name  string
	ready func(ctx context.Context) error
}

// New returns a registry with every metric at zero, and the Go runtime's
// and the process's own.
func New() *Registry {
	r := &Registry{
		reg: prometheus.NewRegistry(),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tessera_moves_total", Help: "Moves made, by game (people's and the computer's; not resignations or time-outs).",
		}, []string{"game"}),
		aiMoves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tessera_ai_moves_total", Help: "Moves the computer made, by game and level.",
		}, []string{"game", "level"}),
		aiThink: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tessera_ai_think_seconds", Help: "How long the computer thought about a move, by level.",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"level"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tessera_discord_rate_limited_total", Help: "429 answers from Discord, by X-RateLimit-Scope (user, global, shared; none when absent).",
		}, []string{"scope"}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tessera_discord_retries_total", Help: "Requests Discord refused for the moment (a 429 or a 5xx), sent again.",
		}),
		live: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tessera_web_live_connections", Help: "Game pages open with live updates (Server-Sent Events).",
		}),
	}
	r.reg.MustRegister(r.moves, r.aiMoves, r.aiThink, r.rateLimited, r.retries, r.live,
		outboxCollector{r}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// WatchOutbox makes the gauges of announcements waiting, and the health
// check, read st at each scrape.
func (r *Registry) WatchOutbox(st Outbox) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.outbox = st
}

// WatchReady adds a part the health check asks (name "discord": the
// gateway or the interactions endpoint, bot.(*Bot).Ready).
func (r *Registry) WatchReady(name string, ready func(ctx context.Context) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ready = append(r.ready, readiness{name, ready})
}

// Handler serves the metrics in Prometheus's text format (/metrics).
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{Timeout: 2 * r.timeout()})
}

// Mount serves /metrics and /healthz on mux, with the headers every
// answer of the pages' address carries (no framing, no sniffing, nothing
// to run): mounted beside the pages, they answer as the pages do.
func (r *Registry) Mount(mux *http.ServeMux) {
	mux.Handle("GET /metrics", guarded(r.Handler()))
	mux.Handle("GET /healthz", guarded(r.Health()))
	// Any other method: the mux's own 405 would go without the headers.
	onlyGet := guarded(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "only GET", http.StatusMethodNotAllowed)
	}))
	mux.Handle("/metrics", onlyGet)
	mux.Handle("/healthz", onlyGet)
}

// guarded sets the security headers: the answers are data, never a
// document to run or to frame.
func guarded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, req)
	})
}

func (r *Registry) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

func (r *Registry) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Moved counts a move (service.Meter).
func (r *Registry) Moved(game string) { r.moves.WithLabelValues(game).Inc() }

// AIMoved counts the computer's move and its thinking (service.Meter).
func (r *Registry) AIMoved(game, level string, think time.Duration) {
	r.aiMoves.WithLabelValues(game, level).Inc()
	r.aiThink.WithLabelValues(level).Observe(think.Seconds())
}

// DiscordRateLimited counts a 429 (bot.Meter). Only Discord's three
// scopes become labels, so a strange header cannot grow the series.
func (r *Registry) DiscordRateLimited(scope string) {
	switch scope {
	case "user", "global", "shared":
	case "":
		scope = "none"
	default:
		scope = "other"
	}
	r.rateLimited.WithLabelValues(scope).Inc()
}

// DiscordRetried counts a request sent again (bot.Meter).
func (r *Registry) DiscordRetried() { r.retries.Inc() }

// LiveOpened counts a live connection opened (web.LiveCounter).
func (r *Registry) LiveOpened() { r.live.Inc() }

// LiveClosed counts a live connection closed (web.LiveCounter).
func (r *Registry) LiveClosed() { r.live.Dec() }
