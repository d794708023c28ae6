package fakediscord_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/bot/fakediscord"
)

// call makes one raw REST request as the bot (or with auth as given) and
// returns the answer's status, headers and body.
func call(t *testing.T, srv *fakediscord.Server, auth, method, path, body string) (int, http.Header, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, "https://discord.com/api/v9"+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(data)
}

// rateBody is a 429's JSON body.
type rateBody struct {
	Message    string   `json:"message"`
	RetryAfter *float64 `json:"retry_after"`
	Global     *bool    `json:"global"`
}

func decodeRate(t *testing.T, body string) rateBody {
	t.Helper()
	var b rateBody
	if err := json.Unmarshal([]byte(body), &b); err != nil || b.RetryAfter == nil || b.Global == nil || b.Message == "" {
		t.Fatalf("429 body %q: want message, retry_after and global (%v)", body, err)
	}
	return b
}

// Windows of an hour: every request of a test falls in one window, so
// what is refused does not depend on how fast the machine is.
var hourLimits = fakediscord.RateLimits{
	Global: 8, GlobalWindow: time.Hour,
	Buckets: []fakediscord.Bucket{
		{Name: "posts", Routes: []string{"POST /channels/{channel}/messages"}, Limit: 3, Window: time.Hour},
		{Name: "reactions", Routes: []string{
			"PUT /channels/{channel}/messages/{message}/reactions/{emoji}/@me",
			"DELETE /channels/{channel}/messages/{message}/reactions/{emoji}/@me",
		}, Limit: 1, Window: time.Hour},
	},
}

// TestRouteBuckets: a route's bucket is counted per channel, its answers
// carry the bucket's headers, the request past the limit gets Discord's
// 429 of scope user (the bucket headers, Retry-After in whole seconds and
// retry_after in the body), and routes that share a bucket use it up
// together.
func TestRouteBuckets(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithRateLimits(hourLimits))
	other := srv.AddChannel(srv.GuildID, "other")
	post := func(ch string) (int, http.Header, string) {
		return call(t, srv, "Bot x", "POST", "/channels/"+ch+"/messages", `{"content":"hi"}`)
	}
	var first string
	for i := range 3 {
		st, h, body := post(srv.ChannelID)
		if st != 200 {
			t.Fatalf("post %d: %d %s", i+1, st, body)
		}
		if i == 0 {
			var m struct{ ID string }
			json.Unmarshal([]byte(body), &m)
			first = m.ID
		}
		// 3 per hour: 2, 1, 0 left.
		if h.Get("X-RateLimit-Bucket") != "posts" || h.Get("X-RateLimit-Limit") != "3" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Errorf("post %d headers: %v", i+1, h)
		}
		if after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64); err != nil || after <= 0 || after > 3600 {
			t.Errorf("post %d: X-RateLimit-Reset-After %q", i+1, h.Get("X-RateLimit-Reset-After"))
		}
	}
	st, h, body := post(srv.ChannelID)
	if st != 429 || h.Get("X-RateLimit-Scope") != "user" || h.Get("X-RateLimit-Bucket") != "posts" || h.Get("X-RateLimit-Remaining") != "0" || h.Get("X-RateLimit-Global") != "" {
		t.Fatalf("the 4th post: %d %v %s", st, h, body)
	}
	b := decodeRate(t, body)
	if *b.Global || *b.RetryAfter <= 0 || *b.RetryAfter > 3600 {
		t.Errorf("429 body %+v", b)
	}
	if ra, err := strconv.Atoi(h.Get("Retry-After")); err != nil || float64(ra) < *b.RetryAfter || float64(ra) >= *b.RetryAfter+1 {
		t.Errorf("Retry-After %q for retry_after %v: want it rounded up to whole seconds", h.Get("Retry-After"), *b.RetryAfter)
	}
	if st, _, body := post(other); st != 200 {
		t.Errorf("another channel's bucket is its own: %d %s", st, body)
	}
	// Adding and removing a reaction share one bucket of 1.
	react := "/channels/" + srv.ChannelID + "/messages/" + first + "/reactions/%F0%9F%91%8D/@me"
	if st, _, body := call(t, srv, "Bot x", "PUT", react, ""); st != 204 {
		t.Fatalf("reaction: %d %s", st, body)
	}
	if st, h, _ := call(t, srv, "Bot x", "DELETE", react, ""); st != 429 || h.Get("X-RateLimit-Bucket") != "reactions" {
		t.Errorf("removing after adding, one of one used: %d %v", st, h)
	}
	if n := srv.RateLimited(); n != 2 {
		t.Errorf("RateLimited() = %d, want 2", n)
	}
}

