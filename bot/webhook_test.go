package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// Interactions over HTTP: the fake Discord POSTs every interaction, signed,
// to the bot's endpoint instead of the gateway, and the bot runs with no
// gateway connection at all.

// replica is one bot process serving interactions over HTTP: its own
// service and session on a shared store.
type replica struct {
	bot *bot.Bot
	svc *service.Service
	h   http.Handler
}

// newService is the service of the tests here.
func newService(st storage.Store, logger *slog.Logger, now func() time.Time, tune ...func(*service.Config)) *service.Service {
	cfg := service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 },
		Logger: logger, RetryBase: 20 * time.Millisecond, Now: now}
	for _, f := range tune {
		f(&cfg)
	}
	return service.New(st, cfg)
}

// openReplica starts a bot without a gateway on svc, answering what the
// fake delivers (its handler, to put behind an endpoint).
func openReplica(t *testing.T, srv *fakediscord.Server, svc *service.Service, opt bot.Options, logger *slog.Logger) *replica {
	t.Helper()
	opt.Token = "test-token"
	opt.NoGateway = true
	opt.Configure = srv.Configure
	opt.Logger = logger
	opt.RateLimit = fakeLimit(srv)
	b, err := bot.New(svc, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience) // bounds a hang only
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	startLoops(t, b, svc, logger, runner.Config{})
	key, err := bot.ParsePublicKey(srv.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	return &replica{bot: b, svc: svc, h: b.Interactions(key)}
}

// endpoint serves h on loopback and sets it as the application's
// Interactions Endpoint URL (the fake validates it first).
func endpoint(t *testing.T, srv *fakediscord.Server, h http.Handler) {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close) // before the bots' Close, which waits for their handling
	if err := srv.SetInteractionsEndpoint(hs.URL); err != nil {
		t.Fatal(err)
	}
}

// startHTTP is a world whose bot gets its interactions over HTTP.
func startHTTP(t *testing.T, opt bot.Options, fopts ...fakediscord.Option) *world {
	t.Helper()
	w, logger := newWorld(t, opt, fopts...)
	r := openReplica(t, w.srv, w.svc, opt, logger)
	endpoint(t, w.srv, r.h)
	w.bot, w.bo = r.bot, w.srv.AddUser("bo")
	return w
}

// inline counts the first answers given in HTTP responses and on the
// callback endpoint.
func inline(srv *fakediscord.Server) (inHTTP, byCallback int) {
	for _, r := range srv.RequestsTo("POST /interactions/*/*/callback") {
		if r.Inline && r.Status == http.StatusOK {
			inHTTP++
		} else if !r.Inline {
			byCallback++
		}
	}
	return inHTTP, byCallback
}

// TestHTTPWholeGame plays a whole game of Elemental Connection with every
// command, autocomplete and button delivered over HTTP, and the bot
// without a gateway: the posts, turn notices and the status message are
// delivered by the courier as ever.
func TestHTTPWholeGame(t *testing.T) {
	t.Parallel()
	w := startHTTP(t, bot.Options{})
	if n := len(w.srv.Identifies()); n != 0 {
		t.Fatalf("the bot identified on the gateway %d times", n)
	}
	if len(w.srv.Commands("")) == 0 {
		t.Fatal("no commands registered without a gateway")
	}
	w.newGame(t) // /new (answered inline, then @original read over REST), Accept
	// /hand answers with a picture: deferred (privately) in the HTTP
	// response, the picture edited in over REST (an upload may take longer
	// than Discord's 3 s).
	r := w.respond(t, w.srv.Slash("hand").By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || len(files(r)) != 1 || files(r)[0].Format != "png" {
		t.Fatalf("/hand: ephemeral %v, %d files", ephemeral(r), len(files(r)))
	}
	w.srv.WaitArrival(t, func(q fakediscord.Request) bool {
		return q.Inline && q.Status == http.StatusOK && strings.HasPrefix(q.Path, "/interactions/"+r.ID+"/") &&
			q.JSON()["type"] == float64(discordgo.InteractionResponseDeferredChannelMessageWithSource)
	}, patience)
	players := []*discordgo.User{w.ana, w.bo}
	for turn := 0; turn < 64; turn++ {
		u := players[turn%2]
		choices := w.suggest(t, u, "")
		if len(choices) == 0 {
			t.Fatalf("turn %d: no choices", turn)
		}
		post := w.play(t, u, choices[0].Value.(string))
		if len(post.Files) != 1 {
			t.Fatalf("turn %d: the move's post has no board", turn)
		}
	}
	g, _ := w.store.Game(t.Context(), 1)
	if g.Status != tessera.StatusFinished || len(g.Moves) != 64 {
		t.Fatalf("status %s after %d moves", g.Status, len(g.Moves))
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return m.EditedTimestamp != nil && strings.Contains(m.Content, "Game over")
	}, 0)
	w.settle(t)
	if a, b := len(w.srv.DMs(w.ana.ID)), len(w.srv.DMs(w.bo.ID)); a != 32 || b != 32 {
		t.Fatalf("turn notices: alice %d, bo %d; want 32 each", a, b)
	}
	inHTTP, byCallback := inline(w.srv)
	// 64 autocompletes, 64 moves, /new, Accept and /hand (deferred)
	// answered in the HTTP response; none on the callback endpoint.
	if inHTTP < 131 || byCallback != 0 {
		t.Fatalf("%d first answers in HTTP responses, %d on the callback endpoint", inHTTP, byCallback)
	}
	if n := len(w.srv.Identifies()); n != 0 {
		t.Fatalf("the bot identified on the gateway %d times", n)
	}
}

