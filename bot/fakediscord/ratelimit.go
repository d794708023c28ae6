package fakediscord

import (
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"time"
)

// RateLimits are the REST limits the fake enforces, as Discord's rate-limit
// page (developers/topics/rate-limits.mdx) describes them: per-route
// buckets named by X-RateLimit-Bucket and counted per top-level resource
// (a channel, a guild, a webhook and its token), a global limit per bot
// token that interaction endpoints are not bound to, and the invalid
// request limit, past which Discord bans the client's address for a while.
// Every window is on the wall clock.
type RateLimits struct {
	// Global is how many requests one token (one address without a
	// token) may make per GlobalWindow: Discord allows 50 per second.
	// 0 turns the global limit off.
	Global       int
	GlobalWindow time.Duration
	// Invalid is how many answers with 401, 403 or 429 (except a 429 of
	// scope shared) a client may receive per InvalidWindow: Discord
	// allows 10,000 per 10 minutes and then bans the address ("Cloudflare
	// bans"). 0 turns the limit off.
	Invalid       int
	InvalidWindow time.Duration
	// Buckets are the per-route limits; a route in none has no limit but
	// the global one, and its answers carry no rate-limit headers.
	Buckets []Bucket
}

// Bucket is one per-route rate limit. Discord counts it separately for
// each top-level resource in the path (the route's {channel}, {guild}, or
// webhook {app} and {token}): posting in one channel does not use up
// another's.
type Bucket struct {
	// Name is the X-RateLimit-Bucket value (Discord's is an opaque hash).
	Name string
	// Routes are the route templates that share the bucket, as the fake
	// names them (Request.Route), e.g. "POST /channels/{channel}/messages".
	Routes []string
	// Limit requests per Window; the window starts with the first request
	// after the previous one ended.
	Limit  int
	Window time.Duration
}

// DiscordRateLimits are Discord's numbers. The global and invalid-request
// limits are the documented ones. Discord documents no per-route numbers
// ("rate limits should not be hard coded": a client must read the
// headers); the buckets are the values Discord's headers report for these
// routes: 5 messages per 5 s per channel, 5 edits per 5 s per channel, 5
// deletions per second, one reaction per 250 ms per channel (adding and
// removing share the bucket), and 5 requests per 2 s per webhook token for
// an interaction's follow-ups and edits ("Interactions webhooks share the
// same rate limit properties as normal webhooks").
func DiscordRateLimits() RateLimits {
	return RateLimits{
		Global: 50, GlobalWindow: time.Second,
		Invalid: 10000, InvalidWindow: 10 * time.Minute,
		Buckets: []Bucket{
			{Name: "80c17d2f203122d936070c88c8d10f33", Routes: []string{"POST /channels/{channel}/messages"}, Limit: 5, Window: 5 * time.Second},
			{Name: "5c4a1a3c6b0e4c4a8e4bbd2d8c5f3d1e", Routes: []string{"PATCH /channels/{channel}/messages/{message}"}, Limit: 5, Window: 5 * time.Second},
			{Name: "b05c1e5d0a4e4a3e9d0f6f7c1b2a3c4d", Routes: []string{"DELETE /channels/{channel}/messages/{message}"}, Limit: 5, Window: time.Second},
			{Name: "1c5b2fb4f1d0d9e7a8c6b5a4f3e2d1c0", Routes: []string{
				"PUT /channels/{channel}/messages/{message}/reactions/{emoji}/@me",
				"DELETE /channels/{channel}/messages/{message}/reactions/{emoji}/@me",
			}, Limit: 1, Window: 250 * time.Millisecond},
			{Name: "d2a5e9c1f4b3a6d8e7c0b9a1f2e3d4c5", Routes: []string{
				"POST /webhooks/{app}/{token}",
				"GET /webhooks/{app}/{token}/messages/{message}",
				"PATCH /webhooks/{app}/{token}/messages/{message}",
				"DELETE /webhooks/{app}/{token}/messages/{message}",
			}, Limit: 5, Window: 2 * time.Second},
		},
	}
}

