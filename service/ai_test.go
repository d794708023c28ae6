package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// The bot itself, as the transport names it: challenging it is playing
// the AI.
var botUser = service.User{ID: "99", Name: "Tessera"}

// aiConfig is the harness's configuration with a short think time, so
// these tests stay fast (they check what is posted, never how well or how
// fast the AI plays).
func (h *harness) aiConfig(clock string) service.Config {
	return service.Config{Renderer: render.Renderer{},
		Seed:    func() uint64 { return 7 },
		Now:     func() time.Time { return h.now },
		Clock:   clock,
		AIThink: 50 * time.Millisecond,
	}
}

func newAIHarness(t *testing.T, clock string) *harness {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC(), store: watch.New(st)}
	h.svc = service.New(h.store, h.aiConfig(clock))
	h.svc.SetBot(botUser)
	return h
}

// game loads game id.
func (h *harness) game(id uint64) *tessera.Game {
	h.t.Helper()
	g, err := h.svc.Store().Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// position replays game id.
func (h *harness) position(id uint64) engine.State {
	h.t.Helper()
	st, err := service.Replay(h.game(id))
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// playAI makes the pending AI moves and returns how many.
func (h *harness) playAI() int {
	h.t.Helper()
	n, err := h.svc.PlayAI(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// noBotMessages fails when anything was sent to the bot's own user.
func noBotMessages(t *testing.T, log []sent) {
	t.Helper()
	if dms := dmsTo(log, botUser.ID); len(dms) > 0 {
		t.Fatalf("the AI got direct messages: %s", texts(dms))
	}
	for _, s := range log {
		if (s.Kind == "post" || s.Kind == "edit") && (strings.Contains(s.Msg.Text, "<@"+botUser.ID+">") || containsID(s.Msg.Mentions, botUser.ID)) {
			t.Fatalf("the AI is pinged: %q", s.Msg.Text)
		}
	}
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// TestAIWholeGame: challenging the bot starts the game at once, with the
// seat named by its level; every person's move is answered at once and
// leaves the AI to move (the store's index says so, the status says it
// thinks), the worker's move follows as its own post, and the game ends.
// Nobody ever pings or messages the AI, and its turn has no deadline.
func TestAIWholeGame(t *testing.T) {
	h := newAIHarness(t, "1d")
	r := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{botUser}, Options: "borders=RBGY", Clock: "", Level: "easy"}))
	if len(r.Buttons) != 0 || len(r.Mentions) != 0 || !strings.Contains(r.Text, "against **Tessera (easy)**") || !strings.Contains(r.Text, "Tessera accepts") {
		t.Fatalf("challenge of the AI: %q, buttons %v, mentions %v", r.Text, r.Buttons, r.Mentions)
	}
	g := h.game(1)
	if g.Status != tessera.StatusPlaying || g.Players[1] != (tessera.Player{ID: botUser.ID, Name: "Tessera (easy)", Accepted: true, AI: "easy"}) {
		t.Fatalf("stored game: %s %+v", g.Status, g.Players)
	}
	log := h.deliver()
	if len(of(log, "thread")) != 1 || !strings.Contains(texts(log), "begins: Ana (seat 1), Tessera (easy) (seat 2)") {
		t.Fatalf("start:\n%s", texts(log))
	}
	aiPosts := 0
	final := "" // the posts of the game
	for turn := 0; ; turn++ {
		st := h.position(1)
		if st.Over() {
			break
		}
		if turn > 200 {
			t.Fatal("the game does not end")
		}
		if st.ToMove() == 0 {
			r := h.ok(h.svc.Move(h.req(ana), "", st.Legal()[0].String()))
			if !r.Ephemeral || !strings.Contains(r.Text, "You played") {
				t.Fatalf("ana's move: %q", r.Text)
			}
			g := h.game(1)
			if st := h.position(1); !st.Over() {
				ids, _ := h.svc.Store().AITurns(t.Context())
				if !g.AITurn || len(ids) != 1 || ids[0] != 1 || !g.Deadline.IsZero() {
					t.Fatalf("after ana's move: AI turn %v, index %v, deadline %v", g.AITurn, ids, g.Deadline)
				}
				log := h.deliver()
				noBotMessages(t, log)
				final += texts(of(log, "post"))
				if !strings.Contains(texts(of(log, "post")), "**Tessera (easy)** is thinking.") || !strings.Contains(texts(of(log, "edit")), "Tessera (easy) is thinking") {
					t.Fatalf("after ana's move:\n%s", texts(log))
				}
				h.refused(tessera.EFORBIDDEN, "Tessera (easy) is thinking about its move in game #1")(h.svc.Move(h.req(ana), "1", "a1 RGBY"))
				if b := h.ok(h.svc.Board(h.req(ana), "")); !strings.Contains(b.Text, "\nTessera (easy) is thinking") {
					t.Fatalf("/board while the AI thinks: %q", b.Text)
				}
				// Time passes: the AI never runs out of it, and is never reminded.
				h.now = h.now.Add(30 * 24 * time.Hour)
				if n, err := h.svc.Tick(t.Context()); err != nil || n != 0 {
					t.Fatalf("tick while the AI is to move: %d changes, %v", n, err)
				}
			}
			continue
		}
		if n := h.playAI(); n != 1 {
			t.Fatalf("turn %d: the AI made %d moves, want 1", turn, n)
		}
		log := h.deliver()
		noBotMessages(t, log)
		final += texts(of(log, "post"))
		if !strings.Contains(texts(of(log, "post")), "**Tessera (easy)** played `") || len(of(log, "post")[0].Msg.Files) != 1 {
			t.Fatalf("the AI's move post:\n%s", texts(log))
		}
		if st := h.position(1); !st.Over() && len(dmsTo(log, ana.ID)) != 1 {
			t.Fatalf("ana's turn notice after the AI's move:\n%s", texts(log))
		}
		aiPosts++
		if n := h.playAI(); n != 0 {
			t.Fatalf("the AI moved again out of turn: %d", n)
		}
	}
	final += texts(of(h.deliver(), "post")) // when ana's move ended it
	if st := h.position(1); len(st.Winners()) == 1 && st.Winners()[0] == 1 && !strings.Contains(final, "**Game over: Tessera (easy) wins!**") ||
		len(st.Winners()) == 1 && st.Winners()[0] == 0 && !strings.Contains(final, "**Game over: <@1> wins!**") {
		t.Fatalf("winners %v; the posts:\n%s", st.Winners(), final)
	}
	g = h.game(1)
	if g.Status != tessera.StatusFinished || g.AITurn || aiPosts != 32 {
		t.Fatalf("end: %s, AI turn %v, %d AI moves", g.Status, g.AITurn, aiPosts)
	}
	if ids, _ := h.svc.Store().AITurns(t.Context()); len(ids) != 0 {
		t.Fatalf("index after the end: %v", ids)
	}
	games := h.ok(h.svc.Games(h.req(ana)))
	if !strings.Contains(games.Text, "#1 Elemental Connection vs Tessera (easy): ") {
		t.Fatalf("/games: %q", games.Text)
	}
}

// TestAIChallengeRefusals: level: without the AI, a level that does not
// exist, and the bot challenging are refused with one line.
func TestAIChallengeRefusals(t *testing.T) {
	h := newAIHarness(t, "")
	h.refused(tessera.EINVALID, "level: is for games against me")(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Options: "", Clock: "", Level: "hard"}))
	h.refused(tessera.EINVALID, "There is no level \"brutal\"")(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{botUser}, Options: "", Clock: "", Level: "brutal"}))
	h.refused(tessera.EINVALID, "Tessera is the computer")(h.svc.NewGame(h.req(botUser), service.NewGameRequest{Game: "closure", Opponents: []service.User{ana}, Options: "", Clock: "", Level: ""}))
	// Without level: the AI plays at normal.
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{botUser}, Options: "", Clock: "", Level: ""}))
	if p := h.game(1).Players[1]; p.AI != "normal" || p.Name != "Tessera (normal)" {
		t.Fatalf("default level: %+v", p)
	}
	// The bot's own user cannot play the AI's seat by hand.
	st := h.position(1)
	if st.ToMove() == 1 {
		h.refused(tessera.EFORBIDDEN, "You are not playing in game #1")(h.svc.Move(h.req(botUser), "1", st.Legal()[0].String()))
	}
}

