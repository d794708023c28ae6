package bot_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"time"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/metrics"
	"tessera/service"
)

// scrape reads one series' value from /metrics (0 when absent).
func scrape(t *testing.T, h http.Handler, series string) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindSubmatch(b)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatalf("%s: %q", series, m[1])
	}
	return v
}

func healthz(t *testing.T, h http.Handler) (int, metrics.Health) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	var out metrics.Health
	if err := json.NewDecoder(rec.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return rec.Code, out
}

// TestMetricsAndHealth: the registry wired as cmd/tessera wires it; a
// move and a 429 from the fake Discord move the counters between two
// scrapes; /healthz answers 200 while the store and the gateway are up,
// 503 once the store is closed.
func TestMetricsAndHealth(t *testing.T) {
	t.Parallel()
	reg := metrics.New()
	// A heartbeat a second (Discord's is 41.25 s; Slowdown times that
	// under -race), so that the wait below for the second one is short;
	// discordgo reconnects only after 5 intervals without an ACK, and the
	// fake in this process answers each heartbeat at once.
	w, logger := newWorld(t, bot.Options{}, fakediscord.WithHeartbeatInterval(time.Second*fakediscord.Slowdown))
	w.svc = newService(w.store, logger, w.clock.Now, func(c *service.Config) { c.Meter = reg })
	w.begin(t, bot.Options{Meter: reg}, logger)
	reg.WatchOutbox(w.store)
	reg.WatchReady("discord", w.bot.Ready)
	mux := http.NewServeMux()
	reg.Mount(mux)

	// discordgo marks the gateway up (DataReady, which /healthz reads)
	// right after it sent its first heartbeat, and tells nobody; its
	// second heartbeat, from the same goroutine an interval later, comes
	// after that: wait for it in the fake, which wakes on each frame.
	first := w.srv.WaitGatewayFrame(t, func(f fakediscord.GatewayFrame) bool { return f.Op == 1 }, patience)
	w.srv.WaitGatewayFrame(t, func(f fakediscord.GatewayFrame) bool {
		return f.Op == 1 && f.Conn == first.Conn && f.At.After(first.At)
	}, patience)
	if code, h := healthz(t, mux); code != 200 {
		t.Fatalf("/healthz after the gateway's second heartbeat: %d %+v", code, h)
	}
	moves := `tessera_moves_total{game="elemental"}`
	limited := `tessera_discord_rate_limited_total{scope="user"}`
	retries := `tessera_discord_retries_total`
	before := []float64{scrape(t, mux, moves), scrape(t, mux, limited), scrape(t, mux, retries)}

	w.newGame(t)
	w.srv.RateLimit("POST /channels/*/messages", 50*time.Millisecond, false)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))

	after := []float64{scrape(t, mux, moves), scrape(t, mux, limited), scrape(t, mux, retries)}
	if after[0] != before[0]+1 || after[1] < before[1]+1 || after[2] < before[2]+1 {
		t.Fatalf("moves, 429s, retries: %v before, %v after one move and one 429", before, after)
	}
	if v := scrape(t, mux, "tessera_outbox_waiting"); v != 0 {
		t.Fatalf("%v announcements waiting once delivered", v)
	}
	if code, h := healthz(t, mux); code != 200 || h.Store != "ok" || h.Parts["discord"] != "ok" {
		t.Fatalf("/healthz: %d %+v", code, h)
	}

	w.close()
	w.store.Close()
	if code, h := healthz(t, mux); code != 503 || h.Store == "ok" || h.Status != "unavailable" {
		t.Fatalf("/healthz with the store closed: %d %+v", code, h)
	}
	if v := scrape(t, mux, "tessera_store_up"); v != 0 {
		t.Fatalf("tessera_store_up %v with the store closed", v)
	}
}