// DefaultRateLimits are what New enforces unless told otherwise:
// Discord's counts in windows fifty times shorter (5 posts per 100 ms in
// a channel, 50 requests per 20 ms in all): every test meets every kind
// of limit, and a whole game does not wait seconds for its thread's
// bucket.
func DefaultRateLimits() RateLimits { return DiscordRateLimits().Faster(50) }

// Faster is l with every window divided by n and every count kept: the
// same limits on a faster clock (a test that cannot wait 100 s for 5,000
// requests at 50 a second).
func (l RateLimits) Faster(n int) RateLimits {
	if n <= 1 {
		return l
	}
	d := time.Duration(n)
	out := l
	out.GlobalWindow /= d
	out.InvalidWindow /= d
	out.Buckets = make([]Bucket, len(l.Buckets))
	for i, b := range l.Buckets {
		b.Window /= d
		out.Buckets[i] = b
	}
	return out
}

// WithRateLimits sets the limits the fake enforces (default
// DefaultRateLimits).
func WithRateLimits(l RateLimits) Option {
	return func(c *config) { c.limits = l; c.limitsSet = true }
}

// WithoutRateLimits turns every rate limit off.
func WithoutRateLimits() Option {
	return WithRateLimits(RateLimits{})
}

// RateLimits are the limits the server enforces.
func (s *Server) RateLimits() RateLimits { return s.cfg.limits }

// RateLimited counts the requests the fake's limits answered with 429
// (the global limit, a bucket, or a ban); injected faults are not
// counted.
func (s *Server) RateLimited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.st.requests {
		if r.Limited != "" {
			n++
		}
	}
	return n
}

// rateState is what the limits remember; guarded by Server.mu.
type rateState struct {
	global  map[string][]time.Time // client -> accepted requests within the window, oldest first
	invalid map[string][]time.Time // client -> invalid answers within the window
	buckets map[string]*bucketState
}

type bucketState struct {
	count int
	reset time.Time
}

func newRateState() *rateState {
	return &rateState{global: map[string][]time.Time{}, invalid: map[string][]time.Time{}, buckets: map[string]*bucketState{}}
}

// client is who the global limit counts: the bot's token, or the
// address of a request without one ("If no authorization header is
// provided, then the limit is applied to the IP address").
func client(c *call) string {
	if a := c.r.Header.Get("Authorization"); a != "" {
		return a
	}
	return address(c)
}

// address is who the invalid request limit counts: "IP addresses that
// make too many invalid HTTP requests are automatically and temporarily
// restricted".
func address(c *call) string {
	host, _, _ := net.SplitHostPort(c.r.RemoteAddr)
	return "ip " + host
}

// globalExempt: Discord's interaction endpoints (the callback, and the
// webhook routes on an interaction's token) "are not bound to the
// application's Global Rate Limit".
func globalExempt(route string) bool {
	return strings.HasPrefix(route, "POST /interactions/") || strings.Contains(route, " /webhooks/{app}/{token}")
}

// within drops the times before now-window and returns the rest.
func within(ts []time.Time, now time.Time, window time.Duration) []time.Time {
	i := 0
	for i < len(ts) && !ts[i].After(now.Add(-window)) {
		i++
	}
	return ts[i:]
}