// TestHTTPDeferred: a slow command is deferred in the HTTP response (type
// 5, private for a private command), then edited in over REST on the
// token, as on the gateway; a public one defers publicly.
func TestHTTPDeferred(t *testing.T) {
	t.Parallel()
	w := startHTTP(t, bot.Options{DeferAfter: time.Nanosecond})
	w.newGame(t)
	move := w.suggest(t, w.ana, "")[0].Value.(string)
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana))
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !ephemeral(r) || !strings.Contains(text(r), "You played") {
		t.Fatalf("deferred move: type %d ephemeral %v %q", r.Type, ephemeral(r), text(r))
	}
	b := w.respond(t, w.srv.Slash("board").By(w.bo).In(w.srv.GuildID, w.thread))
	if b.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || ephemeral(b) || len(files(b)) != 1 {
		t.Fatalf("deferred /board: type %d ephemeral %v, %d files", b.Type, ephemeral(b), len(files(b)))
	}
	for _, q := range w.srv.RequestsTo("POST /interactions/" + r.ID + "/*/callback") {
		if !q.Inline {
			t.Fatalf("the deferral went to the callback endpoint: %v", q)
		}
	}
}

// TestHTTPEndpointValidation: Discord refuses an endpoint that answers
// PING but takes a bad signature, and one that does not answer PING; it
// removes one that fails a later routine check.
func TestHTTPEndpointValidation(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	pong := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"type":1}`)
	})
	trusting := httptest.NewServer(pong)
	defer trusting.Close()
	if err := srv.SetInteractionsEndpoint(trusting.URL); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("an endpoint that takes bad signatures was accepted: %v", err)
	}
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	defer mute.Close()
	if err := srv.SetInteractionsEndpoint(mute.URL); err == nil || !strings.Contains(err.Error(), "PING") {
		t.Fatalf("an endpoint that does not answer PING was accepted: %v", err)
	}

	// The bot's endpoint passes, and passes the routine check; after its
	// key changed (a wrong public_key in the configuration) it fails it
	// and the URL is removed.
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logger := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	rp := openReplica(t, srv, newService(st, logger, nil), bot.Options{}, logger)
	var h atomic.Value
	h.Store(rp.h)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.Load().(http.Handler).ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	if err := srv.SetInteractionsEndpoint(hs.URL); err != nil {
		t.Fatal(err)
	}
	if err := srv.CheckEndpoint(); err != nil {
		t.Fatal(err)
	}
	wrong, _ := bot.ParsePublicKey(strings.Repeat("ab", 32))
	h.Store(rp.bot.Interactions(wrong))
	if err := srv.CheckEndpoint(); err == nil {
		t.Fatal("an endpoint with the wrong key passed the check")
	}
}

// roundRobin is a load balancer in front of replicas.
type roundRobin struct {
	next     atomic.Uint64
	replicas []http.Handler
	served   []atomic.Int64
}

func (lb *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(lb.next.Add(1)-1) % len(lb.replicas)
	lb.served[i].Add(1)
	lb.replicas[i].ServeHTTP(w, r)
}

// TestHTTPReplicas: two replicas (two bots, each with its own session
// and endpoint handler, on one store) behind a load balancer answer
// interleaved commands from two players in two games at once: every
// interaction is answered exactly once (a second answer is a violation in
// the fake), every move is applied once, and each move's post appears
// once. The replicas share one service: two services on one store would
// run two couriers over one outbox, which races until the courier claims
// its games (Store.Claim, issue 16's courier part); that is not the
// endpoint's to prove.
func TestHTTPReplicas(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	st := tempStore(t)
	logs := &logBuffer{t: t}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	svc := newService(st, logger, nil)
	a := openReplica(t, srv, svc, bot.Options{}, logger)
	b := openReplica(t, srv, svc, bot.Options{}, logger)
	lb := &roundRobin{replicas: []http.Handler{a.h, b.h}, served: make([]atomic.Int64, 2)}
	endpoint(t, srv, lb)
	w := &world{srv: srv, store: st, ana: srv.User, bo: srv.AddUser("bo"), logs: logs}
	w.newGame(t)
	first := w.thread

	// A second game, between cy and dee, played at the same time.
	cy, dee := srv.AddUser("cy"), srv.AddUser("dee")
	w2 := &world{srv: srv, store: st, ana: cy, bo: dee, logs: logs}
	r := w2.respond(t, srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", dee.ID)).By(cy))
	if !strings.Contains(text(r), "game #2") {
		t.Fatalf("second challenge: %q", text(r))
	}
	w2.respond(t, srv.Button("accept:2").By(dee))
	w2.thread = w.threadOf(t, 2)

	// Each round: both players to move send their autocomplete, a /games
	// and their move at once (and a stranger presses Accept of a started
	// game); the two replicas take turns.
	type game struct {
		w       *world
		players []*discordgo.User
	}
	games := []game{{w, []*discordgo.User{w.ana, w.bo}}, {w2, []*discordgo.User{cy, dee}}}
	const turns = 12
	for turn := 0; turn < turns; turn++ {
		var sent []*fakediscord.Sent
		moves := make([]string, len(games))
		for gi, g := range games {
			u := g.players[turn%2]
			cs := g.w.suggest(t, u, "")
			moves[gi] = cs[0].Value.(string)
		}
		for gi, g := range games {
			u := g.players[turn%2]
			sent = append(sent,
				srv.Slash("move", fakediscord.Str("notation", moves[gi])).By(u).In(srv.GuildID, g.w.thread).Send(t),
				srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(g.players[(turn+1)%2]).In(srv.GuildID, g.w.thread).Send(t),
				srv.Slash("games").By(g.players[(turn+1)%2]).Send(t))
		}
		for _, s := range sent {
			s.Response(t)
		}
		for gi, g := range games {
			g.w.srv.WaitMessage(t, g.w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+moves[gi]+"`") }, 0)
		}
	}
	w.settle(t)
	for id := uint64(1); id <= 2; id++ {
		g, err := st.Game(t.Context(), id)
		if err != nil || len(g.Moves) != turns {
			t.Fatalf("game %d: %d moves, want %d (%v)", id, len(g.Moves), turns, err)
		}
	}
	for _, th := range []string{first, w2.thread} {
		posts := map[string]int{}
		for _, m := range srv.Messages(th) {
			if i := strings.Index(m.Content, "** played `"); i >= 0 {
				posts[m.Content]++
			}
		}
		for c, n := range posts {
			if n != 1 {
				t.Fatalf("posted %d times: %q", n, c)
			}
		}
		if len(posts) != turns {
			t.Fatalf("%d move posts in %s, want %d", len(posts), th, turns)
		}
	}
	if lb.served[0].Load() < 20 || lb.served[1].Load() < 20 {
		t.Fatalf("the replicas served %d and %d interactions", lb.served[0].Load(), lb.served[1].Load())
	}
}

