package web

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/service"
)

// TestSlowBodyIsCutOff: a client that sends a request's body slowly (the
// headers, then a few bytes of a body it said is longer, then nothing)
// is cut off after Config.BodyTimeout, on a move's address (whose
// handler reads the form) as on an address that is no page (whose
// handler reads nothing): the server closes the connection, so that a
// hundred such clients do not hold a hundred goroutines and file
// descriptors. The test's own deadline is a generous bound on an event
// (the server's close), not a measure.
func TestSlowBodyIsCutOff(t *testing.T) {
	s := newSite(t)
	s.web.cfg.BodyTimeout = 50 * time.Millisecond
	g := s.start("elemental", "borders=RBGY")
	for _, path := range []string{s.addr(g.ID) + "/move", "/no/such/page"} {
		t.Run(path, func(t *testing.T) {
			conn, err := net.Dial("tcp", s.srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			head := "POST " + path + " HTTP/1.1\r\nHost: " + s.srv.Listener.Addr().String() +
				"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nmove=a1"
			if _, err := io.WriteString(conn, head); err != nil {
				t.Fatal(err)
			}
			// Nothing more is sent: read until the server closes.
			conn.SetReadDeadline(time.Now().Add(time.Minute))
			got, err := io.ReadAll(conn)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the connection was still open after a minute (read %q)", got)
			}
			if len(got) > 0 && !strings.HasPrefix(string(got), "HTTP/1.1 4") {
				t.Fatalf("answered %.80q, want a 4xx or nothing", got)
			}
		})
	}
}

// TestOriginComparesScheme: a post whose Origin is the same host over
// another scheme (https://HOST to a page served on http://HOST, or the
// reverse) comes from another origin and is refused; the same scheme and
// host, written in capitals, is the page's own.
func TestOriginComparesScheme(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	st, mover, _ := s.turn(g)
	c, csrf := s.player(g.ID, mover)
	form := url.Values{"move": {st.Legal()[0].String()}, "csrf": {csrf}, "version": {itoa(g.Version)}}
	https := strings.Replace(s.srv.URL, "http://", "https://", 1)
	for _, origin := range []string{https, "https://tessera.test", "http://tessera.test:80", s.srv.URL + "/path"} {
		res, body := s.post(c, s.addr(g.ID)+"/move", form, map[string]string{"Origin": origin})
		if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "did not come from") {
			t.Fatalf("Origin %s: %d, want 403; %.200s", origin, res.StatusCode, body)
		}
	}
	if s.game(g.ID).Version != g.Version {
		t.Fatal("the game changed")
	}
	res, body := s.post(c, s.addr(g.ID)+"/move", form, map[string]string{"Origin": strings.ToUpper(s.srv.URL)})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the page's own origin: %d %.200s", res.StatusCode, body)
	}
}

// TestLiveStreamsCappedPerClient: one client address cannot take all of
// a process's live streams: past Config.MaxClientStreams its streams are
// answered 429 with Retry-After, while another client (behind the same
// reverse proxy on this machine: its X-Forwarded-For) still gets one;
// the address's streams free their places when they close.
func TestLiveStreamsCappedPerClient(t *testing.T) {
	s := newSite(t)
	live := &counter{closed: make(chan struct{}, 16)}
	s.web.hub.live = live
	s.web.hub.perClient = 2
	g := s.start("elemental", "borders=RBGY")
	path := s.srv.URL + s.addr(g.ID) + "/events"
	open := func(ctx context.Context, client string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, "GET", path, nil)
		if client != "" {
			req.Header.Set("X-Forwarded-For", "198.51.100.7, "+client) // the first is the client's own claim
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	ctx := context.Background()
	for range 2 {
		if res := open(ctx1, "203.0.113.1"); res.StatusCode != 200 {
			t.Fatalf("a stream within the bound: %d", res.StatusCode)
		}
	}
	// The same client again, claiming another address first: refused.
	res := open(ctx, "203.0.113.1")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a third stream of one client: %d, Retry-After %q; want 429 with it", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res := open(ctx, "203.0.113.2"); res.StatusCode != 200 {
		t.Fatalf("another client's stream: %d, want 200", res.StatusCode)
	}
	// An IPv6 client is its /64.
	if res := open(ctx, "2001:db8:1:2::1"); res.StatusCode != 200 {
		t.Fatalf("an IPv6 client: %d", res.StatusCode)
	}
	if res := open(ctx, "2001:db8:1:2::2"); res.StatusCode != 200 {
		t.Fatalf("the same /64's second: %d", res.StatusCode)
	}
	if res := open(ctx, "2001:db8:1:2:ffff::3"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the same /64's third: %d, want 429", res.StatusCode)
	}
	cancel1() // the first client's two streams close
	for range 2 {
		select {
		case <-live.closed:
		case <-time.After(time.Minute):
			t.Fatal("the closed streams were not let go")
		}
	}
	if res := open(ctx, "203.0.113.1"); res.StatusCode != 200 {
		t.Fatalf("after closing its streams, the client's new one: %d", res.StatusCode)
	}
}

