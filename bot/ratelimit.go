package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RateLimit is how fast the bot may call Discord's REST API in all: its
// global limit, which Discord's answers do not announce (the per-route
// limits they do, and the bot follows those as they come).
type RateLimit struct {
	// Global requests per Window, interaction answers not counted.
	// Default Discord's 50 per second. Processes that share a token share
	// Discord's limit: give each its part.
	Global int
	Window time.Duration
}

// DefaultRateLimit is Discord's global limit: "All bots can make up to 50
// requests per second to our API" (developers/topics/rate-limits.mdx).
var DefaultRateLimit = RateLimit{Global: 50, Window: time.Second}

// limiter keeps every REST request of the bot (the courier's workers and
// the answers to interactions alike: they share the sessions' HTTP
// client) within Discord's limits, so that Discord need never answer 429:
//
//   - the global limit: at most Global requests in any Window. A request
//     holds its place from when it is sent until Window after its answer
//     came back, so however the network delays requests, Discord never
//     sees more than Global within a window. Interaction endpoints are
//     not bound to it, as on Discord.
//   - per-route buckets: requests of a route to one top-level resource
//     (a channel, a guild, a webhook's token) go one at a time until
//     Discord's answer says the route has no limit; X-RateLimit-Bucket
//     says which routes share a bucket, and X-RateLimit-Remaining and
//     -Reset-After when the bucket is empty and for how long.
//   - a 429 nevertheless (another process with the token, a limit Discord
//     changed): a global one holds back every request, another the
//     bucket, for the Retry-After Discord gave; the request is sent again
//     after the wait, at most maxRateLimitRetries times, then its 429 is
//     the caller's.
//   - a ban: past the invalid request limit (10,000 answers 401, 403 or
//     429 in 10 minutes) Cloudflare answers every request from the
//     address with 429 for a while, with no X-RateLimit-Scope (Discord's
//     own 429s carry one: user, global or shared) and no JSON
//     (developers/topics/rate-limits.mdx, Invalid Request Limit). It
//     binds every route, the interaction endpoints too, and every
//     request sent meanwhile counts again: until its Retry-After no
//     request is sent at all; each fails at once with ErrBanned.
//
// It waits with the request's context, so a courier that stops is not
// held by a wait. discordgo never waits: the bot turns its retry of 429s
// off (it retried each without limit, in a sleep no context ends), and
// the rate-limit headers are taken out of the answers it reads, so that
// its own buckets, which sleep the same way, never hold a request.
type limiter struct {
	limit RateLimit
	// now and after are the clock (the wall clock; tests give their own).
	now   func() time.Time
	after func(time.Duration) (<-chan time.Time, func() bool)

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced when a place may have come free
	inflight int           // global requests sent and not yet answered
	answered []time.Time   // answers of global requests within the window, oldest first
	hold     time.Time     // a global 429: nothing is sent before then
	ban      time.Time     // a ban: nothing at all is sent before then
	retries  int           // how many times a request answered 429 is sent again
	log      *slog.Logger  // says when a ban starts (nil: silent)
	routes   map[string]string
	buckets  map[string]*rateBucket
}

// rateBucket is what the bot knows of one bucket for one resource.
type rateBucket struct {
	turn      chan struct{} // holds a token while a request is in flight
	unlimited bool          // Discord's answers carry no bucket: no need to queue
	remaining int           // -1: unknown
	reset     time.Time
}

func newLimiter(l RateLimit) *limiter {
	if l.Global <= 0 || l.Window <= 0 {
		l = DefaultRateLimit
	}
	return &limiter{limit: l, now: time.Now, after: wallTimer, retries: maxRateLimitRetries,
		changed: make(chan struct{}), routes: map[string]string{}, buckets: map[string]*rateBucket{}}
}

// maxRateLimitRetries is how many times a request answered 429 is sent
// again, each after the wait Discord asked for: a limit the limiter did
// not know of is known after one answer, so a second 429 means another
// process shares it, and the caller (the courier's retries, or the
// player's next click) does better than a request that waits on.
const maxRateLimitRetries = 2

// ErrBanned is the error of a request not sent because Cloudflare banned
// the bot's address (the invalid request limit) for a while.
var ErrBanned = errors.New("not sent: Discord (its Cloudflare) bans this address for a while, after too many invalid requests (401, 403, 429)")

func wallTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// transport is base with the limiter in front.
func (l *limiter) transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &limitedTransport{l: l, base: base}
}

type limitedTransport struct {
	l    *limiter
	base http.RoundTripper
}