// TestHTTPRedeliveredMoveAppliesOnce: the same signed /move reaching both
// replicas again (a proxy that retries, or a replay within the
// timestamp's window) is applied once. The replica that took it refuses
// the id (401: it remembers the ids it took); the other one, which never
// saw it, answers from the store that the move was made.
func TestHTTPRedeliveredMoveAppliesOnce(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	st := tempStore(t)
	logger := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	svc := newService(st, logger, nil)
	a := openReplica(t, srv, svc, bot.Options{}, logger)
	b := openReplica(t, srv, svc, bot.Options{}, logger)
	lb := &roundRobin{replicas: []http.Handler{a.h, b.h}, served: make([]atomic.Int64, 2)}
	endpoint(t, srv, lb)
	w := &world{srv: srv, store: st, ana: srv.User, bo: srv.AddUser("bo"), logs: &logBuffer{t: t}}
	w.newGame(t)
	move := w.suggest(t, w.ana, "")[0].Value.(string)
	sent := srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana).In(srv.GuildID, w.thread).Send(t)
	if r := sent.Response(t); !strings.Contains(r.Data.Content, "You played") {
		t.Fatalf("the move: %q", r.Data.Content)
	}
	// Both replicas get it again, at once.
	var wg sync.WaitGroup
	answers := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body, err := srv.Redeliver(sent.ID)
			answers[i] = fmt.Sprintf("%d %s %v", status, body, err)
		}()
	}
	wg.Wait()
	// One is refused as a replay; the other is answered as a move out of
	// turn would be (the move was made): privately, changing nothing.
	sort.Strings(answers)
	if !strings.HasPrefix(answers[0], "200 ") || !strings.Contains(answers[0], "It is bo's turn") || !strings.Contains(answers[0], `"flags":64`) ||
		!strings.HasPrefix(answers[1], "401 ") {
		t.Fatalf("the repeated move was answered %q, want one 401 and one 200 saying whose turn it is", answers)
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+move+"`") }, 0)
	w.settle(t)
	if g, _ := st.Game(t.Context(), 1); len(g.Moves) != 1 {
		t.Fatalf("%d moves applied", len(g.Moves))
	}
}

