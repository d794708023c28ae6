package metrics_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/metrics"
)

// fakeOutbox is an outbox of n announcements, the oldest enqueued at
// oldest; err makes every read fail (a closed store).
type fakeOutbox struct {
	mu     sync.Mutex
	n      int
	oldest time.Time
	err    error
}

func (f *fakeOutbox) Outbox(context.Context) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n, f.err
}

func (f *fakeOutbox) Pending(_ context.Context, _ time.Time, max int) ([]tessera.Announcement, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil || f.n == 0 || max < 1 {
		return nil, f.err
	}
	return []tessera.Announcement{{Seq: 1, Enqueued: f.oldest}}, nil
}

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

// TestMetricsMove: each report moves its own series, the outbox gauges
// are read at the scrape, and a scope Discord did not document becomes
// "other" (no unbounded labels).
func TestMetricsMove(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	r := metrics.New()
	r.Now = func() time.Time { return now }
	ob := &fakeOutbox{n: 3, oldest: now.Add(-90 * time.Second)}
	r.WatchOutbox(ob)
	r.Moved("elemental")
	r.Moved("elemental")
	r.AIMoved("closure", "hard", 1500*time.Millisecond)
	r.DiscordRateLimited("user")
	r.DiscordRateLimited("whatever")
	r.DiscordRetried()
	r.LiveOpened()
	r.LiveOpened()
	r.LiveClosed()
	code, body := get(t, r.Handler(), "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`tessera_moves_total{game="elemental"} 2`,
		`tessera_ai_moves_total{game="closure",level="hard"} 1`,
		`tessera_ai_think_seconds_sum{level="hard"} 1.5`,
		`tessera_discord_rate_limited_total{scope="user"} 1`,
		`tessera_discord_rate_limited_total{scope="other"} 1`,
		`tessera_discord_retries_total 1`,
		`tessera_web_live_connections 1`,
		`tessera_outbox_waiting 3`,
		`tessera_outbox_oldest_age_seconds 90`,
		`tessera_store_up 1`,
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if !strings.Contains(body, "go_goroutines ") || !strings.Contains(body, "process_resident_memory_bytes ") {
		t.Error("/metrics lacks the runtime's and the process's own metrics")
	}
	ob.mu.Lock()
	ob.err = errors.New("database closed")
	ob.mu.Unlock()
	if _, body := get(t, r.Handler(), "/metrics"); !strings.Contains(body, "tessera_store_up 0") {
		t.Error("a failing store is not tessera_store_up 0")
	}
}

// TestHealth: 200 with the outbox's state while everything answers; 503
// saying which part when the store or Discord does not.
func TestHealth(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	r := metrics.New()
	r.Now = func() time.Time { return now }
	ob := &fakeOutbox{n: 2, oldest: now.Add(-5 * time.Second)}
	r.WatchOutbox(ob)
	var discordErr error
	var mu sync.Mutex
	r.WatchReady("discord", func(context.Context) error { mu.Lock(); defer mu.Unlock(); return discordErr })
	mux := http.NewServeMux()
	r.Mount(mux)
	check := func(wantCode int, wantStatus string) metrics.Health {
		t.Helper()
		code, body := get(t, mux, "/healthz")
		var h metrics.Health
		if err := json.Unmarshal([]byte(body), &h); err != nil {
			t.Fatalf("/healthz is not JSON: %q", body)
		}
		if code != wantCode || h.Status != wantStatus {
			t.Fatalf("/healthz %d %+v, want %d %s", code, h, wantCode, wantStatus)
		}
		return h
	}
	if h := check(200, "ok"); h.Waiting != 2 || h.OldestSeconds != 5 || h.Parts["discord"] != "ok" {
		t.Fatalf("healthy: %+v", h)
	}
	mu.Lock()
	discordErr = errors.New("gateway shard 0 is not connected")
	mu.Unlock()
	if h := check(503, "unavailable"); h.Store != "ok" || !strings.Contains(h.Parts["discord"], "shard 0") {
		t.Fatalf("Discord down: %+v", h)
	}
	mu.Lock()
	discordErr = nil
	mu.Unlock()
	ob.mu.Lock()
	ob.err = errors.New("database not open")
	ob.mu.Unlock()
	if h := check(503, "unavailable"); h.Store != "unavailable" { // the error itself is logged only (TestHealthHidesTheStoresError)
		t.Fatalf("store down: %+v", h)
	}
}

// TestMountedHeaders: /healthz and /metrics, mounted beside the pages (or
// alone on metrics.listen), carry the pages' security headers: no
// framing, no sniffing, a CSP that allows nothing, and no caching.
func TestMountedHeaders(t *testing.T) {
	r := metrics.New()
	mux := http.NewServeMux()
	r.Mount(mux)
	for _, tc := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/healthz", 200},
		{"GET", "/metrics", 200},
		// Another method is refused with the same headers (the mux's own
		// 405 would carry none).
		{"POST", "/healthz", 405},
		{"DELETE", "/metrics", 405},
	} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		h := rec.Header()
		if rec.Code != tc.code || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY" ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s: %d, headers %v", tc.method, tc.path, rec.Code, h)
		}
	}
}

// TestHealthHidesTheStoresError: a store that cannot be read makes the
// check 503 and says "unavailable", not the database's error, which may
// name its host or user (the check answers anyone); the error is logged.
func TestHealthHidesTheStoresError(t *testing.T) {
	r := metrics.New()
	var log strings.Builder
	r.Logger = slog.New(slog.NewTextHandler(&log, nil))
	r.WatchOutbox(failingOutbox{})
	rec := httptest.NewRecorder()
	r.Health().ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 503 || strings.Contains(rec.Body.String(), "db.internal") || !strings.Contains(rec.Body.String(), `"store":"unavailable"`) {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(log.String(), "db.internal") {
		t.Fatalf("the store's error was not logged: %q", log.String())
	}
}

// failingOutbox is a store whose reads fail with an error that names
// its host.
type failingOutbox struct{}

func (failingOutbox) Outbox(context.Context) (int, error) {
	return 0, errors.New(`dial tcp db.internal:5432: connect: connection refused (user "tessera")`)
}

func (f failingOutbox) Pending(ctx context.Context, _ time.Time, _ int) ([]tessera.Announcement, error) {
	_, err := f.Outbox(ctx)
	return nil, err
}
