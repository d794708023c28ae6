package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// These tests play against the AI through the fake Discord: the game is
// started by challenging the bot itself with /new, the person moves with
// /move in the game's thread, and the AI's moves arrive as their own
// posts. The AI thinks for a few milliseconds (ai.think 50ms, level easy):
// the tests check what is posted and stored, never how well or how fast
// the AI plays, and wait on the store and the fake's state, not on time.

// openAIBot connects a bot for st to srv, with a short think time and an
// optional hook called as the AI starts thinking. The returned stop closes
// it (also at cleanup).
func openAIBot(t *testing.T, srv *fakediscord.Server, st storage.Store, hook func(ctx context.Context, id uint64, moves int)) (*bot.Bot, func()) {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 },
		Logger: logger, RetryBase: 20 * time.Millisecond, AIThink: 50 * time.Millisecond, AIHook: hook})
	b, err := bot.New(svc, bot.Options{Token: "test-token", Configure: srv.Configure, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience) // bounds a hang only
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	stopLoops := startLoops(t, b, svc, logger, runner.Config{})
	var once sync.Once
	stop := func() {
		once.Do(func() {
			stopLoops()
			b.Session().ShouldReconnectOnError = false
			b.Close()
		})
	}
	t.Cleanup(stop)
	return b, stop
}

// startAI is a world whose bot plays the AI.
func startAI(t *testing.T, hook func(ctx context.Context, id uint64, moves int)) (*world, func()) {
	t.Helper()
	srv := fakediscord.New(t)
	st := tempStore(t) // closed after the bot's cleanup (cleanups run last first)
	b, stop := openAIBot(t, srv, st, hook)
	return &world{srv: srv, bot: b, store: st, ana: srv.User, bo: srv.AddUser("bo")}, stop
}

// challengeAI starts game id against the bot (named as many times as
// aiNames has names, at level easy) with /new, and checks the answer: the
// game begins at once, nobody is pinged, and its thread is named with the
// AI seats' names.
func (w *world) challengeAI(t *testing.T, id, name, options string, aiNames []string) {
	t.Helper()
	opts := []fakediscord.Opt{fakediscord.Str("game", id), fakediscord.UserOpt("opponent", w.srv.Bot.ID), fakediscord.Str("level", "easy")}
	for i := 1; i < len(aiNames); i++ {
		opts = append(opts, fakediscord.UserOpt(fmt.Sprintf("opponent%d", i+1), w.srv.Bot.ID))
	}
	if options != "" {
		opts = append(opts, fakediscord.Str("options", options))
	}
	r := w.respond(t, w.srv.Slash("new", opts...).By(w.ana))
	var bold []string
	for _, n := range aiNames {
		bold = append(bold, "**"+n+"**")
	}
	against := strings.Join(bold, " and ")
	if ephemeral(r) || len(buttons(r)) != 0 || !strings.Contains(text(r), "plays **"+name+"** against "+against+" (game #1)") ||
		!strings.Contains(text(r), "Tessera accepts: the game begins in its own thread") {
		t.Fatalf("challenge of the AI: %q (ephemeral %v, buttons %v)", text(r), ephemeral(r), buttons(r))
	}
	if am := w.answerMentions(t, r); am != nil && len(am.Users) != 0 {
		t.Fatalf("the challenge of the AI pings %v", am.Users)
	}
	w.thread = w.threadOf(t, 1)
	want := "#1 " + name + ": " + strings.Join(append([]string{"alice"}, aiNames...), " vs ")
	if ch := w.srv.Channel(w.thread); ch == nil || ch.Name != want {
		t.Fatalf("thread: %+v, want %q", ch, want)
	}
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**"+name+"**, game #1, begins:")
	}, patience)
	boardPNG(t, "start post", post)
}

// waitMoves waits until game 1's record has at least n entries (or the
// game ended), woken by each write to the store.
func (w *world) waitMoves(t *testing.T, n int) *tessera.Game {
	t.Helper()
	var g *tessera.Game
	if !w.waitStore(t, func() bool {
		got, err := w.store.Game(t.Context(), 1)
		if err != nil {
			return false
		}
		g = got
		return len(g.Moves) >= n || g.Status != tessera.StatusPlaying
	}) {
		t.Fatalf("game 1 does not reach %d record entries", n)
	}
	return g
}