// TestAIWithPeople: the AI's seat accepts at once among people; the game
// starts when they have accepted. Two AI seats are named apart, and each
// moves in its turn.
func TestAIWithPeople(t *testing.T) {
	h := newAIHarness(t, "")
	r := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "tilingking", Opponents: []service.User{botUser, bo}, Options: "", Clock: "", Level: "easy"}))
	if len(r.Buttons) != 3 || len(r.Mentions) != 1 || r.Mentions[0] != bo.ID || !strings.Contains(r.Text, "challenges **Tessera (easy)** and <@2>") {
		t.Fatalf("challenge: %q %v %v", r.Text, r.Buttons, r.Mentions)
	}
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	if g := h.game(1); g.Status != tessera.StatusPlaying {
		t.Fatalf("after bo accepted: %s", g.Status)
	}
	h.deliver()

	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "tilingking", Opponents: []service.User{botUser, botUser}, Options: "", Clock: "", Level: "hard"}))
	g := h.game(2)
	if g.Status != tessera.StatusPlaying || g.Players[1].Name != "Tessera 1 (hard)" || g.Players[2].Name != "Tessera 2 (hard)" {
		t.Fatalf("two AI seats: %s %+v", g.Status, g.Players)
	}
	h.deliver()
	// ana moves; both AIs answer, one after the other, and it is ana's
	// turn again.
	st := h.position(2)
	h.ok(h.svc.Move(h.req(ana), "2", st.Legal()[0].String()))
	if n := h.playAI(); n != 2 {
		t.Fatalf("the two AIs made %d moves, want 2", n)
	}
	g = h.game(2)
	if len(g.Moves) != 3 || g.Moves[1].Seat != 1 || g.Moves[2].Seat != 2 || h.position(2).ToMove() != 0 {
		t.Fatalf("record: %+v", g.Moves)
	}
	log := h.deliver()
	noBotMessages(t, log)
	for _, want := range []string{"**Tessera 1 (hard)** played", "**Tessera 2 (hard)** played", "<@1>, your turn"} {
		if !strings.Contains(texts(log), want) {
			t.Fatalf("posts lack %q:\n%s", want, texts(log))
		}
	}
}

