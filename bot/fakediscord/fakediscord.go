// Package fakediscord is an offline fake of Discord for tests: a REST API
// server and a websocket gateway on loopback that a real *discordgo.Session
// talks to exactly as it would to Discord.
//
// A test starts one server per test with New, gets a wired session with
// Session, opens it, and drives the bot by dispatching interactions and
// messages (Slash, Autocomplete, Button, UserMessage). Everything the bot sends
// is recorded (Requests, Messages, InteractionResponse) and checked against
// Discord's documented limits (Violations). Faults (rate limits, 5xx, slow
// answers, gateway drops, RECONNECT, INVALID SESSION) are injected on demand.
//
// See docs/testing.md, section "The fake Discord".
package fakediscord

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// DefaultTimeout is used by the Wait* helpers when they are given a zero timeout.
// It is Slowdown times longer under the race detector.
const DefaultTimeout = 20 * time.Second * Slowdown

// Option configures a Server in New.
type Option func(*config)

type config struct {
	interactionDeadline time.Duration
	wallDeadline        bool          // deadline.go
	answerPatience      time.Duration // deadline.go
	tokenLifetime       time.Duration
	heartbeatInterval   time.Duration
	allowViolations     bool
	noPixels            bool
	botName             string
	token               string
	nonceWindow         time.Duration
	// Sharding (shards.go).
	recommendedShards, maxConcurrency int
	limitIdentify                     bool
	sessionStartsLeft                 int // before any IDENTIFY; 0: the full 1000
	identifyWindow                    time.Duration
	guildsPerShard                    int
	defaultGuildShard                 [2]int // [shard, count]; count 0: any
	// Privileged intents the app may not use (gateway.go).
	disallowed discordgo.Intent
	// Rate limits (ratelimit.go).
	limits    RateLimits
	limitsSet bool
}

// WithInteractionDeadline sets how long after Discord made an interaction
// (its dispatch, unless sent Aged) it may be answered (Discord: 3 s). Use
// a short value to test late answers quickly.
func WithInteractionDeadline(d time.Duration) Option {
	return func(c *config) { c.interactionDeadline = d }
}

// WithTokenLifetime sets how long an interaction token stays valid for edits
// and follow-ups (Discord: 15 min).
func WithTokenLifetime(d time.Duration) Option {
	return func(c *config) { c.tokenLifetime = d }
}

// WithHeartbeatInterval sets the heartbeat_interval announced in HELLO
// (Discord: about 41.25 s). discordgo sends one heartbeat at once and then one
// per interval; it reconnects when no ACK came for 5 intervals.
func WithHeartbeatInterval(d time.Duration) Option {
	return func(c *config) { c.heartbeatInterval = d }
}

// AllowViolations stops the server from failing the test at cleanup when
// limit violations were recorded. Use it in tests that provoke violations on
// purpose and assert them with Violations.
func AllowViolations() Option {
	return func(c *config) { c.allowViolations = true }
}

// WithoutPixels never keeps a decoded picture: File.Image decodes it
// again each time. A test that uploads thousands of boards
// (TestMultiProcess) and looks at them would otherwise keep gigabytes of
// pixels.
func WithoutPixels() Option {
	return func(c *config) { c.noPixels = true }
}

// WithToken makes the server accept only this bot token ("Bot " prefix
// optional) on REST and in IDENTIFY; others get 401 / close code 4004.
func WithToken(token string) Option {
	return func(c *config) { c.token = strings.TrimPrefix(token, "Bot ") }
}

// WithBotName sets the bot user's username (default "Tessera").
func WithBotName(name string) Option {
	return func(c *config) { c.botName = name }
}

// Server is a running fake Discord. All methods are safe for concurrent use.
type Server struct {
	t    testing.TB
	cfg  config
	http *httptest.Server
	base string // http://127.0.0.1:port
	host string // 127.0.0.1:port
	ids  snowflakes

	// Fixed identities created by New.
	AppID     string          // application id (also the bot user id, as on Discord)
	Bot       *discordgo.User // the bot user
	GuildID   string          // a default guild
	ChannelID string          // a default text channel in GuildID
	User      *discordgo.User // a default human member of GuildID

	done     chan struct{} // closed at cleanup
	wg       sync.WaitGroup
	sessions []*sessionLink

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every state change
	arrived []Request     // every request as it arrived, before any delay or answer
	st      *state
	gw      *gateway
	faults  []*fault
	rl      *rateState
	// offset moves the fake's clock ahead of the wall clock (Advance).
	offset time.Duration
	// tokenReset: a 401 for the old token is what the test asked for.
	tokenReset bool
	// hook is the Interactions Endpoint URL and the key pair (webhook.go).
	hook *hookState
	// rec records what the bot sends when RecordDirEnv is set (record.go).
	rec *recorder
}

