package fakediscord

import (
	"fmt"
	"time"
)

// Fault is an answer the fake gives instead of the normal one.
type Fault struct {
	// Status is the HTTP status to answer (429, 500, 502, ...); 0 answers
	// normally after Delay.
	Status int
	// RetryAfter is the wait a 429 asks for (body retry_after in seconds,
	// Retry-After and X-RateLimit-Reset-After headers).
	RetryAfter time.Duration
	// Global marks a 429 as the global rate limit, as Discord sends it
	// (X-RateLimit-Global: true, X-RateLimit-Scope: global, "global":
	// true, Retry-After, no bucket headers).
	Global bool
	// Delay is waited before answering (a slow Discord).
	Delay time.Duration
	// Times is how many matching requests get the fault (0 means 1; -1
	// means until ClearFaults).
	Times int
	// Applied makes the request take effect before its answer is replaced
	// by Status: Discord did it, but the answer was lost on the way back
	// (a retried interaction answer then gets 40060).
	Applied bool
	// Upload is how long a matching request that uploads files takes to
	// arrive (a slow link, a large file): the fake takes it as arriving
	// that much later, so an interaction's 3 s and a token's 15 minutes
	// are measured then. Nothing waits; a request without files is not
	// slowed.
	Upload time.Duration
}

type fault struct {
	pattern string
	Fault
	left int
}

// Inject makes the next matching requests answer with the fault. pattern is
// "METHOD /path" with path.Match wildcards on the API path without the
// /api/v9 prefix, e.g. "POST /channels/*/messages" or
// "POST /interactions/*/*/callback"; a pattern starting with "/" matches any
// method; "" matches every request. Faults are used in the order injected.
func (s *Server) Inject(pattern string, f Fault) {
	n := f.Times
	if n == 0 {
		n = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{pattern: pattern, Fault: f, left: n})
}

// RateLimit answers the next matching request with 429 and retry_after.
func (s *Server) RateLimit(pattern string, retryAfter time.Duration, global bool) {
	s.Inject(pattern, Fault{Status: 429, RetryAfter: retryAfter, Global: global})
}

// FailNext answers the next n matching requests with the status (e.g. 500, 502).
func (s *Server) FailNext(pattern string, status, n int) {
	s.Inject(pattern, Fault{Status: status, Times: n})
}

// Slow delays the answer to the next n matching requests.
func (s *Server) Slow(pattern string, delay time.Duration, n int) {
	s.Inject(pattern, Fault{Delay: delay, Times: n})
}

// ClearFaults removes every pending fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault consumes one use of the first matching fault; s.mu held.
func (s *Server) takeFault(method, p string) *fault {
	for i, f := range s.faults {
		if !routeMatch(f.pattern, method, p) {
			continue
		}
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		cp := *f
		return &cp
	}
	return nil
}

func (f *fault) describe() string {
	switch {
	case f.Status == 429 && f.Global:
		return fmt.Sprintf("global rate limit, retry after %v", f.RetryAfter)
	case f.Status == 429:
		return fmt.Sprintf("rate limit, retry after %v", f.RetryAfter)
	case f.Delay > 0:
		return fmt.Sprintf("HTTP %d after %v", f.Status, f.Delay)
	case f.Upload > 0:
		return fmt.Sprintf("upload taking %v", f.Upload)
	default:
		return fmt.Sprintf("HTTP %d", f.Status)
	}
}

func (f *fault) answer(c *call) (int, any) {
	switch f.Status {
	case 429:
		if f.Global {
			// As Discord sends it: Retry-After, X-RateLimit-Global and
			// -Scope, no bucket headers (and so no X-RateLimit-Reset-After,
			// which discordgo would read as a hold on every route).
			return tooMany(c, f.RetryAfter, "global")
		}
		// Per-route: the bucket is empty until the reset.
		h := c.header
		h.Set("X-RateLimit-Limit", "5")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Bucket", "fakebucket")
		now := time.Now()
		setReset(c, now.Add(f.RetryAfter), now)
		return tooMany(c, f.RetryAfter, "user")
	case 502:
		return 502, map[string]any{"message": "502: Bad Gateway", "code": 0}
	case 500:
		return 500, map[string]any{"message": "500: Internal Server Error", "code": 0}
	case 503:
		return 503, map[string]any{"message": "upstream connect error or disconnect/reset before headers", "code": 0}
	default:
		return f.Status, map[string]any{"message": fmt.Sprintf("%d: injected fault", f.Status), "code": 0}
	}
}