// limit decides whether the request is refused by a rate limit, before
// its route runs; s.mu held. It sets the bucket headers of the answer.
func (s *Server) limit(c *call, rt *route) (status int, body any, refused bool) {
	l := s.cfg.limits
	now := time.Now()
	who := client(c)
	if l.Invalid > 0 {
		bad := within(s.rl.invalid[address(c)], now, l.InvalidWindow)
		s.rl.invalid[address(c)] = bad
		if len(bad) >= l.Invalid {
			// Banned: Cloudflare answers for Discord, with no JSON and no
			// rate-limit headers, until the window has passed.
			after := bad[0].Add(l.InvalidWindow).Sub(now)
			c.header.Set("Retry-After", strconv.Itoa(int(math.Ceil(after.Seconds()))))
			c.header.Set("Content-Type", "text/plain; charset=UTF-8")
			c.errs = append(c.errs, Violation{Detail: fmt.Sprintf("%d invalid requests (401, 403, 429) within %v: Discord bans the address for a while (the invalid request limit)", len(bad), l.InvalidWindow)})
			c.req.Limited = "banned"
			return 429, rawBody("error code: 1015"), true
		}
	}
	if rt == nil {
		return 0, nil, false
	}
	var b *Bucket
	for i := range l.Buckets {
		for _, r := range l.Buckets[i].Routes {
			if r == rt.tmpl {
				b = &l.Buckets[i]
			}
		}
	}
	var st *bucketState
	if b != nil {
		key := b.Name + " " + c.params["channel"] + c.params["guild"] + c.params["app"] + "/" + c.params["token"]
		st = s.rl.buckets[key]
		if st == nil {
			st = &bucketState{}
			s.rl.buckets[key] = st
		}
		if !now.Before(st.reset) {
			st.count, st.reset = 0, now.Add(b.Window)
		}
		c.header.Set("X-RateLimit-Limit", strconv.Itoa(b.Limit))
		c.header.Set("X-RateLimit-Bucket", b.Name)
		setReset(c, st.reset, now)
	}
	if l.Global > 0 && !globalExempt(rt.tmpl) {
		recent := within(s.rl.global[who], now, l.GlobalWindow)
		s.rl.global[who] = recent
		if len(recent) >= l.Global {
			for k := range c.header { // a global 429 names no bucket
				delete(c.header, k)
			}
			c.req.Limited = "global"
			status, body := tooMany(c, recent[0].Add(l.GlobalWindow).Sub(now), "global")
			return status, body, true
		}
	}
	if b != nil && st.count >= b.Limit {
		c.header.Set("X-RateLimit-Remaining", "0")
		c.req.Limited = "bucket " + b.Name
		status, body := tooMany(c, st.reset.Sub(now), "user")
		return status, body, true
	}
	if l.Global > 0 && !globalExempt(rt.tmpl) {
		s.rl.global[who] = append(s.rl.global[who], now)
	}
	if b != nil {
		st.count++
		c.header.Set("X-RateLimit-Remaining", strconv.Itoa(b.Limit-st.count))
	}
	return 0, nil, false
}

// countInvalid remembers an answer the invalid request limit counts;
// s.mu held.
func (s *Server) countInvalid(c *call, status int) {
	if s.cfg.limits.Invalid == 0 || c.req.Limited == "banned" {
		return
	}
	if status == 401 || status == 403 || (status == 429 && c.header.Get("X-RateLimit-Scope") != "shared") {
		ip := address(c)
		s.rl.invalid[ip] = append(s.rl.invalid[ip], time.Now())
	}
}

// setReset writes the bucket's reset time, rounded up to the millisecond
// (a client that waits for it never comes early).
func setReset(c *call, reset, now time.Time) {
	after := reset.Sub(now)
	ms := (after + time.Millisecond - 1) / time.Millisecond
	c.header.Set("X-RateLimit-Reset-After", strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64))
	at := (reset.UnixNano() + int64(time.Millisecond) - 1) / int64(time.Millisecond)
	c.header.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(at)/1000, 'f', 3, 64))
}

// tooMany is Discord's 429 of the scope ("user" for a route's bucket,
// "global" or "shared"): the JSON body with retry_after in seconds and
// the Retry-After header in whole seconds, rounded up. A global 429
// carries X-RateLimit-Global and no bucket headers, as on the rate-limit
// page's example ("Example Exceeded Global Rate Limit Response").
func tooMany(c *call, after time.Duration, scope string) (int, any) {
	after = max(after, time.Millisecond)
	secs := math.Ceil(after.Seconds()*1000) / 1000
	c.header.Set("Retry-After", strconv.Itoa(int(math.Ceil(after.Seconds()))))
	c.header.Set("X-RateLimit-Scope", scope)
	global := scope == "global"
	if global {
		c.header.Set("X-RateLimit-Global", "true")
	}
	msg := "You are being rate limited."
	if scope == "shared" {
		msg = "The resource is being rate limited."
	}
	return 429, map[string]any{"message": msg, "retry_after": secs, "global": global}
}

// rawBody is an answer that is not JSON (Cloudflare's).
type rawBody string