// New starts a fake Discord on 127.0.0.1 and stops it when the test ends.
// Unless AllowViolations is given, every recorded violation of Discord's
// limits is reported as a test error at cleanup.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	cfg := config{
		interactionDeadline: 3 * time.Second * Slowdown,
		answerPatience:      30 * time.Second * Slowdown,
		tokenLifetime:       15 * time.Minute,
		heartbeatInterval:   41250 * time.Millisecond,
		botName:             "Tessera",
		nonceWindow:         DefaultNonceWindow,
		recommendedShards:   1,
		maxConcurrency:      1,
		identifyWindow:      DefaultIdentifyWindow,
		guildsPerShard:      DefaultGuildsPerShard,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if !cfg.limitsSet {
		cfg.limits = DefaultRateLimits()
	}
	s := &Server{
		t:       t,
		cfg:     cfg,
		done:    make(chan struct{}),
		changed: make(chan struct{}),
		rec:     newRecorder(t.Name()),
	}
	s.st = newState()
	s.rl = newRateState()
	s.gw = newGateway(s)
	s.AppID = s.ids.next()
	s.Bot = &discordgo.User{ID: s.AppID, Username: cfg.botName, Discriminator: "0", Bot: true}
	s.st.users[s.Bot.ID] = s.Bot
	if gs := cfg.defaultGuildShard; gs[1] > 0 {
		s.GuildID = s.AddGuildOnShard("Tessera Test Guild", gs[0], gs[1])
	} else {
		s.GuildID = s.AddGuild("Tessera Test Guild")
	}
	s.ChannelID = s.AddChannel(s.GuildID, "general")
	s.User = s.AddUser("alice")

	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.serveREST)
	mux.HandleFunc("/gateway", s.gw.serve)
	mux.HandleFunc("/gateway/", s.gw.serve)
	mux.HandleFunc("/attachments/", s.serveAttachment)
	// The addresses are written before the server starts serving: a
	// request from another process (the crash test's child) has no
	// happens-before edge to a write after Start, and -race says so.
	s.http = httptest.NewUnstartedServer(mux)
	s.host = s.http.Listener.Addr().String()
	s.base = "http://" + s.host
	s.http.Start()

	t.Cleanup(s.close)
	return s
}

func (s *Server) close() {
	close(s.done)
	s.mu.Lock()
	links := s.sessions
	s.mu.Unlock()
	for _, l := range links {
		l.closed.Store(true)
	}
	s.gw.closeAll()
	s.http.Close()
	s.wg.Wait()
	if !s.cfg.allowViolations {
		for _, v := range s.Violations() {
			s.t.Errorf("fakediscord: Discord would have rejected: %s", v)
		}
	}
}

// URL is the base URL of the fake (http://127.0.0.1:port).
func (s *Server) URL() string { return s.base }

// GatewayURL is the websocket URL that GET /gateway answers.
func (s *Server) GatewayURL() string { return "ws://" + s.host + "/gateway" }

// notify wakes every waiter; call with s.mu held.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitUntil polls check (called with s.mu held) until it returns true, on
// every state change, or until the timeout. It reports whether check held.
func (s *Server) waitUntil(timeout time.Duration, check func() bool) bool {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ok := check()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-timer.C:
			return false
		case <-s.done:
			return false
		}
	}
}

// sessionLink ties a discordgo session to this server; closed stops its
// transport and dialer after the test so a leftover reconnect loop can never
// reach another test's server on a reused port.
type sessionLink struct {
	closed atomic.Bool
}

var errSessionClosed = errors.New("fakediscord: server for this session has been shut down")

type rewriteTransport struct {
	srv  *Server
	link *sessionLink
	base http.RoundTripper
}

func (rt *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if rt.link.closed.Load() {
		return nil, errSessionClosed
	}
	r := req.Clone(req.Context())
	r.Header.Set("X-Fakediscord-Host", req.URL.Host)
	r.URL.Scheme = "http"
	r.URL.Host = rt.srv.host
	r.Host = rt.srv.host
	return rt.base.RoundTrip(r)
}