// TestAIRestartMovesOnce: a service stopped while its AI thinks plays
// nothing; a new one on the same store makes the move, once, even when two
// run at the same time: the version check lets one commit.
func TestAIRestartMovesOnce(t *testing.T) {
	h := newAIHarness(t, "")
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "knotwork", Opponents: []service.User{botUser}, Options: "", Clock: "", Level: "easy"}))
	h.deliver()
	h.ok(h.svc.Move(h.req(ana), "", h.position(1).Legal()[0].String()))

	// A first bot: its AI starts thinking; the bot stops.
	cfg := h.aiConfig("")
	thinking := make(chan struct{})
	cfg.AIHook = func(ctx context.Context, id uint64, moves int) {
		close(thinking)
		<-ctx.Done()
	}
	first := service.New(h.svc.Store(), cfg)
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { first.RunAI(ctx); close(ran) }()
	<-thinking
	stop()
	<-ran
	if g := h.game(1); len(g.Moves) != 1 || !g.AITurn {
		t.Fatalf("after the stop mid-thought: %d moves, AI turn %v", len(g.Moves), g.AITurn)
	}

	// Two new ones on the same store, at once: one move is stored.
	var wg sync.WaitGroup
	made := make([]int, 2)
	for i := range made {
		svc := service.New(h.svc.Store(), h.aiConfig(""))
		wg.Add(1)
		go func() {
			defer wg.Done()
			made[i], _ = svc.PlayAI(context.Background())
		}()
	}
	wg.Wait()
	g := h.game(1)
	if made[0]+made[1] != 1 || len(g.Moves) != 2 || g.Moves[1].Seat != 1 || g.AITurn {
		t.Fatalf("moves made %v; record %+v, AI turn %v", made, g.Moves, g.AITurn)
	}
	posts := 0
	for _, s := range of(h.deliver(), "post") {
		if strings.Contains(s.Msg.Text, "**Tessera (easy)** played") {
			posts++
		}
	}
	if posts != 1 {
		t.Fatalf("the AI's move was posted %d times", posts)
	}
}

// TestAIRunWorker: the background worker (what the bot runs) answers a
// move by itself, woken by the commit.
func TestAIRunWorker(t *testing.T) {
	h := newAIHarness(t, "")
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { h.svc.RunAI(ctx); close(ran) }()
	defer func() { stop(); <-ran }()
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "glorieta", Opponents: []service.User{botUser}, Options: "", Clock: "", Level: "easy"}))
	h.ok(h.svc.Move(h.req(ana), "", "g7"))
	h.waitFor("the worker did not move", func() bool { return len(h.game(1).Moves) >= 2 })
	if g := h.game(1); g.Moves[1].Seat != 1 || g.AITurn {
		t.Fatalf("record %+v, AI turn %v", g.Moves, g.AITurn)
	}
}

