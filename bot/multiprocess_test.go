package bot_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
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
	"tessera/storage/postgres"
	"tessera/storage/postgres/pgtest"
)

// The multi-process test: three bot processes (this test binary re-run as
// TestMultiChild) share one PostgreSQL database and the eight shards of
// one fake Discord. Players play 100 short games by slash commands; in the
// middle one process is killed with SIGKILL and started again on its
// shards, as a supervisor would. At the end every move the players made
// is in the database once, and every announcement reached the fake once.

// TestMain runs eight parallel tests at a time: they spend most of their
// time waiting on the fake Discord, timers and child processes, and two at
// a time (GOMAXPROCS on a 2-core machine) kept the cores half idle: 82 s
// for the package against 34 s (docs/testing.md).
func TestMain(m *testing.M) {
	fakediscord.DefaultParallel(8)
	os.Exit(pgtest.Main(m))
}

// Environment of a child process.
const (
	multiEnv       = "TESSERA_MULTI_CHILD"  // the fake Discord's URL
	multiDBEnv     = "TESSERA_MULTI_DB"     // the PostgreSQL URL
	multiShardsEnv = "TESSERA_MULTI_SHARDS" // IDS/COUNT, as TESSERA_SHARDS
	multiSlowEnv   = "TESSERA_MULTI_SLOW"   // set: the process's requests are slow (see slowRewrite)
)

// slowRewrite is the transport of the process that will be killed. It
// holds each answer to a move back for a second after the move was stored
// (saying HOLD on stdout), and returns a second late from each move's post
// that reached Discord, before the courier records it (saying POSTED).
// The parent kills the process on a POSTED within half a second of a
// HOLD, so the kill finds both a move stored whose answer is lost and a
// post on Discord not recorded as delivered. Both happen by chance
// without it, but rarely.
type slowRewrite struct{ rewrite }

func (r slowRewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == "POST" && strings.HasSuffix(req.URL.Path, "/callback") && bodyHas(req, "You played `") {
		os.Stdout.WriteString("HOLD\n")
		time.Sleep(time.Second)
	}
	res, err := r.rewrite.RoundTrip(req)
	// (A direct message is not signalled: a turn notice no longer true
	// after the kill is rightly not sent again.)
	if req.Method == "POST" && strings.HasSuffix(req.URL.Path, "/messages") && err == nil && res.StatusCode == http.StatusOK && bodyHas(req, "** played `") {
		os.Stdout.WriteString("POSTED\n")
		time.Sleep(time.Second)
	}
	return res, err
}

// bodyHas reports whether a request's body contains s.
func bodyHas(req *http.Request, s string) bool {
	if req.GetBody == nil {
		return false
	}
	body, err := req.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	b, err := io.ReadAll(body)
	return err == nil && strings.Contains(string(b), s)
}

// multiLease is the courier's lease in the children: short, so that the
// games the killed process had claimed are taken over within seconds
// instead of the default minute.
const multiLease = 3 * time.Second

// multiRate is each of the three processes' part of the fake's global
// limit (they share the token, and so the limit).
func multiRate() bot.RateLimit {
	l := fakediscord.DefaultRateLimits()
	return bot.RateLimit{Global: l.Global / 3, Window: l.GlobalWindow}
}