// HTTPClient returns a new http.Client that sends every request, whatever
// its URL, to this fake. discordgo's REST calls use https://discord.com/api/v9/...
func (s *Server) HTTPClient() *http.Client {
	link := &sessionLink{}
	s.mu.Lock()
	s.sessions = append(s.sessions, link)
	s.mu.Unlock()
	return s.httpClient(link)
}

func (s *Server) httpClient(link *sessionLink) *http.Client {
	return &http.Client{
		Timeout:   20 * time.Second,
		Transport: &rewriteTransport{srv: s, link: link, base: s.http.Client().Transport},
	}
}

// dialer returns a websocket dialer that connects to this fake whatever
// address it is asked for.
func (s *Server) dialer(link *sessionLink) *websocket.Dialer {
	return &websocket.Dialer{
		HandshakeTimeout: 5 * time.Second,
		NetDialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			if link.closed.Load() {
				return nil, errSessionClosed
			}
			var d net.Dialer
			return d.DialContext(ctx, network, s.host)
		},
	}
}

// Session returns a new discordgo session wired to this fake: its own
// http.Client (every request rewritten to the fake) and its own websocket
// Dialer. The token gets a "Bot " prefix if it has none. The session is
// closed at cleanup (discordgo's Close sleeps about a second by design).
// ShouldReconnectOnError stays true, as in production; the dialer and the
// transport refuse to connect once the test is over, so a reconnect started
// by discordgo's heartbeat goroutine during Close goes nowhere.
func (s *Server) Session(token string) *discordgo.Session {
	s.t.Helper()
	if !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	dg, err := discordgo.New(token)
	if err != nil {
		s.t.Fatalf("fakediscord: discordgo.New: %v", err)
	}
	link := s.configure(dg)
	s.t.Cleanup(func() {
		link.closed.Store(true) // no reconnect from here on
		_ = dg.Close()
	})
	return dg
}

// Configure wires an existing, not yet opened session to this fake. Use it
// when the code under test creates its own session.
func (s *Server) Configure(dg *discordgo.Session) { s.configure(dg) }

func (s *Server) configure(dg *discordgo.Session) *sessionLink {
	link := &sessionLink{}
	s.mu.Lock()
	s.sessions = append(s.sessions, link)
	s.mu.Unlock()
	dg.Client = s.httpClient(link)
	dg.Dialer = s.dialer(link)
	return link
}

// snowflakes generates Discord-shaped ids: milliseconds since the Discord
// epoch in the top 42 bits, then worker, process and increment. The
// milliseconds are the fake's clock (the wall clock moved on by Advance),
// as Discord stamps its ids with its own: a bot that reads an
// interaction's age from its id reads the fake's.
type snowflakes struct {
	mu     sync.Mutex
	last   int64
	inc    int64
	offset time.Duration // the fake's clock ahead of the wall clock
	aged   int64         // the increment of ids stamped in the past (at)
}

const discordEpochMS = 1420070400000

// advance moves the ids' clock on with the fake's (Server.Advance).
func (g *snowflakes) advance(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.offset += d
}

// at is an id stamped with time t, in the past: an interaction Discord
// made before it reached the bot. Its worker is 2, so that it never
// equals an id of next.
func (g *snowflakes) at(t time.Time) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.aged = (g.aged + 1) % (1 << 12)
	return fmt.Sprint((t.UnixMilli()-discordEpochMS)<<22 | 2<<17 | 1<<12 | g.aged)
}

func (g *snowflakes) next() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	ms := time.Now().Add(g.offset).UnixMilli() - discordEpochMS
	if ms <= g.last {
		ms = g.last
	}
	if ms != g.last {
		g.inc = 0
	}
	g.last = ms
	g.inc++
	if g.inc >= 1<<12 {
		g.last++
		ms = g.last
		g.inc = 0
	}
	return fmt.Sprint(ms<<22 | 1<<17 | 1<<12 | g.inc)
}

// NewID returns a fresh snowflake id (for guilds, users, ... a test invents).
func (s *Server) NewID() string { return s.ids.next() }

// WaitArrival waits until a request matching match has arrived, even if
// its answer is still delayed by a fault (a request in flight), and
// returns it.
func (s *Server) WaitArrival(t testing.TB, match func(Request) bool, timeout time.Duration) Request {
	t.Helper()
	var found Request
	if !s.waitUntil(timeout, func() bool {
		for _, r := range s.arrived {
			if match(r) {
				found = r
				return true
			}
		}
		return false
	}) {
		t.Fatalf("fakediscord: no matching request arrived within %v", orDefault(timeout))
	}
	return found
}