// TestGlobalRateLimit: the global limit counts every request of a token,
// whatever the route, except the interaction endpoints; past it the 429
// is the one on the rate-limit page: X-RateLimit-Global, scope global,
// Retry-After, "global": true, and no bucket headers (with which
// discordgo would hold back every route for the client). Another token
// has its own count.
func TestGlobalRateLimit(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithRateLimits(hourLimits))
	dg := srv.Session("gateway-token") // receives the interaction below
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dg.Close() })
	a, b := srv.AddChannel(srv.GuildID, "a"), srv.AddChannel(srv.GuildID, "b")
	paths := []string{srv.ChannelID, a, b}
	for i := range 8 { // posts in three channels (3 each at most) and reads
		p := "/channels/" + paths[i%3]
		var st int
		var body string
		if i < 6 {
			st, _, body = call(t, srv, "Bot x", "POST", p+"/messages", `{"content":"hi"}`)
		} else {
			st, _, body = call(t, srv, "Bot x", "GET", p, "")
		}
		if st != 200 {
			t.Fatalf("request %d: %d %s", i+1, st, body)
		}
	}
	st, h, body := call(t, srv, "Bot x", "GET", "/channels/"+a, "")
	if st != 429 || h.Get("X-RateLimit-Global") != "true" || h.Get("X-RateLimit-Scope") != "global" || h.Get("Retry-After") == "" {
		t.Fatalf("the 9th request: %d %v %s", st, h, body)
	}
	for _, k := range []string{"X-RateLimit-Bucket", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset-After", "X-RateLimit-Reset"} {
		if h.Get(k) != "" {
			t.Errorf("a global 429 carries %s: %q", k, h.Get(k))
		}
	}
	if b := decodeRate(t, body); !*b.Global {
		t.Errorf("429 body %+v, want global", b)
	}
	if st, _, body := call(t, srv, "Bot y", "GET", "/channels/"+a, ""); st != 200 {
		t.Errorf("another token: %d %s", st, body)
	}
	// An interaction's answer is not bound to the global limit.
	sent := srv.Slash("rules").Send(t)
	st, _, body = call(t, srv, "Bot x", "POST", "/interactions/"+sent.ID+"/"+sent.Token+"/callback", `{"type":4,"data":{"content":"ok"}}`)
	if st != 204 {
		t.Errorf("the interaction callback past the global limit: %d %s", st, body)
	}
}

// TestInvalidRequestLimit: past Invalid answers with 401, 403 or 429 in
// the window, Discord (its Cloudflare) bans the address: every request
// gets 429 with no JSON, and the fake records a violation.
func TestInvalidRequestLimit(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithRateLimits(fakediscord.RateLimits{Invalid: 3, InvalidWindow: time.Hour}),
		fakediscord.WithToken("good"), fakediscord.AllowViolations())
	for i := range 3 {
		if st, _, _ := call(t, srv, "Bot bad", "GET", "/users/@me", ""); st != 401 {
			t.Fatalf("bad token %d: %d", i+1, st)
		}
	}
	st, h, body := call(t, srv, "Bot good", "GET", "/users/@me", "")
	if st != 429 || body != "error code: 1015" || h.Get("Retry-After") == "" {
		t.Fatalf("after 3 invalid requests: %d %v %q", st, h, body)
	}
	var banned bool
	for _, v := range srv.Violations() {
		banned = banned || strings.Contains(v.Detail, "invalid request limit")
	}
	if !banned {
		t.Errorf("violations %v: want the ban", srv.Violations())
	}
}
