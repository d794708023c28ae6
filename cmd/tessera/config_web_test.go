package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/metrics"
	"tessera/web"
)

// TestConfigWeb: the web and metrics blocks, their environment
// variables, and their refusals, each naming its key and never showing
// the secret.
func TestConfigWeb(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig(nil, "", none)
	if err != nil || c.Web.Listen != "" || c.Web.URL != "" || c.Metrics.Listen != "" {
		t.Fatalf("default: %+v %+v %v", c.Web, c.Metrics, err)
	}
	secret := strings.Repeat("s", 32)
	c, err = parseConfig([]byte("web:\n  listen: \":8080\"\n  url: https://tessera.example.org/\n  secret: "+secret+"\n  link_days: 7\nmetrics:\n  listen: \"127.0.0.1:9100\"\n"), "c.yaml", none)
	if err != nil || c.Web.Listen != ":8080" || c.Web.URL != "https://tessera.example.org" || c.Web.LinkDays != 7 || c.Metrics.Listen != "127.0.0.1:9100" {
		t.Fatalf("set (the URL's trailing slash dropped): %+v %+v %v", c.Web, c.Metrics, err)
	}
	// A loopback address needs no URL: the address is it.
	if _, err := parseConfig([]byte("web:\n  listen: \"localhost:8080\"\n"), "c.yaml", none); err != nil {
		t.Fatalf("localhost without a URL: %v", err)
	}
	env := map[string]string{"TESSERA_WEB_LISTEN": "127.0.0.1:8081", "TESSERA_WEB_URL": "http://pages.example", "TESSERA_WEB_SECRET": secret + "x", "TESSERA_METRICS_LISTEN": ":9101"}
	c, err = parseConfig([]byte("web:\n  listen: \":1\"\n"), "c.yaml", func(k string) string { return env[k] })
	if err != nil || c.Web.Listen != "127.0.0.1:8081" || c.Web.URL != "http://pages.example" || c.Web.Secret != secret+"x" || c.Metrics.Listen != ":9101" {
		t.Fatalf("from the environment: %+v %v", c.Web, err)
	}
	// A scheme in capitals loads, and links are written with it in
	// lower case (the fuzz target found "httP://0" kept as written).
	c, err = parseConfig([]byte("web:\n  url: HTTPS://Tessera.Example.org/\n"), "c.yaml", none)
	if err != nil || c.Web.URL != "https://Tessera.Example.org" {
		t.Fatalf("a scheme in capitals: %q %v", c.Web.URL, err)
	}
	short := "tooshort-" + strings.Repeat("q", 10)
	for _, tc := range []struct{ yaml, want string }{
		// Players on Discord reach the pages by a name only the host knows.
		{"web:\n  listen: \":8080\"\n", "web.url"},
		{"web:\n  listen: \"8080\"\n  url: https://t.example\n", "web.listen"},
		{"web:\n  url: ftp://t.example\n", "web.url"},
		{"web:\n  url: https://t.example/?a=1\n", "web.url"},
		{"web:\n  url: tessera.example.org\n", "web.url"},
		{"web:\n  url: https://t.example/" + strings.Repeat("p", maxWebURL) + "\n", "512"},
		{"web:\n  url: https://t.example\n  secret: " + short + "\n", "at least 32 bytes"},
		{"web:\n  url: https://t.example\n  link_days: 400\n", "web.link_days"},
		{"web:\n  url: https://t.example\n  link_days: -1\n", "web.link_days"},
		{"metrics:\n  listen: \"localhost\"\n", "metrics.listen"},
		{"web:\n  listen: \"localhost:8080\"\nmetrics:\n  listen: \"localhost:8080\"\n", "another port"},
		{"web:\n  port: 8080\n", "port"},
	} {
		_, err := parseConfig([]byte(tc.yaml), "c.yaml", none)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "config") {
			t.Errorf("%q: %v (want an error naming %s)", tc.yaml, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), short) {
			t.Errorf("%q: the error shows the secret: %v", tc.yaml, err)
		}
	}
}

