package metrics

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// Health is the health check's answer, as JSON.
type Health struct {
	// Status is "ok" (HTTP 200) or "unavailable" (503): the store cannot
	// be read, or a part (Discord) is down.
	Status string `json:"status"`
	// Store is "ok" or "unavailable". Why it cannot be read goes to the
	// log only: a database's error may name its host, user or database,
	// and the check answers anyone who asks.
	Store string `json:"store"`
	// Parts are the transports' states by name ("discord": the gateway or
	// the interactions endpoint), "ok" or what is down.
	Parts map[string]string `json:"parts,omitempty"`
	// Waiting is how many announcements the courier has not delivered,
	// and OldestSeconds the oldest one's age: reported, never failing the
	// check (a server whose permissions hold its posts back keeps some
	// waiting for as long as it likes).
	Waiting       int     `json:"outbox_waiting"`
	OldestSeconds float64 `json:"outbox_oldest_seconds"`
}

// Check asks the store and every part, within the registry's timeout.
func (r *Registry) Check(ctx context.Context) Health {
	ctx, cancel := context.WithTimeout(ctx, r.timeout())
	defer cancel()
	r.mu.Lock()
	st, ready := r.outbox, append([]readiness(nil), r.ready...)
	r.mu.Unlock()
	h := Health{Status: "ok", Store: "ok"}
	if st != nil {
		o, err := r.readOutbox(ctx, st)
		if err != nil {
			h.Status, h.Store = "unavailable", "unavailable"
			r.logger().Warn("health check: cannot read the store", "err", err)
		}
		h.Waiting, h.OldestSeconds = o.Waiting, o.Oldest.Round(time.Millisecond).Seconds()
	}
	for _, p := range ready {
		if h.Parts == nil {
			h.Parts = map[string]string{}
		}
		h.Parts[p.name] = "ok"
		if err := p.ready(ctx); err != nil {
			h.Status, h.Parts[p.name] = "unavailable", short(err)
		}
	}
	return h
}

// logger is Logger, or slog's default.
func (r *Registry) logger() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.Default()
}

// short is an error's first 200 bytes: enough to say what is down, and a
// bound on what an unauthenticated caller reads.
func short(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// Health serves the check (/healthz): the JSON of Check, 200 when the
// status is ok, 503 otherwise. It is meant for a load balancer or an
// orchestrator; it shows no game, player or secret.
func (r *Registry) Health() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h := r.Check(req.Context())
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if h.Status != "ok" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		json.NewEncoder(w).Encode(h)
	})
}