var apiVersion = regexp.MustCompile(`^/api(/v\d+)?`)

// routeOf is a request's route and its top-level resource: the path with
// ids replaced, e.g. "POST /channels/{major}/messages" and the channel.
func routeOf(method, urlPath string) (route, major string) {
	segs := strings.Split(strings.Trim(apiVersion.ReplaceAllString(urlPath, ""), "/"), "/")
	for i := 0; i < len(segs); i++ {
		prev := ""
		if i > 0 {
			prev = segs[i-1]
		}
		switch {
		case i == 1 && (prev == "channels" || prev == "guilds"):
			major, segs[i] = segs[i], "{major}"
		case i == 1 && (prev == "webhooks" || prev == "interactions") && i+1 < len(segs):
			major, segs[i], segs[i+1] = segs[i]+"/"+segs[i+1], "{major}", "{token}"
			i++
		case prev == "reactions":
			segs[i] = "{emoji}"
		case snowflake(segs[i]):
			segs[i] = "{id}"
		}
	}
	return method + " /" + strings.Join(segs, "/"), major
}

func snowflake(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// globalExempt: the interaction endpoints (the callback and the webhook
// routes on an interaction's token) are not bound to the global limit
// (developers/interactions/receiving-and-responding.mdx, Endpoints).
func globalExempt(route string) bool {
	return strings.HasPrefix(route, "POST /interactions/") || strings.Contains(route, " /webhooks/{major}/")
}

// RoundTrip sends the request within the limits, and again after a 429
// (at most l.retries times) once the wait Discord asked for has passed.
func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for try := 0; ; try++ {
		resp, err := t.once(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || try >= t.l.retries || t.l.banned() {
			return resp, err
		}
		if req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				return resp, nil // the body cannot be sent again
			}
			body, err := req.GetBody()
			if err != nil {
				return resp, nil
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// banned reports whether a ban holds now.
func (l *limiter) banned() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.now().Before(l.ban)
}

// once sends the request once, within the limits.
func (t *limitedTransport) once(req *http.Request) (*http.Response, error) {
	l := t.l
	if l.banned() {
		return nil, ErrBanned
	}
	route, major := routeOf(req.Method, req.URL.Path)
	b, err := l.takeTurn(req, route, major)
	if err != nil {
		return nil, err
	}
	global := !globalExempt(route)
	if global {
		if err := l.takeGlobal(req); err != nil {
			l.endTurn(b)
			return nil, err
		}
	}
	resp, err := t.base.RoundTrip(req)
	if global {
		l.endGlobal()
	}
	if err != nil {
		l.endTurn(b)
		return nil, err
	}
	l.learn(resp, route, major, b)
	l.endTurn(b)
	for k := range resp.Header {
		// The limiter keeps to them; discordgo's buckets would sleep on
		// them, deaf to the request's context.
		if c := http.CanonicalHeaderKey(k); strings.HasPrefix(c, "X-Ratelimit-") || c == "Retry-After" {
			delete(resp.Header, k)
		}
	}
	return resp, nil
}

// wait waits until the time, a change, or the request's end.
func (l *limiter) wait(req *http.Request, until time.Time, changed chan struct{}) error {
	var timer <-chan time.Time
	if !until.IsZero() {
		c, stop := l.after(until.Sub(l.now()))
		defer stop()
		timer = c
	}
	select {
	case <-timer:
	case <-changed:
	case <-req.Context().Done():
		return req.Context().Err()
	}
	return nil
}

// wake tells the waiters that something changed; l.mu held.
func (l *limiter) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// bucketLocked is the bucket of route on major; l.mu held.
func (l *limiter) bucketLocked(route, major string) *rateBucket {
	key := "route " + route
	if name, ok := l.routes[route]; ok {
		key = "bucket " + name
	}
	key += " " + major
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.sweepLocked()
		}
		b = &rateBucket{turn: make(chan struct{}, 1), remaining: -1}
		l.buckets[key] = b
	}
	return b
}

// maxBuckets is how many buckets the limiter remembers before it forgets
// the idle ones (every interaction and channel has its own).
const maxBuckets = 4096

// sweepLocked forgets the buckets no request holds whose window has
// passed: what Discord said of them no longer binds. A request that
// fetched one just before finds out in takeTurn and queues anew.
func (l *limiter) sweepLocked() {
	now := l.now()
	for k, b := range l.buckets {
		if len(b.turn) == 0 && !now.Before(b.reset) {
			delete(l.buckets, k)
		}
	}
}