// TestResentFormPlaysOnce: every form on a player's page carries an
// idempotency key; the same form posted again (a resent POST, a retry
// after a lost answer), even without the page's version, is played once
// and answered "already done"; a move posted with neither a key nor a
// version is refused, since nothing would tell its resending apart.
func TestResentFormPlaysOnce(t *testing.T) {
	s := newSite(t)
	if _, err := s.svc.Puzzle(s.req(ana), service.PuzzleRequest{Level: "easy"}); err != nil { // one player: the same seat moves again
		t.Fatal(err)
	}
	g := s.game(1)
	c, csrf := s.player(g.ID, ana)
	_, page := s.get(c, s.addr(g.ID))
	keys := keyRe.FindAllStringSubmatch(page, -1)
	forms := strings.Count(page, `<form `)
	if len(keys) == 0 || len(keys) != forms {
		t.Fatalf("%d keys in %d forms", len(keys), forms)
	}
	st, _, _ := s.turn(g)
	move := st.Legal()[0].String()
	path := s.addr(g.ID) + "/move"
	if res, body := s.post(c, path, url.Values{"move": {move}, "csrf": {csrf}}, nil); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("a move with neither key nor version: %d, want 400; %.200s", res.StatusCode, body)
	}
	form := url.Values{"move": {move}, "csrf": {csrf}, "key": {keys[0][1]}}
	if res, body := s.post(c, path, form, nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the move: %d %.300s", res.StatusCode, body)
	}
	// Undone from the next page (its own key): the move is legal again.
	_, page = s.get(c, s.addr(g.ID))
	next := keyRe.FindStringSubmatch(page)
	if next == nil || next[1] == keys[0][1] {
		t.Fatal("the next page's forms have the same key")
	}
	if res, body := s.post(c, path, url.Values{"move": {"undo"}, "csrf": {csrf}, "key": {next[1]}}, nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("undo: %d %.300s", res.StatusCode, body)
	}
	before := s.game(g.ID)
	res, body := s.post(c, path, form, map[string]string{"Accept": "application/json"})
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, "already done") {
		t.Fatalf("the first form again: %d %.300s, want 409 already done", res.StatusCode, body)
	}
	if after := s.game(g.ID); after.Version != before.Version {
		t.Fatalf("the resent form changed the game: %+v", after.Moves)
	}
}

