package fakediscord

import (
	"fmt"
	"strconv"
	"time"
)

// Sharding, as Discord documents it in developers/events/gateway.mdx
// (Sharding, Max Concurrency, Sharding for Large Bots, Get Gateway Bot,
// Session Start Limit Object) and the close codes 4010 and 4011 in
// developers/topics/opcodes-and-status-codes.mdx.

// DefaultGuildsPerShard is how many guilds one gateway session may handle
// ("Each shard can only support a maximum of 2500 guilds").
const DefaultGuildsPerShard = 2500

// DefaultIdentifyWindow is the span max_concurrency counts IDENTIFYs in
// ("Number of identify requests allowed per 5 seconds").
const DefaultIdentifyWindow = 5 * time.Second

// sessionStarts is the daily session start limit GET /gateway/bot reports
// ("Clients are limited to 1000 IDENTIFY calls to the websocket in a
// 24-hour period").
const sessionStarts = 1000

// WithGatewayBot sets what GET /gateway/bot recommends: the number of
// shards and session_start_limit.max_concurrency (Discord gives a small
// bot 1 and 1, the default). It also switches on the identify limit: each
// rate-limit key (shard_id % max_concurrency) may IDENTIFY once per
// identify window (WithIdentifyWindow, default 5 s); a faster IDENTIFY is
// answered with INVALID SESSION (op 9), as Discord does, and recorded in
// RefusedIdentifies and as a violation. Without this option the limit is
// off, so that tests which reconnect at once are not slowed down.
func WithGatewayBot(shards, maxConcurrency int) Option {
	return func(c *config) {
		c.recommendedShards, c.maxConcurrency, c.limitIdentify = max(shards, 1), max(maxConcurrency, 1), true
	}
}

// WithIdentifyWindow shortens the span in which max_concurrency IDENTIFYs
// are allowed (Discord: 5 s), so that a test of several shards is quick;
// it switches the identify limit on.
func WithIdentifyWindow(d time.Duration) Option {
	return func(c *config) { c.identifyWindow, c.limitIdentify = d, true }
}

// WithSessionStartsLeft sets session_start_limit.remaining before the
// first IDENTIFY (Discord: 1000 a day); each IDENTIFY takes one.
func WithSessionStartsLeft(n int) Option {
	return func(c *config) { c.sessionStartsLeft = max(n, 0) }
}

// WithGuildsPerShard sets how many guilds one gateway session may handle
// (Discord: 2,500). A session that would handle more is closed with 4011
// Sharding required when it identifies, sharded or not. Tests use a small
// number instead of creating thousands of guilds.
func WithGuildsPerShard(n int) Option {
	return func(c *config) { c.guildsPerShard = n }
}

// WithDefaultGuildOnShard gives the default guild (srv.GuildID) an id on
// the given shard of count, so that a test of a sharded bot can play in it
// with the usual helpers.
func WithDefaultGuildOnShard(shard, count int) Option {
	return func(c *config) { c.defaultGuildShard = [2]int{shard, count} }
}

// SetRecommendedShards changes the number of shards GET /gateway/bot
// recommends, as Discord's does when the bot joins guilds.
func (s *Server) SetRecommendedShards(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.recommendedShards = max(n, 1)
	s.notify()
}

// RefusedIdentify is an IDENTIFY the fake refused: closed with Code 4010
// (invalid shard) or 4011 (sharding required), or answered with INVALID
// SESSION (Code 9) because it came too soon after another one of its
// rate-limit key.
type RefusedIdentify struct {
	Shard  [2]int
	Code   int
	Reason string
	Conn   int
	At     time.Time
}

// RefusedIdentifies returns every IDENTIFY the fake refused so far.
func (s *Server) RefusedIdentifies() []RefusedIdentify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RefusedIdentify(nil), s.gw.refused...)
}

// WaitRefusedIdentify waits until n IDENTIFYs have been refused and
// returns the nth.
func (s *Server) WaitRefusedIdentify(t interface {
	Helper()
	Fatalf(string, ...any)
}, n int, timeout time.Duration) RefusedIdentify {
	t.Helper()
	var r RefusedIdentify
	if !s.waitUntil(timeout, func() bool {
		if len(s.gw.refused) < n {
			return false
		}
		r = s.gw.refused[n-1]
		return true
	}) {
		t.Fatalf("fakediscord: %d refused identify(s) within %v, want %d", len(s.RefusedIdentifies()), orDefault(timeout), n)
	}
	return r
}