// playToEnd plays alice (seat 0) with random legal moves through /move
// until the game ends, the AI seats answering by themselves, and checks
// the thread: every move is posted once with its board, alice's moves say
// which AI is thinking and ping nobody, and the bot never gets a direct
// message. It returns the finished game.
func (w *world) playToEnd(t *testing.T, seed uint64) *tessera.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	const maxEntries = 400
	for {
		g := w.waitMoves(t, 0)
		st := w.position(t)
		if st.Over() {
			break
		}
		if len(g.Moves) > maxEntries {
			t.Fatalf("the game is not over after %d moves", len(g.Moves))
		}
		if st.ToMove() != 0 {
			w.waitMoves(t, len(g.Moves)+1) // the AI answers by itself
			continue
		}
		legal := st.Legal()
		move := legal[rng.IntN(len(legal))].String()
		r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana).In(w.srv.GuildID, w.thread))
		if !ephemeral(r) || !strings.Contains(text(r), "You played `"+move+"`") {
			t.Fatalf("alice plays %q: %q", move, text(r))
		}
		w.waitMoves(t, len(g.Moves)+1)
	}
	w.settle(t)
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != tessera.StatusFinished || g.AITurn {
		t.Fatalf("end: %s, AI turn %v", g.Status, g.AITurn)
	}
	// Every record entry has its post, once, with its board.
	posts := map[string]int{}
	var last *fakediscord.Message
	for _, m := range w.srv.Messages(w.thread) {
		if strings.Contains(m.Content, "** played `") {
			posts[strings.SplitN(m.Content, "\n", 2)[0]]++
			boardPNG(t, "move post", m)
			last = m
		}
	}
	total := 0
	for i, e := range g.Moves {
		line := fmt.Sprintf("**%s** played `%s`", g.Players[e.Seat].Name, e.Text)
		found := 0
		for head, n := range posts {
			if strings.HasPrefix(head, line) {
				found += n
			}
		}
		if found < 1 {
			t.Fatalf("entry %d (%s) has no post", i+1, line)
		}
	}
	for _, n := range posts {
		total += n
	}
	if total != len(g.Moves) {
		t.Fatalf("%d move posts for %d record entries", total, len(g.Moves))
	}
	if last == nil || !strings.Contains(last.Content, "**Game over") {
		t.Fatalf("the last post does not end the game: %+v", last)
	}
	// A post that leaves the AI to move says it thinks and pings nobody;
	// no post ever pings the bot.
	for _, m := range w.srv.Messages(w.thread) {
		if !strings.Contains(m.Content, "** played `") {
			continue
		}
		p := w.pinged(t, m)
		if strings.Contains(m.Content, " is thinking.") && len(p) != 0 || slices.Contains(p, w.srv.Bot.ID) {
			t.Fatalf("%q pings %v", m.Content, p)
		}
	}
	if n := len(w.srv.DMs(w.srv.Bot.ID)); n != 0 {
		t.Fatalf("the bot sent itself %d direct messages", n)
	}
	st := w.status(t)
	if st.EditedTimestamp == nil || !strings.Contains(st.Content, fmt.Sprintf("Moves so far: %d.", len(g.Moves))) || strings.Contains(st.Content, "thinking") {
		t.Fatalf("the status message does not show the end: %q", st.Content)
	}
	return g
}

// firstPost is the thread's first message starting with head.
func firstPost(w *world, head string) *fakediscord.Message {
	for _, m := range w.srv.Messages(w.thread) {
		if strings.HasPrefix(m.Content, head) {
			return m
		}
	}
	return nil
}

// TestAIWholeGames: a whole game of each of the five games against the
// AI, started by /new with the bot as opponent.
func TestAIWholeGames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, name, options string }{
		{"elemental", "Elemental Connection", "borders=RBGY"},
		{"closure", "Closure", ""},
		{"glorieta", "Glorieta", ""},
		{"knotwork", "Knotwork", ""},
		{"tilingking", "TilingKing", ""},
	} {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			w, _ := startAI(t, nil)
			w.challengeAI(t, c.id, c.name, c.options, []string{"Tessera (easy)"})
			g := w.playToEnd(t, 1)
			ai := 0
			for _, e := range g.Moves {
				if e.Seat == 1 {
					ai++
				}
			}
			if ai == 0 {
				t.Fatal("the AI never moved")
			}
			gs := w.respond(t, w.srv.Slash("games").By(w.ana))
			if !strings.Contains(text(gs), "#1 "+c.name+" vs Tessera (easy): ") {
				t.Fatalf("/games: %q", text(gs))
			}
		})
	}
}

