package bot

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// stepClock is the limiter's clock in these tests: it moves only when the
// test advances it, and tells the test when the limiter starts a wait.
type stepClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*stepTimer
	waiting chan time.Duration // each wait the limiter starts, with its length
}

type stepTimer struct {
	at time.Time
	c  chan time.Time
}

func newStepClock() *stepClock {
	return &stepClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), waiting: make(chan time.Duration, 100)}
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) After(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	t := &stepTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	c.waiting <- d
	return t.c, func() bool { return true }
}

func (c *stepClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.c <- c.now
	}
	c.timers = kept
}

// script is Discord in these tests: it answers each request with the
// next answer for its path, whatever the method (200 with no rate-limit headers when none is
// left) and counts the requests that reached it.
type script struct {
	mu      sync.Mutex
	answers map[string][]*http.Response
	got     []string
	arrived chan string
}

func newScript() *script {
	return &script{answers: map[string][]*http.Response{}, arrived: make(chan string, 100)}
}

func (s *script) answer(path string, status int, headers map[string]string, body string) {
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	s.answers[path] = append(s.answers[path], &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))})
}

func (s *script) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	key := req.Method + " " + req.URL.Path
	s.got = append(s.got, key)
	var resp *http.Response
	if q := s.answers[req.URL.Path]; len(q) > 0 {
		resp, s.answers[req.URL.Path] = q[0], q[1:]
	} else {
		resp = &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}"))}
	}
	s.mu.Unlock()
	s.arrived <- key
	return resp, nil
}

func (s *script) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.got)
}