// TestConsoleServesPages: `tessera console --web 127.0.0.1:0` serves
// the game pages, /healthz and /metrics beside the console (a page's
// live updates counted while open), prints the pages' address
// and each game's page when it starts, and stops the server with the
// console. The key it signs with is the database's own, made once and
// the same on the next start.
func TestConsoleServesPages(t *testing.T) {
	dir := t.TempDir()
	env := consoleEnv(t, filepath.Join(dir, "t.db"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var out, errb syncBuffer
	closed := make(chan struct{}, 1)
	defer func(was func(*metrics.Registry) web.LiveCounter) { countLive = was }(countLive)
	countLive = func(reg *metrics.Registry) web.LiveCounter { return liveSpy{reg, closed} }
	done := make(chan int)
	go func() {
		done <- runConsole([]string{"--web", "127.0.0.1:0"}, r, &out, &errb, func(k string) string { return env[k] })
	}()
	w.Write([]byte("ana: /new elemental bo borders=RBGY\nbo: /accept\n"))
	page := regexp.MustCompile(`\[Open the game page: (http://127\.0\.0\.1:\d+)/g/(1-[A-Za-z0-9_-]{22})\]`)
	var m []string
	// The waits bound a hang; they measure nothing.
	if !out.waitFor(func(out string) bool { m = page.FindStringSubmatch(out); return m != nil }) {
		t.Fatalf("no game page printed: %s %s", out.String(), errb.String())
	}
	base := m[1]
	if !strings.Contains(out.String(), "Game pages at "+base) {
		t.Fatalf("the console does not say where the pages are: %s", out.String())
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var h struct{ Status, Store string }
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if resp.StatusCode != 200 || h.Status != "ok" || h.Store != "ok" {
		t.Fatalf("/healthz: %d %+v", resp.StatusCode, h)
	}
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	_, _ = io.Copy(&body, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(body.String(), "tessera_outbox_waiting") {
		t.Fatalf("/metrics: %d %.300s", resp.StatusCode, body.String())
	}
	resp, err = http.Get(base + "/g/" + m[2])
	if err != nil {
		t.Fatal(err)
	}
	body.Reset()
	_, _ = io.Copy(&body, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(body.String(), "<svg") {
		t.Fatalf("the game's page: %d %.300s", resp.StatusCode, body.String())
	}
	// A page's live updates count in tessera_web_live_connections while
	// they stream.
	live := func(want string) {
		t.Helper()
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), "\ntessera_web_live_connections "+want+"\n") {
			t.Fatalf("tessera_web_live_connections is not %s", want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/g/"+m[2]+"/events", nil)
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("the live updates: %v %v", stream, err)
	}
	live("1") // the stream is counted before its 200 is sent
	cancel()
	stream.Body.Close()
	// Only the server's handler sees the stream end, a moment later: it
	// says so through liveSpy. (The minute bounds a hang.)
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("the server never saw the live updates end")
	}
	live("0")
	w.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("the console did not end with its input")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("the pages' server still answers after the console ended")
	}

	// The same database, started again: the same key, so the same address.
	code, out2, errs := runWithEnv(t, env, "ana: /link #1\n", "--web", "127.0.0.1:0")
	if code != 0 || !strings.Contains(out2, "/g/"+m[2]+"?t=") {
		t.Fatalf("restart: exit %d, no link to %s: %s %s", code, m[2], out2, errs)
	}
}

// liveSpy counts the pages' live connections in the registry and says on
// closed when one closed.
type liveSpy struct {
	web.LiveCounter
	closed chan struct{} // buffered: the server never waits for the test
}

func (l liveSpy) LiveClosed() {
	l.LiveCounter.LiveClosed()
	select {
	case l.closed <- struct{}{}:
	default:
	}
}

// FuzzConfigWeb: a configuration that loads has pages that links can
// reach (an http or https URL of at most maxWebURL characters, without a
// trailing slash, or a loopback web.listen standing for it), a key of at
// least 32 bytes or none, and a refusal never quotes the key.
func FuzzConfigWeb(f *testing.F) {
	key := strings.Repeat("k", 32)
	f.Add("localhost:8080", "", "")
	f.Add(":8080", "https://tessera.example.org/", key)
	f.Add("", "http://t.example", "short")
	f.Add("0.0.0.0:80", "javascript:alert(1)", key+key)
	f.Add("[::1]:8080", "https://t.example/a?b=c#d", "")
	f.Fuzz(func(t *testing.T, listen, url, secret string) {
		env := map[string]string{"TESSERA_WEB_LISTEN": listen, "TESSERA_WEB_URL": url, "TESSERA_WEB_SECRET": secret}
		c, err := parseConfig(nil, "", func(k string) string { return env[k] })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config") {
				t.Fatalf("an error that does not say it is the configuration: %v", err)
			}
			// (A key that is part of the URL or the address given may
			// show as part of those.)
			if len(secret) >= 8 && strings.Contains(err.Error(), secret) && !strings.Contains(url, secret) && !strings.Contains(listen, secret) {
				t.Fatalf("the error quotes the secret: %v", err)
			}
			return
		}
		w := c.Web
		if s := w.Secret; s != "" && len(s) < 32 {
			t.Fatalf("a %d-byte key loaded", len(s))
		}
		switch {
		case w.URL != "":
			if !strings.HasPrefix(w.URL, "http://") && !strings.HasPrefix(w.URL, "https://") || len(w.URL) > maxWebURL || strings.HasSuffix(w.URL, "/") {
				t.Fatalf("url %q loaded", w.URL)
			}
		case w.Listen != "":
			if !localListen(w.Listen) {
				t.Fatalf("listen %q loaded without a url", w.Listen)
			}
		}
	})
}