// TestMultiChild is one bot process of TestMultiProcess; it does nothing
// in a normal test run.
func TestMultiChild(t *testing.T) {
	api := os.Getenv(multiEnv)
	if api == "" {
		t.Skip("a bot process of TestMultiProcess")
	}
	base, err := url.Parse(api)
	if err != nil {
		t.Fatal(err)
	}
	shards, err := bot.ParseShardsEnv(os.Getenv(multiShardsEnv))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := postgres.Open(ctx, os.Getenv(multiDBEnv), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Logger: logger,
		RetryBase: 50 * time.Millisecond, Courier: service.CourierConfig{Workers: 2, Lease: multiLease}})
	b, err := bot.New(svc, bot.Options{Token: "multi-test", Logger: logger, Shards: shards,
		IdentifyWait: 100 * time.Millisecond,
		RateLimit:    multiRate(),
		Configure: func(s *discordgo.Session) {
			var tr http.RoundTripper = rewrite{base}
			if os.Getenv(multiSlowEnv) != "" {
				tr = slowRewrite{rewrite{base}}
			}
			s.Client = &http.Client{Transport: tr}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	startLoops(t, b, svc, logger, runner.Config{RetryEvery: 100 * time.Millisecond, TickEvery: time.Hour})
	os.Stdout.WriteString("READY\n")
	time.Sleep(10 * time.Minute) // until the parent kills us
}

// multiProc is a running child process and the file its log goes to.
type multiProc struct {
	cmd    *exec.Cmd
	shards string
	log    string
	posted chan struct{} // a post reached Discord and is not yet recorded (slow process only)
	held   atomic.Int64  // when (unix ns) an answer to a move was last held back
}

// startMulti starts a bot process on the shards (IDS/COUNT) and waits
// until all its shards are connected.
func startMulti(t *testing.T, srv *fakediscord.Server, db, shards, log string, slow bool) *multiProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestMultiChild$")
	cmd.Env = append(os.Environ(), multiEnv+"="+srv.URL(), multiDBEnv+"="+db, multiShardsEnv+"="+shards)
	if slow {
		cmd.Env = append(cmd.Env, multiSlowEnv+"=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd.Stderr = f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	p := &multiProc{cmd: cmd, shards: shards, log: log, posted: make(chan struct{})}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			switch sc.Text() {
			case "READY":
				ready <- true
			case "HOLD":
				p.held.Store(time.Now().UnixNano())
			case "POSTED":
				select {
				case p.posted <- struct{}{}:
				default: // nobody is waiting to kill
				}
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			b, _ := os.ReadFile(log)
			t.Fatalf("the bot process on shards %s ended before it was ready:\n%s", shards, b)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the bot process on shards %s did not start", shards)
	}
	return p
}

// goT is a testing.TB for the players' goroutines: Fatal ends only the
// goroutine (FailNow must not be called from other goroutines) after
// recording the error.
type goT struct {
	testing.TB
}

func (g goT) Fatal(args ...any) { g.TB.Error(args...); runtime.Goexit() }
func (g goT) Fatalf(format string, args ...any) {
	g.TB.Errorf(format, args...)
	runtime.Goexit()
}
func (g goT) FailNow() { g.TB.Fail(); runtime.Goexit() }

// multiGame is what the players know of one game: what they played.
type multiGame struct {
	id     uint64
	kind   string
	guild  string
	played []string // every move applied, in order, as the players saw it
	resent int      // moves sent again after their answer was lost
}

// table is the shared state of the players.
type table struct {
	srv      *fakediscord.Server
	st       storage.Store // the test's own handle on the database
	guilds   []string
	channels map[string]string // guild -> its games channel
	acked    atomic.Int64      // moves acknowledged ("You played")
	lost     atomic.Int64      // interactions whose answer never came
	refused  atomic.Int64      // re-sent moves refused as stale
	kept     atomic.Int64      // moves applied whose answer was lost, not sent again (see play)
}

// answerWait is how long a player waits for an answer before taking it
// as lost (the process that had it was killed).
const answerWait = 15 * time.Second

// ask sends an interaction and returns the text of its final answer, or
// ok false when none came within answerWait.
func (tb *table) ask(t testing.TB, ib *fakediscord.InteractionBuilder) (text string, ok bool) {
	t.Helper()
	sent := ib.Send(t)
	deadline := time.Now().Add(answerWait)
	for time.Now().Before(deadline) {
		r, _ := tb.srv.InteractionResponse(sent.ID)
		if r.Acknowledged {
			if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
				if r.Data != nil {
					return r.Data.Content, true
				}
				return "", true
			}
			if m := final(r); m != nil && m.Flags&discordgo.MessageFlagsLoading == 0 && m.Content != "Answered privately." && m.Content != "Done; see the channel." {
				return m.Content, true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.lost.Add(1)
	return "", false
}

var gameNumber = regexp.MustCompile(`\(game #(\d+)\)`)

// create has a challenge b to kind in the guild and b accept; it returns
// the game's id. A lost answer is resolved by looking in the database.
func (tb *table) create(t testing.TB, kind, guild string, a, b *discordgo.User, known map[uint64]bool) uint64 {
	t.Helper()
	channel := tb.channels[guild]
	var id uint64
	for id == 0 {
		text, ok := tb.ask(t, tb.srv.Slash("new", fakediscord.Str("game", kind), fakediscord.UserOpt("opponent", b.ID)).By(a).In(guild, channel))
		if ok {
			m := gameNumber.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("/new %s: %q", kind, text)
			}
			id, _ = strconv.ParseUint(m[1], 10, 64)
			break
		}
		// Lost: the challenge may have been stored before the process died.
		games, err := tb.st.ByPlayer(t.Context(), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if !known[g.ID] {
				id = g.ID
			}
		}
	}
	known[id] = true
	for {
		text, ok := tb.ask(t, tb.srv.Button(fmt.Sprintf("accept:%d", id)).By(b).In(guild, channel))
		if ok && !strings.Contains(text, "begins") && !strings.Contains(text, "already accepted") {
			t.Fatalf("accept game #%d: %q", id, text)
		}
		g, err := tb.st.Game(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == tessera.StatusPlaying {
			return id
		}
		if ok {
			t.Fatalf("game #%d accepted (%q) but stored as %s", id, text, g.Status)
		}
	}
}

// play makes up to budget random legal moves in game g, each by the
// player to move, and records what was applied.
func (tb *table) play(t testing.TB, g *multiGame, users map[string]*discordgo.User, rng *rand.Rand, budget int) {
	t.Helper()
	channel := tb.channels[g.guild]
	for len(g.played) < budget {
		rec, err := tb.st.Game(t.Context(), g.id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(entries(rec), g.played) {
			t.Fatalf("game #%d: stored moves %q, the players played %q", g.id, entries(rec), g.played)
		}
		st, err := service.Replay(rec)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over() {
			return
		}
		seat := int(st.ToMove())
		u := users[rec.Players[seat].ID]
		legal := st.Legal()
		move := legal[rng.IntN(len(legal))].String()
		send := func() (string, bool) {
			return tb.ask(t, tb.srv.Slash("move", fakediscord.Str("notation", move), fakediscord.Str("game", strconv.FormatUint(g.id, 10))).By(u).In(g.guild, channel))
		}
		text, ok := send()
		if ok {
			if !strings.Contains(text, "You played `"+move+"`") {
				t.Fatalf("game #%d: %s plays %q: %q", g.id, u.Username, move, text)
			}
			g.played = append(g.played, move)
			tb.acked.Add(1)
			continue
		}
		// The answer was lost: the move may or may not have been applied.
		// Sent again, it must be applied now or refused as stale, never
		// applied twice. (When the engine passed for the other player and
		// it is this seat's turn again, the same move could be legal
		// again: then it is not sent again, and the record decides.)
		rec, err = tb.st.Game(t.Context(), g.id)
		if err != nil {
			t.Fatal(err)
		}
		applied := len(rec.Moves) == len(g.played)+1 && rec.Moves[len(g.played)].Text == move && rec.Moves[len(g.played)].Seat == seat
		if applied {
			if again, err := service.Replay(rec); err == nil && int(again.ToMove()) == seat {
				g.played = append(g.played, move)
				tb.kept.Add(1)
				continue
			}
		}
		g.resent++
		for {
			text, ok = send()
			if ok {
				break
			}
		}
		if strings.Contains(text, "You played `"+move+"`") {
			if applied {
				t.Fatalf("game #%d: %q was applied, and applied again when sent again", g.id, move)
			}
			tb.acked.Add(1)
		} else {
			rec, err = tb.st.Game(t.Context(), g.id)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Moves) <= len(g.played) || rec.Moves[len(g.played)].Text != move {
				t.Fatalf("game #%d: %q sent again was refused (%q) but the first was not applied: %q", g.id, move, text, entries(rec))
			}
			tb.refused.Add(1)
		}
		g.played = append(g.played, move)
	}
}

// entries are a game record's moves in notation.
func entries(g *tessera.Game) []string {
	out := []string{}
	for _, m := range g.Moves {
		out = append(out, m.Text)
	}
	return out
}

// markerLine finds the marker a bot message carries in small print.
var markerLine = regexp.MustCompile(`(?m)^-# (game \d+ · .+)$`)

var nonceField = regexp.MustCompile(`"nonce":"([^"]+)"`)

// TestMultiProcess: see the comment at the top of the file.
func TestMultiProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three bot processes and PostgreSQL (a minute or more)")
	}
	if fakediscord.Slowdown > 1 {
		// Three race-instrumented processes on two cores delivered about
		// 1,000 announcements too few in 8 minutes: the test measures
		// recovery at a real pace. Each process's code is raced by the
		// package's one-process tests (the crash test's child included).
		t.Skip("under the race detector: three instrumented processes cannot keep the pace the test needs")
	}
	// In parallel with the package's other tests: it spends most of its
	// time waiting on its processes, and alone it kept the package's
	// parallel tests waiting for 31 s of a 106 s run.
	t.Parallel()
	const (
		shardCount = 8
		budget     = 4  // moves per game, at most
		players    = 24 // games played at once
	)
	// 100 games: the kill lands among 24 games in play at once as with
	// 300, and three fifths of the games are played after it; 300 took
	// 101 s against 42 s for 100 (a loaded 2-core machine; docs/scaling.md).
	games := 100
	if n, err := strconv.Atoi(os.Getenv("TESSERA_MULTI_GAMES")); err == nil && n > 0 {
		games = n // a quicker run while working on the test, or a longer soak
	}
	kinds := []string{"knotwork", "glorieta", "elemental", "closure", "tilingking"}
	db := pgtest.Database(t)
	began := time.Now()

	srv := fakediscord.New(t, fakediscord.WithGatewayBot(shardCount, shardCount), fakediscord.WithIdentifyWindow(50*time.Millisecond),
		fakediscord.AllowViolations(), fakediscord.WithoutPixels())
	tb := &table{srv: srv, channels: map[string]string{}}
	for shard := range shardCount {
		for i := range 2 {
			g := srv.AddGuildOnShard(fmt.Sprintf("guild %d.%d", shard, i), shard, shardCount)
			tb.guilds = append(tb.guilds, g)
			tb.channels[g] = srv.AddChannel(g, "games")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := postgres.Open(ctx, db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tb.st = st

	dir := t.TempDir()
	split := []string{"0-2/8", "3-5/8", "6-7/8"}
	procs := make([]*multiProc, len(split))
	for i, sh := range split {
		procs[i] = startMulti(t, srv, db, sh, filepath.Join(dir, fmt.Sprintf("bot%d.log", i)), i == 1)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range procs {
				b, _ := os.ReadFile(p.log)
				t.Logf("log of the process on shards %s:\n%s", p.shards, b)
			}
		}
	})
	t.Logf("three processes on one database: ready after %v", time.Since(began).Round(time.Millisecond))

	// Each player pair plays its games one after another, in guilds on
	// every shard.
	users := map[string]*discordgo.User{}
	pairs := make([][2]*discordgo.User, players)
	for i := range pairs {
		pairs[i] = [2]*discordgo.User{srv.AddUser(fmt.Sprintf("p%da", i)), srv.AddUser(fmt.Sprintf("p%db", i))}
		users[pairs[i][0].ID], users[pairs[i][1].ID] = pairs[i][0], pairs[i][1]
	}
	next := make(chan int, games)
	for i := range games {
		next <- i
	}
	close(next)
	played := make([]*multiGame, games)
	var wg sync.WaitGroup
	for p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gt := goT{t}
			rng := rand.New(rand.NewPCG(uint64(p), 16))
			known := map[uint64]bool{}
			for i := range next {
				a, b := pairs[p][0], pairs[p][1]
				if i%2 == 1 {
					a, b = b, a
				}
				g := &multiGame{kind: kinds[i%len(kinds)], guild: tb.guilds[i%len(tb.guilds)]}
				g.id = tb.create(gt, g.kind, g.guild, a, b, known)
				tb.play(gt, g, users, rng, budget)
				played[i] = g
			}
		}()
	}

	// In the middle, the process on shards 3-5 dies and is started again.
	killAt := int64(games * budget * 2 / 5)
	deadline := time.Now().Add(5 * time.Minute)
	for tb.acked.Load() < killAt && time.Now().Before(deadline) && !t.Failed() {
		time.Sleep(10 * time.Millisecond)
	}
	// The kill lands just after one of its move posts reached Discord and
	// while an answer to a move is held back (see slowRewrite).
	aimed := false
	for wait := time.After(60 * time.Second); !aimed; {
		select {
		case <-procs[1].posted:
			aimed = time.Since(time.Unix(0, procs[1].held.Load())) < 500*time.Millisecond
			continue
		case <-wait:
			t.Log("the process to be killed had no post and held answer together for 60 s; killed anyway")
		}
		break
	}
	if err := procs[1].cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	procs[1].cmd.Wait()
	killed := time.Now()
	t.Logf("SIGKILL to the process on shards %s after %d moves (%v)", procs[1].shards, tb.acked.Load(), killed.Sub(began).Round(time.Millisecond))
	procs[1] = startMulti(t, srv, db, procs[1].shards, procs[1].log, false)
	t.Logf("started again after %v", time.Since(killed).Round(time.Millisecond))
	wg.Wait()
	if t.Failed() {
		return
	}
	resent := 0
	for _, g := range played {
		resent += g.resent
	}
	t.Logf("%d games played (%d moves acknowledged, %d answers lost, %d moves sent again: %d refused as stale; %d found applied and not sent again) after %v",
		games, tb.acked.Load(), tb.lost.Load(), resent, tb.refused.Load(), tb.kept.Load(), time.Since(began).Round(time.Millisecond))

	// Every announcement is delivered: the outbox empties.
	for n := -1; n != 0; {
		if n, err = st.Outbox(t.Context()); err != nil {
			t.Fatal(err)
		}
		if time.Since(began) > 8*time.Minute {
			t.Fatalf("%d announcements still undelivered", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("outbox empty after %v", time.Since(began).Round(time.Millisecond))

	// Every move applied once: the records are what the players played.
	moves := 0
	for _, g := range played {
		rec, err := st.Game(t.Context(), g.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := entries(rec); !slices.Equal(got, g.played) {
			t.Errorf("game #%d (%s): stored %q, played %q", g.id, g.kind, got, g.played)
		}
		moves += len(g.played)
	}

	// Every announcement delivered once: no marker twice anywhere, each
	// move posted once in its game's place, one status message a game.
	seen := map[string]int{}
	count := func(msgs []*fakediscord.Message) {
		for _, m := range msgs {
			if m.Author == nil || m.Author.ID != srv.Bot.ID {
				continue
			}
			for _, mk := range markerLine.FindAllStringSubmatch(m.Content, -1) {
				seen[mk[1]]++
			}
		}
	}
	for _, g := range tb.guilds {
		count(srv.Messages(tb.channels[g]))
	}
	for _, u := range users {
		count(srv.DMs(u.ID))
	}
	posts := 0
	for _, g := range played {
		rec, _ := st.Game(t.Context(), g.id)
		if rec.ThreadID == "" {
			t.Errorf("game #%d has no thread", g.id)
			continue
		}
		msgs := srv.Messages(rec.ThreadID)
		count(msgs)
		n := 0
		for _, m := range msgs {
			if m.Author != nil && m.Author.ID == srv.Bot.ID && strings.Contains(m.Content, "** played `") {
				n++
			}
		}
		if n != len(g.played) {
			t.Errorf("game #%d: %d move posts for %d moves", g.id, n, len(g.played))
		}
		// The status message loses its marker when it is first edited.
		var status []string
		for _, m := range msgs {
			if m.Author != nil && m.Author.ID == srv.Bot.ID && strings.Contains(m.Content, fmt.Sprintf(", game #%d: ", g.id)) {
				status = append(status, m.ID)
			}
		}
		if len(status) != 1 || status[0] != rec.StatusID {
			t.Errorf("game #%d: status messages %v, want one, %s", g.id, status, rec.StatusID)
		}
		posts += len(g.played)
	}
	dups := 0
	for mk, n := range seen {
		if n > 1 {
			dups++
			t.Errorf("%q delivered %d times", mk, n)
		}
	}
	// Nothing was given up on: a dropped announcement would be missing.
	for _, p := range procs {
		b, _ := os.ReadFile(p.log)
		if n := strings.Count(string(b), "announcement dropped"); n > 0 {
			t.Errorf("the process on shards %s dropped %d announcements", p.shards, n)
		}
	}
	// Discord's nonces absorbed the posts sent again after the kill.
	nonces := map[string]int{}
	for _, r := range srv.RequestsTo("POST /channels/*/messages") {
		// The body is JSON, or a form with the JSON in payload_json.
		if m := nonceField.FindSubmatch(r.Body); m != nil {
			nonces[string(m[1])]++
		}
	}
	again := 0
	for _, n := range nonces {
		again += n - 1
	}
	if aimed && again == 0 {
		t.Error("the post that reached Discord just before the kill was not sent again: the test did not test what it should")
	}
	if aimed && tb.refused.Load()+tb.kept.Load() == 0 {
		t.Error("no move whose answer was lost in the kill was found applied: the test did not test what it should")
	}
	late, threads, cut := len(srv.LateAnswers()), 0, 0
	for _, v := range srv.Violations() {
		switch {
		case v.Rule == "INTERACTION_DEADLINE":
			// Answered too late under load: the player took it as lost
			// and the records decided, as above.
			late++
		case v.Code == 50109 && strings.Contains(v.Detail, "unexpected EOF"):
			// A request whose body the SIGKILL cut: Discord reads the
			// same truncated body; the courier of the process started
			// again sends the announcement whole.
			cut++
		case v.Code == 160004:
			// A thread made again from its challenge message after the
			// kill: the bot adopts the thread Discord names (bot/sink.go).
			threads++
		default:
			t.Errorf("violation: %v", v)
		}
	}
	t.Logf("%d moves stored once each; %d marked messages (of %d posts with a nonce), each delivered once; %d posts sent again and absorbed by their nonce; %d threads made again and adopted; %d requests cut by the kill; %d interactions answered after Discord's 3 s; %v in all",
		moves, len(seen), len(nonces), again, threads, cut, late, time.Since(began).Round(time.Millisecond))
}