// TestLimiterWaits: what Discord's answers say, the limiter keeps to,
// waiting on its clock: each case makes its first requests (answered as
// scripted), then one more that must wait exactly the given time before
// it reaches Discord, while a request that the limit does not bind goes
// at once.
func TestLimiterWaits(t *testing.T) {
	const api = "/api/v9"
	for _, c := range []struct {
		name   string
		limit  RateLimit
		setup  func(s *script)
		first  []string // requests made first ("METHOD path")
		then   string   // must wait
		wait   time.Duration
		freely string // meanwhile goes at once ("" none)
	}{{
		// The global 429 as Discord sends it (no X-RateLimit-Reset-After,
		// which discordgo needs to hold back other routes): every route
		// waits retry_after, 1.5 s from the body, not Retry-After's 2.
		name: "global 429",
		setup: func(s *script) {
			s.answer(api+"/channels/1/messages", 429, map[string]string{"Retry-After": "2", "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"},
				`{"message": "You are being rate limited.", "retry_after": 1.5, "global": true}`)
		},
		first:  []string{"POST " + api + "/channels/1/messages"},
		then:   "GET " + api + "/guilds/7",
		wait:   1500 * time.Millisecond,
		freely: "POST " + api + "/interactions/5/tok/callback", // not bound to the global limit
	}, {
		// An empty bucket holds its route for its channel until the reset;
		// another channel has its own.
		name: "empty bucket",
		setup: func(s *script) {
			s.answer(api+"/channels/1/messages", 200, map[string]string{"X-RateLimit-Bucket": "posts", "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "4.250"}, "{}")
		},
		first:  []string{"POST " + api + "/channels/1/messages"},
		then:   "POST " + api + "/channels/1/messages",
		wait:   4250 * time.Millisecond,
		freely: "POST " + api + "/channels/2/messages",
	}, {
		// Two routes that Discord says share a bucket (2 per 250 ms): the
		// removal leaves 1, the addition uses it up, so the next removal
		// waits although its own last answer said 1 was left.
		name: "shared bucket",
		setup: func(s *script) {
			s.answer(api+"/channels/1/messages/9/reactions/x/@me", 204, map[string]string{"X-RateLimit-Bucket": "react", "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1", "X-RateLimit-Reset-After": "0.250"}, "")
			s.answer(api+"/channels/1/messages/9/reactions/x/@me", 204, map[string]string{"X-RateLimit-Bucket": "react", "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.250"}, "")
		},
		first: []string{"DELETE " + api + "/channels/1/messages/9/reactions/x/@me", "PUT " + api + "/channels/1/messages/9/reactions/x/@me"},
		then:  "DELETE " + api + "/channels/1/messages/9/reactions/x/@me",
		wait:  250 * time.Millisecond,
	}, {
		// The global limit: 2 per second, counted from each answer.
		name:   "global limit",
		limit:  RateLimit{Global: 2, Window: time.Second},
		first:  []string{"GET " + api + "/channels/1", "GET " + api + "/channels/2"},
		then:   "GET " + api + "/channels/3",
		wait:   time.Second,
		freely: "PATCH " + api + "/webhooks/5/tok/messages/@original", // an interaction's edit
	}} {
		t.Run(c.name, func(t *testing.T) {
			s := newScript()
			if c.setup != nil {
				c.setup(s)
			}
			clock := newStepClock()
			l := newLimiter(c.limit)
			l.now, l.after = clock.Now, clock.After
			l.retries = 0 // the waits alone (TestLimiterRetries sends again)
			tr := l.transport(s)
			do := func(r string) {
				method, path, _ := strings.Cut(r, " ")
				req, _ := http.NewRequest(method, "https://discord.com"+path, nil)
				resp, err := tr.RoundTrip(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
			for _, r := range c.first {
				do(r)
				<-s.arrived
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				do(c.then)
			}()
			if d := <-clock.waiting; d != c.wait {
				t.Errorf("waits %v, want %v", d, c.wait)
			}
			if c.freely != "" {
				do(c.freely)
				if got := <-s.arrived; got != c.freely {
					t.Errorf("%s arrived, want %s", got, c.freely)
				}
			}
			want := len(c.first)
			if c.freely != "" {
				want++
			}
			if n := s.count(); n != want {
				t.Fatalf("%d requests reached Discord before the wait ended: %v", n, s.got)
			}
			clock.Advance(c.wait)
			if got := <-s.arrived; got != c.then {
				t.Errorf("%s arrived, want %s", got, c.then)
			}
			<-done
		})
	}
}

// TestLimiterForgetsIdleBuckets: every channel and every interaction has
// its own bucket; a bot that runs for months must not keep them all.
func TestLimiterForgetsIdleBuckets(t *testing.T) {
	s := newScript()
	l := newLimiter(RateLimit{Global: 1 << 20, Window: time.Second})
	tr := l.transport(s)
	for i := range 3 * maxBuckets {
		req, _ := http.NewRequest("POST", "https://discord.com/api/v9/interactions/"+strconv.Itoa(i)+"/tok/callback", nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		<-s.arrived
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.buckets); n > maxBuckets {
		t.Fatalf("%d buckets remembered after %d interactions, want at most %d", n, 3*maxBuckets, maxBuckets)
	}
}

// TestLimiterRetries: a request answered 429 is sent again once the wait
// Discord asked for has passed, with the same body, at most
// maxRateLimitRetries times; then the caller has the 429 (before:
// discordgo sent it again without limit, sleeping deaf to the request's
// context). The answer the caller reads carries no rate-limit headers:
// discordgo's buckets would sleep on them.
func TestLimiterRetries(t *testing.T) {
	const path = "/api/v10/channels/1/messages"
	s := newScript()
	for range maxRateLimitRetries + 2 {
		s.answer(path, 429, map[string]string{"Retry-After": "1", "X-RateLimit-Scope": "user", "X-RateLimit-Bucket": "posts",
			"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.250"},
			`{"message": "You are being rate limited.", "retry_after": 0.25, "global": false}`)
	}
	clock := newStepClock()
	l := newLimiter(RateLimit{})
	l.now, l.after = clock.Now, clock.After
	tr := l.transport(s)
	got := make(chan *http.Response, 1)
	go func() {
		req, _ := http.NewRequest("POST", "https://discord.com"+path, strings.NewReader(`{"content":"hi"}`))
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Error(err)
		}
		got <- resp
	}()
	<-s.arrived
	for range maxRateLimitRetries {
		if d := <-clock.waiting; d != 250*time.Millisecond {
			t.Fatalf("waits %v before sending again, want 250ms", d)
		}
		clock.Advance(250 * time.Millisecond)
		<-s.arrived
	}
	resp := <-got
	if resp == nil || resp.StatusCode != 429 {
		t.Fatalf("the caller got %v, want the last 429", resp)
	}
	if n := s.count(); n != 1+maxRateLimitRetries {
		t.Fatalf("sent %d times, want %d", n, 1+maxRateLimitRetries)
	}
	for k := range resp.Header {
		if strings.HasPrefix(k, "X-Ratelimit-") || k == "Retry-After" {
			t.Errorf("the caller reads %s", k)
		}
	}
}

// TestLimiterBan: a 429 without X-RateLimit-Scope is Cloudflare's ban of
// the address, not a bucket's limit: until its Retry-After nothing is
// sent, on any route, interaction endpoints included; each request fails
// at once with ErrBanned, and is not sent again meanwhile (before: only
// the route that got it waited, and every other route went on sending,
// each answer another invalid request).
func TestLimiterBan(t *testing.T) {
	const api = "/api/v10"
	s := newScript()
	s.answer(api+"/users/@me", 429, map[string]string{"Retry-After": "600", "Content-Type": "text/plain; charset=UTF-8"}, "error code: 1015")
	clock := newStepClock()
	l := newLimiter(RateLimit{})
	l.now, l.after = clock.Now, clock.After
	tr := l.transport(s)
	do := func(method, path string) (*http.Response, error) {
		req, _ := http.NewRequest(method, "https://discord.com"+api+path, nil)
		return tr.RoundTrip(req)
	}
	resp, err := do("GET", "/users/@me")
	if err != nil || resp.StatusCode != 429 {
		t.Fatalf("the banned answer: %v %v", resp, err)
	}
	<-s.arrived
	for _, r := range [][2]string{{"POST", "/channels/2/messages"}, {"GET", "/users/@me"}, {"POST", "/interactions/5/tok/callback"}, {"PATCH", "/webhooks/1/tok/messages/@original"}} {
		if _, err := do(r[0], r[1]); !errors.Is(err, ErrBanned) {
			t.Errorf("%s %s during the ban: %v, want ErrBanned", r[0], r[1], err)
		}
	}
	if n := s.count(); n != 1 {
		t.Fatalf("%d requests reached Discord, want the one that was refused", n)
	}
	clock.Advance(600 * time.Second)
	if resp, err := do("POST", "/channels/2/messages"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the ban: %v %v", resp, err)
	}
}