// refuseIdentifyLocked decides whether an IDENTIFY for shard may open a
// session; if not, it answers (close code or op 9), records the refusal
// and returns false. The shard array itself was checked already.
func (g *gateway) refuseIdentifyLocked(c *gwConn, shard [2]int) bool {
	s := g.s
	refuse := func(code int, reason string) bool {
		g.refused = append(g.refused, RefusedIdentify{Shard: shard, Code: code, Reason: reason, Conn: c.id, At: time.Now()})
		return true
	}
	guilds := 0
	for _, id := range s.st.guildOrder {
		if shardFor(id, shard[1]) == shard[0] {
			guilds++
		}
	}
	if guilds > s.cfg.guildsPerShard {
		// "The session would have handled too many guilds - you are
		// required to shard your connection in order to connect."
		g.closeLocked(c, 4011, "Sharding required.")
		return refuse(4011, fmt.Sprintf("shard %d of %d would handle %d guilds, more than %d", shard[0], shard[1], guilds, s.cfg.guildsPerShard))
	}
	if !s.cfg.limitIdentify {
		return false
	}
	key := shard[0] % s.cfg.maxConcurrency
	now := s.nowLocked() // the fake's clock: a test may Advance past the window
	if last, ok := g.lastIdentify[key]; ok && now.Sub(last) < s.cfg.identifyWindow {
		// "If your app exceeds this limit, Discord will respond with a
		// Invalid Session (opcode 9) event."
		g.sendLocked(c, map[string]any{"op": 9, "d": false, "s": nil, "t": nil})
		reason := fmt.Sprintf("shard %d (rate-limit key %d of max_concurrency %d) identified %v after the last IDENTIFY of its key, within %v",
			shard[0], key, s.cfg.maxConcurrency, now.Sub(last).Round(time.Millisecond), s.cfg.identifyWindow)
		if !c.tooFast { // discordgo identifies again at once: one violation per connection is enough
			c.tooFast = true
			s.st.violations = append(s.st.violations, Violation{Method: "GATEWAY", Path: "IDENTIFY", Detail: "too many IDENTIFYs: " + reason})
		}
		return refuse(9, reason)
	}
	g.lastIdentify[key] = now
	return false
}

func (c *call) getGatewayBot() (int, any) {
	s := c.s
	left := sessionStarts
	if s.cfg.sessionStartsLeft > 0 {
		left = s.cfg.sessionStartsLeft
	}
	remaining := max(left-len(s.gw.identifies), 0)
	return 200, map[string]any{
		"url":    s.GatewayURL(),
		"shards": s.cfg.recommendedShards,
		"session_start_limit": map[string]any{
			"total": sessionStarts, "remaining": remaining, "reset_after": 14400000,
			"max_concurrency": s.cfg.maxConcurrency,
		},
	}
}

// AddGuildOnShard creates a guild (with no channels) whose id falls on
// the given shard of count ((guild_id >> 22) % count == shard), and
// returns its id.
func (s *Server) AddGuildOnShard(name string, shard, count int) string {
	if count < 1 || shard < 0 || shard >= count {
		s.t.Fatalf("fakediscord: AddGuildOnShard(%q, %d, %d): no such shard", name, shard, count)
	}
	return s.addGuild(s.ids.nextOnShard(shard, count), name)
}

// nextOnShard is a fresh snowflake whose timestamp part is moved forward
// (by less than count milliseconds) onto the shard; ids stay increasing.
func (g *snowflakes) nextOnShard(shard, count int) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	ms := max(time.Now().Add(g.offset).UnixMilli()-discordEpochMS, g.last+1)
	ms += (int64(shard) - ms%int64(count) + int64(count)) % int64(count)
	g.last, g.inc = ms, 1
	return strconv.FormatInt(ms<<22|1<<17|1<<12|g.inc, 10)
}