// TestAIRoundRobin: with one search at a time, a game where two AI seats
// play on alone (their person resigned) does not keep another game's AI
// waiting: the worker takes the games in turn.
func TestAIRoundRobin(t *testing.T) {
	h := newAIHarness(t, "")
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "tilingking", Opponents: []service.User{botUser, botUser}, Options: "", Clock: "", Level: "easy"}))
	h.ok(h.svc.Click(h.req(ana), "resign:1"))
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "knotwork", Opponents: []service.User{botUser}, Options: "", Clock: "", Level: "easy"}))
	h.ok(h.svc.Move(h.req(ana), "2", h.position(2).Legal()[0].String()))
	if g := h.game(1); g.Status != tessera.StatusPlaying || !g.AITurn {
		t.Fatalf("game 1 after ana resigned: %s, AI turn %v", g.Status, g.AITurn)
	}

	cfg := h.aiConfig("") // one search at a time: the default ai.workers
	var mu sync.Mutex
	var order []uint64
	type asked struct {
		id    uint64
		moves int
	}
	var searches []asked
	overlap := ""
	cfg.AIHook = func(_ context.Context, id uint64, moves int) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, id)
		// Every earlier search has ended (its move is stored) before this
		// one starts.
		for _, a := range searches {
			if g, err := h.svc.Store().Game(t.Context(), a.id); err == nil && len(g.Moves) <= a.moves && g.Status == tessera.StatusPlaying {
				overlap = fmt.Sprintf("game %d searched while game %d's search after %d moves was under way", id, a.id, a.moves)
			}
		}
		searches = append(searches, asked{id, moves})
	}
	worker := service.New(h.svc.Store(), cfg)
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { worker.RunAI(ctx); close(ran) }()
	h.waitFor("game 2's AI never moved", func() bool { return len(h.game(2).Moves) >= 2 })
	stop()
	<-ran
	mu.Lock()
	defer mu.Unlock()
	if overlap != "" {
		t.Fatal(overlap)
	}
	if len(order) < 2 || order[0] != 1 || order[1] != 2 {
		t.Fatalf("games searched in the order %v; want 1 then 2", order)
	}
}

// TestAIRecordCompatible: a record written before AI seats existed reads
// as people only, and a person's seat is written as before (no new key),
// so old games replay and are stored unchanged.
func TestAIRecordCompatible(t *testing.T) {
	old := `{"id":3,"version":4,"status":"playing","players":[{"id":"1","name":"Ana","accepted":true},{"id":"2","name":"Bo","accepted":true}]}`
	var g tessera.Game
	if err := json.Unmarshal([]byte(old), &g); err != nil {
		t.Fatal(err)
	}
	if g.AITurn || g.Players[0].IsAI() || g.Players[1].IsAI() || g.Seat("2") != 1 {
		t.Fatalf("old record: %+v", g)
	}
	b, err := json.Marshal(g.Players)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"id":"1","name":"Ana","accepted":true},{"id":"2","name":"Bo","accepted":true}]`; string(b) != want {
		t.Fatalf("people written as %s, want %s", b, want)
	}
	if strings.Contains(string(mustJSON(t, g)), "ai_turn") {
		t.Fatal("a game without AI writes ai_turn")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAITurnThoughtOnce: a process sharing the database that holds an AI
// turn's lease keeps this one from thinking about it (no move, no error);
// once the lease is released, or has expired, this one moves.
func TestAITurnThoughtOnce(t *testing.T) {
	h := newAIHarness(t, "")
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "knotwork", Opponents: []service.User{botUser}, Options: "", Clock: "", Level: "easy"}))
	st := h.position(1)
	h.ok(h.svc.Move(h.req(ana), "", st.Legal()[0].String()))
	store := h.svc.Store()
	if ok, err := store.ClaimAITurn(t.Context(), 1, "another process", time.Now(), time.Hour); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if n, err := h.svc.PlayAI(context.Background()); n != 0 || err != nil {
		t.Fatalf("moved %d times (%v) while another process held the turn", n, err)
	}
	if moves := len(h.game(1).Moves); moves != 1 {
		t.Fatalf("%d moves", moves)
	}
	if err := store.ReleaseAITurn(t.Context(), 1, "another process"); err != nil {
		t.Fatal(err)
	}
	if n, err := h.svc.PlayAI(context.Background()); n != 1 || err != nil {
		t.Fatalf("after the release: moved %d times (%v)", n, err)
	}
	// The turn's lease went with the move: another process may claim the
	// next AI turn of the game at once.
	h.ok(h.svc.Move(h.req(ana), "", h.position(1).Legal()[0].String()))
	if ok, _ := store.ClaimAITurn(t.Context(), 1, "another process", time.Now(), time.Minute); !ok {
		t.Fatal("the moving process kept the turn's lease")
	}
	// That process is killed: once its lease expires, this one moves.
	if ok, _ := store.ClaimAITurn(t.Context(), 1, "another process", time.Now().Add(-service.MaxAIThink-2*time.Minute), time.Minute); !ok {
		t.Fatal("cannot back-date the lease")
	}
	if n, err := h.svc.PlayAI(context.Background()); n != 1 || err != nil {
		t.Fatalf("after the lease expired: moved %d times (%v)", n, err)
	}
}