// takeTurn waits until the bucket lets the request go, and holds the
// bucket's turn unless the route is unlimited.
func (l *limiter) takeTurn(req *http.Request, route, major string) (*rateBucket, error) {
	for {
		l.mu.Lock()
		b := l.bucketLocked(route, major)
		unlimited := b.unlimited
		l.mu.Unlock()
		if !unlimited {
			select {
			case b.turn <- struct{}{}:
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		l.mu.Lock()
		if again := l.bucketLocked(route, major); again != b {
			// Discord named the route's bucket meanwhile: queue there.
			l.mu.Unlock()
			if !unlimited {
				<-b.turn
			}
			continue
		}
		now := l.now()
		if b.remaining == 0 && now.Before(b.reset) {
			until, changed := b.reset, l.changed
			l.mu.Unlock()
			if !unlimited {
				<-b.turn
			}
			if err := l.wait(req, until, changed); err != nil {
				return nil, err
			}
			continue
		}
		if !now.Before(b.reset) {
			b.remaining = -1 // a new window: Discord's next answer tells
		}
		if b.remaining > 0 {
			b.remaining--
		}
		l.mu.Unlock()
		if unlimited {
			return nil, nil
		}
		return b, nil
	}
}

func (l *limiter) endTurn(b *rateBucket) {
	if b != nil {
		<-b.turn
	}
}

// takeGlobal waits for a place within the global limit.
func (l *limiter) takeGlobal(req *http.Request) error {
	for {
		l.mu.Lock()
		now := l.now()
		i := 0
		for i < len(l.answered) && !l.answered[i].After(now.Add(-l.limit.Window)) {
			i++
		}
		l.answered = l.answered[i:]
		var until time.Time
		switch {
		case now.Before(l.hold):
			until = l.hold
		case l.inflight+len(l.answered) < l.limit.Global:
			l.inflight++
			l.mu.Unlock()
			return nil
		case len(l.answered) > 0:
			until = l.answered[0].Add(l.limit.Window)
		}
		changed := l.changed
		l.mu.Unlock()
		if err := l.wait(req, until, changed); err != nil {
			return err
		}
	}
}

func (l *limiter) endGlobal() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	l.answered = append(l.answered, l.now())
	l.wake()
}

// learn reads Discord's rate-limit headers of an answer.
func (l *limiter) learn(resp *http.Response, route, major string, turn *rateBucket) {
	h := resp.Header
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.wake()
	name := h.Get("X-RateLimit-Bucket")
	if name != "" && l.routes[route] != name {
		l.routes[route] = name
	}
	b := l.bucketLocked(route, major)
	if name == "" && resp.StatusCode < 300 && turn != nil && b == turn {
		b.unlimited = true // no bucket: requests need not queue
	}
	if rem, err := strconv.Atoi(h.Get("X-RateLimit-Remaining")); err == nil {
		if b.remaining < 0 || rem < b.remaining {
			b.remaining = rem
		}
	}
	if after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64); err == nil {
		b.reset = now.Add(time.Duration(after * float64(time.Second)))
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		return
	}
	retry := retryAfter(resp)
	if h.Get("X-RateLimit-Scope") == "" && h.Get("X-RateLimit-Global") == "" {
		// No scope: not Discord's limit but Cloudflare's ban of the
		// address, which binds every route.
		if t := now.Add(retry); t.After(l.ban) {
			if !now.Before(l.ban) && l.log != nil {
				l.log.Error("Discord (its Cloudflare) banned this address after too many invalid requests (401, 403, 429): nothing is sent until the ban ends",
					"until", t.UTC().Format(time.RFC3339), "route", route)
			}
			l.ban = t
		}
		if t := now.Add(retry); t.After(l.hold) {
			l.hold = t
		}
		return
	}
	if h.Get("X-RateLimit-Global") != "" || h.Get("X-RateLimit-Scope") == "global" {
		if t := now.Add(retry); t.After(l.hold) {
			l.hold = t
		}
		return
	}
	b.remaining = 0
	if t := now.Add(retry); t.After(b.reset) {
		b.reset = t
	}
}

// retryAfter is how long a 429 asks to wait: the body's retry_after
// (seconds, with decimals), else the Retry-After header (whole seconds).
// The body is read and put back for discordgo.
func retryAfter(resp *http.Response) time.Duration {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	var body struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(data, &body) == nil && body.RetryAfter > 0 {
		return time.Duration(body.RetryAfter * float64(time.Second))
	}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		return time.Duration(secs) * time.Second
	}
	return time.Second
}