// TestHTTPReplayedAutocompleteIsRefused: an autocomplete of /move, signed
// by Discord and recorded by someone who sees the traffic, sent again
// within the timestamp's 5 minutes. The store keeps no record of an
// autocomplete, so the bot answered it again, and the answer is the
// mover's legal moves (before: 200 with the choices). It is refused with
// 401 and nothing in the answer.
func TestHTTPReplayedAutocompleteIsRefused(t *testing.T) {
	t.Parallel()
	w := startHTTP(t, bot.Options{})
	w.newGame(t)
	sent := w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(w.ana).In(w.srv.GuildID, w.thread).Send(t)
	choices := sent.Response(t).Data.Choices
	if len(choices) == 0 {
		t.Fatal("the autocomplete offered no moves")
	}
	status, body, err := w.srv.Redeliver(sent.ID)
	if err != nil || status != http.StatusUnauthorized || strings.Contains(body, choices[0].Name) {
		t.Fatalf("the replayed autocomplete: %d %q %v, want 401 without the moves", status, body, err)
	}
}

// TestHTTPRun: Run with InteractionsListen serves the endpoint once the
// bot is open (no gateway), answers through it, and stops serving when
// its context ends.
func TestHTTPRun(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &logBuffer{t: t}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	key, err := bot.ParsePublicKey(srv.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the bot
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	b, err := bot.New(newService(st, logger, nil), bot.Options{Token: "test-token", Configure: srv.Configure, Logger: logger,
		NoGateway: true, InteractionsListen: addr, InteractionsKey: key})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- b.Run(ctx) }()
	// Run logs this once its listener is open and served: the PING that
	// sets the endpoint is answered from then on.
	logs.waitLine(t, "serving interactions over HTTP")
	if err := srv.SetInteractionsEndpoint("http://" + addr); err != nil {
		t.Fatal(err)
	}
	r := srv.Slash("rules", fakediscord.Str("game", "closure")).Send(t).Response(t)
	if r.Data == nil || !strings.Contains(r.Data.Content, "Closure") {
		t.Fatalf("/rules: %+v", r.Data)
	}
	cancel()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	if err := srv.CheckEndpoint(); err == nil {
		t.Fatal("the endpoint still answers after Run returned")
	}
	if len(srv.Identifies()) != 0 {
		t.Fatal("the bot identified on the gateway")
	}
	if _, err := bot.New(newService(st, logger, nil), bot.Options{Token: "x", NoGateway: true, PlainText: true}); err == nil {
		t.Fatal("plain-text moves without the gateway were accepted")
	}
	if _, err := bot.New(newService(st, logger, nil), bot.Options{Token: "x", InteractionsListen: ":0"}); err == nil {
		t.Fatal("an endpoint without a public key was accepted")
	}
}

// TestHTTPWithPlainText: with the endpoint and plain-text moves, one
// process keeps its gateway for messages only: commands come over HTTP
// (none over the gateway), a move typed in the thread over the gateway,
// and both are played.
func TestHTTPWithPlainText(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{PlainText: true})
	key, err := bot.ParsePublicKey(w.srv.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	endpoint(t, w.srv, w.bot.Interactions(key))
	if id := w.srv.Identifies()[0]; id.Intents&discordgo.IntentMessageContent == 0 {
		t.Fatal("plain-text moves need the message-content intent")
	}
	w.newGame(t)
	move := w.suggest(t, w.ana, "")[0].Value.(string)
	typed := w.srv.UserMessage(w.ana, w.thread, move)
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+move+"`") }, 0)
	w.srv.WaitFor(t, func(r fakediscord.Request) bool {
		return r.Method == "PUT" && strings.Contains(r.Path, "/messages/"+typed.ID+"/reactions/")
	}, 0)
	w.play(t, w.bo, w.suggest(t, w.bo, "")[0].Value.(string))
	if g, _ := w.store.Game(t.Context(), 1); len(g.Moves) != 2 {
		t.Fatalf("%d moves, want 2", len(g.Moves))
	}
	for _, q := range w.srv.RequestsTo("POST /interactions/*/*/callback") {
		if !q.Inline {
			t.Fatalf("a first answer went to the callback endpoint: %v", q)
		}
	}
}