// TestServedPageBasics: pages, JSON and SVG are gzipped for a client
// that takes it (and not for one that does not); a live stream never is;
// static files are cached (a year when named by their version, as the
// pages name them); /favicon.ico is an icon; every page has a meta
// description.
func TestServedPageBasics(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path, encoding string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", s.srv.URL+path, nil)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		res, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var r io.Reader = res.Body
		if res.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(res.Body)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			r = zr
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return res, string(b)
	}
	res, plain := get(s.addr(g.ID), "")
	if res.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip for a client that did not ask")
	}
	res, page := get(s.addr(g.ID), "br, gzip;q=0.8")
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("the page: Content-Encoding %q, Vary %q", res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
	}
	if page != plain {
		t.Fatal("the gzipped page is not the page")
	}
	if res, _ := get(s.addr(g.ID), "gzip;q=0"); res.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip for a client that refused it")
	}
	if !strings.Contains(page, `<meta name="description" content="`) {
		t.Error("no meta description")
	}
	if res, _ := get("/no/such/page", "gzip"); res.StatusCode != 404 || res.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("the 404 page: %d %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	for _, name := range []string{"app.js", "style.css"} {
		link := asset(name)
		if !strings.Contains(page, `"`+link+`"`) {
			t.Fatalf("the page does not link %s", link)
		}
		res, body := get(link, "gzip")
		want, _ := os.ReadFile("static/" + name)
		if res.StatusCode != 200 || body != string(want) || res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d, %d bytes (want %d), %q", link, res.StatusCode, len(body), len(want), res.Header.Get("Content-Encoding"))
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", link, cc)
		}
		if res, _ := get("/static/"+name, "gzip"); !strings.HasPrefix(res.Header.Get("Cache-Control"), "public, max-age=") {
			t.Errorf("/static/%s without its version: Cache-Control %q", name, res.Header.Get("Cache-Control"))
		}
	}
	// A byte range of a static file is the file's bytes, not gzip's.
	req, _ := http.NewRequest("GET", s.srv.URL+asset("style.css"), nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("Range", "bytes=0-999")
	if res, err := raw.Do(req); err != nil {
		t.Fatal(err)
	} else {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want, _ := os.ReadFile("static/style.css")
		if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Encoding") != "" || string(b) != string(want[:1000]) {
			t.Errorf("a range: %d %q %q", res.StatusCode, res.Header.Get("Content-Encoding"), b)
		}
	}
	res, ico := get("/favicon.ico", "gzip")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/x-icon" || !strings.HasPrefix(ico, "\x00\x00\x01\x00\x01\x00") ||
		!strings.Contains(ico, "\x89PNG") {
		t.Fatalf("/favicon.ico: %d %q, %d bytes", res.StatusCode, res.Header.Get("Content-Type"), len(ico))
	}
	// A live stream is not compressed: each event leaves as written.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", s.srv.URL+s.addr(g.ID)+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	stream, err := raw.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.Header.Get("Content-Encoding") != "" {
		t.Fatal("the live stream is gzipped")
	}
	if line, err := bufio.NewReader(stream.Body).ReadString('\n'); err != nil || line != "retry: 2000\n" {
		t.Fatalf("the stream's first line %q, %v", line, err)
	}
}

// TestPlayerPageKept: a player's page is kept in the page cache for that
// player alone: asked again, it is the same page with a new form key
// (a form resent from either is played once) and their own CSRF token;
// the other player, at the same version, gets their own hand, never the
// first's page; a spectator gets neither.
func TestPlayerPageKept(t *testing.T) {
	s := newSite(t)
	g := s.start("closure", "")
	_, mover, other := s.turn(g)
	c, csrf := s.player(g.ID, mover)
	_, first := s.get(c, s.addr(g.ID))
	_, second := s.get(c, s.addr(g.ID))
	k1, k2 := keyRe.FindStringSubmatch(first), keyRe.FindStringSubmatch(second)
	if k1 == nil || k2 == nil || k1[1] == k2[1] {
		t.Fatalf("the form keys of two answers: %v, %v", k1, k2)
	}
	if strings.ReplaceAll(first, k1[1], "K") != strings.ReplaceAll(second, k2[1], "K") {
		t.Fatal("the kept page differs beyond its form key")
	}
	if strings.Contains(first, csrfMarker) || strings.Contains(first, keyMarker) || !strings.Contains(first, `data-csrf="`+csrf+`"`) {
		t.Fatal("the kept page's placeholders were not filled in")
	}
	oc, ocsrf := s.player(g.ID, other)
	_, theirs := s.get(oc, s.addr(g.ID))
	hand := regexp.MustCompile(`aria-label="Your hand: ([^"]*)"`)
	mine, their := hand.FindStringSubmatch(first), hand.FindStringSubmatch(theirs)
	if mine == nil || their == nil || mine[1] == their[1] || strings.Contains(theirs, csrf) || !strings.Contains(theirs, ocsrf) {
		t.Fatalf("the other player's page: hand %v (the first's %v)", their, mine)
	}
	if _, spect := s.get(nil, s.addr(g.ID)); strings.Contains(spect, "Your hand") || strings.Contains(spect, csrf) {
		t.Fatal("a spectator was given a player's page")
	}
}