// TestAITwoSeats: a 3-player TilingKing with the bot named twice: two AI
// seats, named apart, each moving in its turn, to the end.
func TestAITwoSeats(t *testing.T) {
	t.Parallel()
	w, _ := startAI(t, nil)
	w.challengeAI(t, "tilingking", "TilingKing", "", []string{"Tessera 1 (easy)", "Tessera 2 (easy)"})
	g := w.playToEnd(t, 2)
	seats := map[int]int{}
	for _, e := range g.Moves {
		seats[e.Seat]++
	}
	if len(g.Players) != 3 || seats[1] == 0 || seats[2] == 0 || !g.Players[1].IsAI() || !g.Players[2].IsAI() {
		t.Fatalf("players %+v, moves by seat %v", g.Players, seats)
	}
}

// TestAIRestartWhileThinking: the bot stops while the AI thinks; nothing
// is played. A new bot on the same database makes the AI's move, once,
// and the game goes on.
func TestAIRestartWhileThinking(t *testing.T) {
	t.Parallel()
	thinking := make(chan struct{}, 8)
	w, stop := startAI(t, func(ctx context.Context, id uint64, moves int) {
		thinking <- struct{}{}
		<-ctx.Done() // thinks until the bot stops
	})
	w.challengeAI(t, "knotwork", "Knotwork", "", []string{"Tessera (easy)"})
	move := w.position(t).Legal()[0].String()
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana).In(w.srv.GuildID, w.thread))
	if !strings.Contains(text(r), "You played `"+move+"`") {
		t.Fatalf("alice's move: %q", text(r))
	}
	// The person's move is answered and posted while the AI thinks.
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**alice** played `"+move+"`")
	}, patience)
	if !strings.Contains(post.Content, "**Tessera (easy)** is thinking.") {
		t.Fatalf("alice's move post: %q", post.Content)
	}
	select {
	case <-thinking:
	case <-time.After(patience):
		t.Fatal("the AI did not start thinking")
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return m.EditedTimestamp != nil && strings.Contains(m.Content, "Tessera (easy) is thinking")
	}, patience)
	stop()
	g, _ := w.store.Game(t.Context(), 1)
	if len(g.Moves) != 1 || !g.AITurn {
		t.Fatalf("after the stop: %d moves, AI turn %v", len(g.Moves), g.AITurn)
	}

	// A new bot on the same database: the pending move is made, once.
	w.bot, _ = openAIBot(t, w.srv, w.store, nil)
	g = w.waitMoves(t, 2)
	w.settle(t)
	aiPost := fmt.Sprintf("**Tessera (easy)** played `%s`", g.Moves[1].Text)
	count := func() int {
		n := 0
		for _, m := range w.srv.Messages(w.thread) {
			if strings.HasPrefix(m.Content, "**Tessera (easy)** played `") {
				n++
				if !strings.HasPrefix(m.Content, aiPost) {
					t.Fatalf("an AI post for another move: %q", m.Content)
				}
			}
		}
		return n
	}
	if n := count(); n != 1 || g.Moves[1].Seat != 1 {
		t.Fatalf("the AI's move was posted %d times; record %+v", n, g.Moves)
	}
	// The game goes on: alice's turn, pinged, and her move is answered.
	if st := w.position(t); !st.Over() {
		if st.ToMove() != 0 {
			t.Fatalf("seat %d to move after the AI's move", st.ToMove())
		}
		m := firstPost(w, aiPost)
		if p := w.pinged(t, m); !slices.Equal(p, []string{w.ana.ID}) {
			t.Fatalf("the AI's post must ping alice: %v", p)
		}
		w.srv.WaitDMs(t, w.ana.ID, 1, patience)
		w.playToEnd(t, 3)
	}
}

// aiStallEnv makes the crash test's bot process think forever: its AI
// prints THINKING and never returns, until the process is killed.
const aiStallEnv = "TESSERA_CRASH_AI_STALL"

func stallAI(ctx context.Context, id uint64, moves int) {
	fmt.Printf("THINKING %d %d\n", id, moves)
	<-ctx.Done()
	select {} // no shutdown comes: the parent kills the process
}

// TestAICrashWhileThinking kills the bot process (SIGKILL) while its AI
// thinks about its move; the restarted process makes that move, once.
func TestAICrashWhileThinking(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	srv := fakediscord.New(t)
	db := filepath.Join(t.TempDir(), "crash.db")
	ana := srv.User
	proc := startChild(t, srv, db, childOptions{stall: aiStallEnv})
	answer := func(ib *fakediscord.InteractionBuilder) fakediscord.InteractionResponse {
		return ib.Send(t).Wait(t, func(r fakediscord.InteractionResponse) bool { return r.Acknowledged && r.Data != nil })
	}
	r := answer(srv.Slash("new", fakediscord.Str("game", "knotwork"), fakediscord.UserOpt("opponent", srv.Bot.ID), fakediscord.Str("level", "easy")).By(ana))
	if !strings.Contains(r.Data.Content, "against **Tessera (easy)**") {
		t.Fatalf("challenge: %q", r.Data.Content)
	}
	start := srv.WaitFor(t, func(r fakediscord.Request) bool {
		return r.Method == "POST" && strings.Contains(string(r.Body), "your turn")
	}, patience)
	thread := strings.Split(start.Path, "/")[2]
	// The first turn's direct message is sent only while it is still
	// ana's turn (a notice for a turn already played is dropped), so ana
	// reads it before she moves, as the count of two below expects.
	srv.WaitDMs(t, ana.ID, 1, patience)
	ac := answer(srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(ana).In(srv.GuildID, thread))
	move := ac.Data.Choices[0].Value.(string)
	r = answer(srv.Slash("move", fakediscord.Str("notation", move)).By(ana).In(srv.GuildID, thread))
	if !strings.Contains(r.Data.Content, "You played") {
		t.Fatalf("move: %q", r.Data.Content)
	}
	if l := proc.waitLine(t, "THINKING"); l != "THINKING 1 1" {
		t.Fatalf("the AI thinks about %q, want game 1 after 1 move", l)
	}
	proc.kill9(t)
	st, err := boltdb.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := st.Game(t.Context(), 1)
	pending, _ := st.AITurns(t.Context())
	st.Close()
	if len(g.Moves) != 1 || !g.AITurn || !slices.Equal(pending, []uint64{1}) {
		t.Fatalf("after the crash: %d moves, AI turn %v, pending %v", len(g.Moves), g.AITurn, pending)
	}

	// The restarted bot makes the move and ana is told it is her turn.
	proc = startChild(t, srv, db, childOptions{})
	post := srv.WaitMessage(t, thread, func(m *fakediscord.Message) bool {
		return strings.HasPrefix(m.Content, "**Tessera (easy)** played `")
	}, patience)
	srv.WaitDMs(t, ana.ID, 2, patience) // the first turn's and this one's
	srv.WaitMessage(t, thread, func(m *fakediscord.Message) bool {
		return m.EditedTimestamp != nil && strings.Contains(m.Content, "Moves so far: 2")
	}, patience)
	proc.Process.Kill()
	proc.Wait()
	st, err = boltdb.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// (Announcements delivered just before the kill may still be in the
	// outbox: the courier forgets them in batches, and a resend is a no-op.)
	g, _ = st.Game(t.Context(), 1)
	if len(g.Moves) != 2 || g.Moves[1].Seat != 1 || g.AITurn || !strings.HasPrefix(post.Content, "**Tessera (easy)** played `"+g.Moves[1].Text+"`") {
		t.Fatalf("after the restart: record %+v, AI turn %v, post %q", g.Moves, g.AITurn, post.Content)
	}
	posts := 0
	for _, m := range srv.Messages(thread) {
		if strings.HasPrefix(m.Content, "**Tessera (easy)** played `") {
			posts++
		}
	}
	if posts != 1 {
		t.Fatalf("the AI's move was posted %d times", posts)
	}
}
