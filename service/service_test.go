package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/delivery"
	"tessera/engine"
	"tessera/engine/elemental"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

var (
	ana = service.User{ID: "1", Name: "Ana"}
	bo  = service.User{ID: "2", Name: "Bo"}
	cy  = service.User{ID: "3", Name: "Cy"}
)

type harness struct {
	t     testing.TB
	svc   *service.Service
	store *watch.Store // the service's, so that waitFor wakes on its writes
	sink  *fakeSink
	n     int
	now   time.Time
}

func newHarness(t *testing.T) *harness { return newHarnessClock(t, "") }

func newHarnessClock(t *testing.T, clock string) *harness {
	t.Helper()
	return newHarnessWith(t, func(c *service.Config) { c.Clock = clock })
}

// newHarnessWith is a harness whose service configuration tune changes.
func newHarnessWith(t testing.TB, tune func(*service.Config)) *harness {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC()}
	cfg := service.Config{Renderer: render.Renderer{},
		Seed: func() uint64 { return 7 },
		Now:  func() time.Time { return h.now },
	}
	tune(&cfg)
	h.store = watch.New(st)
	h.svc = service.New(h.store, cfg)
	return h
}

// waitFor waits until cond holds, looking again after each write to the
// store (a worker's move, say); the minute only bounds a hang.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if h.store.WaitFor(ctx, cond) != nil {
		h.t.Fatal(what)
	}
}

// deliver runs the courier and returns what it delivered.
func (h *harness) deliver() []sent {
	h.t.Helper()
	if _, err := delivery.New(h.svc, h.svc.Store()).Deliver(context.Background(), h.sink); err != nil {
		h.t.Fatal(err)
	}
	return h.sink.Take()
}

func (h *harness) req(u service.User) service.Request {
	h.n++
	return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("i", h.n)}
}

// ok fails the test on an error.
func (h *harness) ok(r service.Reply, err error) service.Reply {
	h.t.Helper()
	if err != nil {
		h.t.Fatalf("unexpected error: %v", err)
	}
	return service.RenderReply(r, testPresenter{})
}

// refused checks that the command failed with a user-safe message
// containing want, and returns the one-line reply a player sees.
func (h *harness) refused(code, want string) func(service.Reply, error) {
	return func(r service.Reply, err error) { h.check(r, err, code, want) }
}

func (h *harness) check(r service.Reply, err error, code, want string) {
	h.t.Helper()
	if err == nil {
		h.t.Fatalf("accepted, want refusal %q; reply %q", want, r.Text)
	}
	if c := tessera.ErrorCode(err); c != code {
		h.t.Fatalf("code %s, want %s (%v)", c, code, err)
	}
	fail := service.RenderReply(h.svc.Fail(err), testPresenter{})
	if !fail.Ephemeral || strings.Contains(fail.Text, "\n") || !strings.Contains(fail.Text, want) {
		h.t.Fatalf("reply %q (ephemeral %v), want one ephemeral line containing %q", fail.Text, fail.Ephemeral, want)
	}
}

// start creates and accepts a 2-player Elemental game with fixed borders.
func (h *harness) start() uint64 {
	r := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY", Clock: ""}))
	if len(r.Buttons) != 3 || r.Buttons[0].ID != "accept:1" {
		h.t.Fatalf("challenge buttons %+v", r.Buttons)
	}
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	h.deliver()
	return 1
}

func handOf(t *testing.T, h *harness, u service.User) []string {
	r := h.ok(h.svc.Hand(h.req(u), ""))
	if !r.Ephemeral || len(r.Files) != 1 {
		t.Fatalf("hand reply not private or no picture: %+v", r)
	}
	_, list, _ := strings.Cut(r.Text, ": ")
	return strings.Split(list, ", ")
}

func TestChallengeAcceptMove(t *testing.T) {
	h := newHarness(t)
	r := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY", Clock: ""}))
	if !strings.Contains(r.Text, "<@2>") || len(r.Mentions) != 1 || r.Mentions[0] != "2" {
		t.Fatalf("challenge must ping exactly Bo: %q %v", r.Text, r.Mentions)
	}
	// Ana cannot move before Bo accepts; Cy cannot accept Bo's challenge.
	h.refused(tessera.EINVALID, "has not started")(h.svc.Move(h.req(ana), "1", "d5 RGBY"))
	h.refused(tessera.EFORBIDDEN, "not for you")(h.svc.Click(h.req(cy), "accept:1"))
	r = h.ok(h.svc.Click(h.req(bo), "accept:1"))
	if !strings.Contains(r.Text, "begins in its own thread") || len(r.Mentions) != 0 {
		t.Fatalf("start reply: %q", r.Text)
	}
	h.refused(tessera.EINVALID, "no longer waiting")(h.svc.Click(h.req(bo), "accept:1"))
	// The courier makes the thread, the status message, the first post
	// (pinging Ana, with the board) and Ana's turn notice.
	log := h.deliver()
	if th := of(log, "thread"); len(th) != 1 || th[0].Channel != "c" || !strings.Contains(th[0].Msg.Text, "#1 Elemental Connection: Ana vs Bo") {
		t.Fatalf("thread: %s", texts(log))
	}
	thread := of(log, "thread")[0].ID
	posts := of(log, "post")
	if len(posts) != 2 || posts[0].Channel != thread || !strings.Contains(posts[0].Msg.Text, "game #1: Ana vs Bo") {
		t.Fatalf("status message first in the thread: %s", texts(log))
	}
	if len(posts[0].Msg.Mentions) != 0 || len(posts[0].Msg.Files) != 1 {
		t.Fatal("the status message pings nobody and shows the board")
	}
	status := posts[0].ID
	if !strings.Contains(posts[1].Msg.Text, "begins") || !strings.Contains(posts[1].Msg.Text, "<@1>, your turn") || strings.Join(posts[1].Msg.Mentions, ",") != "1" {
		t.Fatalf("start post: %s", texts(log))
	}
	if dms := of(log, "dm"); len(dms) != 1 || dms[0].User != "1" || len(dms[0].Msg.Files) != 1 || !strings.Contains(dms[0].Msg.Text, "#"+thread) {
		t.Fatalf("one turn notice to Ana with the board and a link: %s", texts(log))
	}
	if again := h.deliver(); len(again) != 0 {
		t.Fatalf("delivered twice: %s", texts(again))
	}

	// Ana's hand decides the move: play her first tile at d5 as she holds it.
	hand := handOf(t, h, ana)
	r = h.ok(h.svc.Move(h.req(ana), "", "d5 "+hand[0]))
	if !r.Ephemeral || !strings.Contains(r.Text, "You played `d5 "+hand[0]+"`") {
		t.Fatalf("move reply: %q", r.Text)
	}
	log = h.deliver()
	posts = of(log, "post")
	if len(posts) != 1 || posts[0].Channel != thread || !strings.Contains(posts[0].Msg.Text, "**Ana** played `d5 "+hand[0]+"`") {
		t.Fatalf("move post: %s", texts(log))
	}
	if len(posts[0].Msg.Files) != 1 || len(posts[0].Msg.Files[0].Data) < 1000 {
		t.Fatal("move post has no board picture")
	}
	if strings.Join(posts[0].Msg.Mentions, ",") != "2" || !strings.Contains(posts[0].Msg.Text, "<@2>, your turn") {
		t.Fatalf("after Ana's move only Bo is pinged: %v", posts[0].Msg.Mentions)
	}
	if !strings.Contains(posts[0].Msg.Text, "Scores: Ana 0 · Bo 0") {
		t.Fatalf("scores line: %q", posts[0].Msg.Text)
	}
	if ed := of(log, "edit"); len(ed) != 1 || ed[0].ID != status || !strings.Contains(ed[0].Msg.Text, "Bo to move") {
		t.Fatalf("status edited in place: %s", texts(log))
	}
	if dms := of(log, "dm"); len(dms) != 1 || dms[0].User != "2" {
		t.Fatalf("one turn notice, to Bo: %s", texts(log))
	}
}

func TestRefusals(t *testing.T) {
	h := newHarness(t)
	h.refused(tessera.EINVALID, "no game \"chess\"")(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "chess", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	h.refused(tessera.EINVALID, "cannot challenge yourself")(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{ana}, Options: "", Clock: ""}))
	h.refused(tessera.EINVALID, "borders=XX")(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=XX", Clock: ""}))
	h.refused(tessera.EINVALID, "no option \"colour\"")(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "colour=red", Clock: ""}))
	h.start()
	// Wrong turn, non-player, bad notation, not held, off the board.
	h.refused(tessera.EFORBIDDEN, "It is Ana's turn")(h.svc.Move(h.req(bo), "", "d5 RGBY"))
	h.refused(tessera.EFORBIDDEN, "not playing in game #1")(h.svc.Move(h.req(cy), "1", "d5 RGBY"))
	h.refused(tessera.EFORBIDDEN, "not playing in any game")(h.svc.Move(h.req(cy), "", "d5 RGBY"))
	h.refused(tessera.EINVALID, "like d5 RGBY")(h.svc.Move(h.req(ana), "", "hello"))
	h.refused(tessera.EINVALID, "d9 is off the board (a1-h8)")(h.svc.Move(h.req(ana), "", "d9 RGBY"))
	h.refused(tessera.EINVALID, "you hold")(h.svc.Move(h.req(ana), "", "d5 RRRR"))
	h.refused(tessera.ENOTFOUND, "no game #99")(h.svc.Move(h.req(ana), "99", "d5 RRRR"))
	h.refused(tessera.EINVALID, "Type a move")(h.svc.Move(h.req(ana), "", ""))
	// Nothing was stored by the refusals.
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if len(g.Moves) != 0 {
		t.Fatalf("%d moves stored after refusals", len(g.Moves))
	}
}

func TestAutocomplete(t *testing.T) {
	h := newHarness(t)
	h.start()
	hand := handOf(t, h, ana)
	all := h.svc.MoveChoices(h.req(ana), "", "")
	if len(all) != service.MaxChoices {
		t.Fatalf("%d choices, want 25", len(all))
	}
	// Typed "e4 " + first two letters of a tile: every choice starts so.
	typed := "e4 " + strings.ToLower(hand[0][:2])
	cs := h.svc.MoveChoices(h.req(ana), "", typed)
	if len(cs) == 0 {
		t.Fatal("no choices")
	}
	for _, c := range cs {
		if !strings.HasPrefix(strings.ToLower(c.Value), typed) || !strings.Contains(c.Name, "(") {
			t.Fatalf("choice %+v does not fit %q or has no points", c, typed)
		}
		if _, err := h.svc.Move(h.req(ana), "", c.Value); err != nil {
			t.Fatalf("suggested move %q refused: %v", c.Value, err)
		}
		break
	}
	// Bo is told it is not his turn (Ana just moved, so it is his now):
	// Ana gets the hint instead.
	hint := h.svc.MoveChoices(h.req(ana), "", "")
	if len(hint) != 1 || !strings.Contains(hint[0].Name, "Bo's turn") {
		t.Fatalf("hint %+v", hint)
	}
	games := h.svc.GameChoices(h.req(bo), "")
	if len(games) != 1 || games[0].Value != "1" || !strings.Contains(games[0].Name, "your turn") {
		t.Fatalf("game choices %+v", games)
	}
}

func TestResignAndFinishedGame(t *testing.T) {
	h := newHarness(t)
	h.start()
	r := h.ok(h.svc.Resign(h.req(bo), ""))
	if !r.Ephemeral || len(r.Buttons) != 2 || r.Buttons[0].ID != "resign:1" {
		t.Fatalf("resign must ask to confirm: %+v", r)
	}
	h.ok(h.svc.Click(h.req(bo), "cancel:1"))
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if g.Status != tessera.StatusPlaying {
		t.Fatal("cancel resigned")
	}
	h.ok(h.svc.Click(h.req(bo), "resign:1"))
	log := h.deliver()
	if p := of(log, "post"); len(p) != 1 || !strings.Contains(p[0].Msg.Text, "**Bo** resigns") || !strings.Contains(p[0].Msg.Text, "<@1> wins") {
		t.Fatalf("resign post: %s", texts(log))
	}
	if len(of(log, "dm")) != 0 {
		t.Fatal("a turn notice after the game ended")
	}
	g, _ = h.svc.Store().Game(t.Context(), 1)
	if g.Status != tessera.StatusFinished || g.Moves[len(g.Moves)-1].Text != "resign" {
		t.Fatalf("status %s", g.Status)
	}
	h.refused(tessera.EINVALID, "is over")(h.svc.Move(h.req(ana), "1", "d5 RGBY"))
	h.refused(tessera.EINVALID, "is over")(h.svc.Click(h.req(bo), "resign:1"))
	// The finished game still shows.
	h.ok(h.svc.Board(h.req(cy), "1"))
	r = h.ok(h.svc.Games(h.req(ana)))
	if !strings.Contains(r.Text, "no games") {
		t.Fatalf("games after the end: %q", r.Text)
	}
}

// TestWholeGame plays a full Elemental game through the service, always
// taking the first suggested move, and checks the end.
func TestWholeGame(t *testing.T) {
	h := newHarness(t)
	h.start()
	users := []service.User{ana, bo}
	var last sent
	for turn := 0; turn < 64; turn++ {
		u := users[turn%2]
		cs := h.svc.MoveChoices(h.req(u), "", "")
		if len(cs) == 0 {
			t.Fatalf("turn %d: no choices", turn)
		}
		h.ok(h.svc.Move(h.req(u), "", cs[0].Value))
		log := h.deliver()
		if len(of(log, "post")) != 1 {
			t.Fatalf("turn %d: %s", turn, texts(log))
		}
		last = of(log, "post")[0]
	}
	if !strings.Contains(last.Msg.Text, "Game over") {
		t.Fatalf("after 64 moves: %q", last.Msg.Text)
	}
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if g.Status != tessera.StatusFinished || len(g.Moves) != 64 {
		t.Fatalf("status %s moves %d", g.Status, len(g.Moves))
	}
	// The record replays to a finished position with the same scores.
	st, err := service.Replay(g)
	if err != nil || !st.Over() {
		t.Fatalf("replay: %v", err)
	}
	if !strings.Contains(last.Msg.Text, fmt.Sprintf("Scores: Ana %d · Bo %d", st.Scores()[0], st.Scores()[1])) {
		t.Fatalf("final scores line %q vs replay %v", last.Msg.Text, st.Scores())
	}
	// Everyone is pinged at the end: the winners.
	for _, w := range st.Winners() {
		found := false
		for _, m := range last.Msg.Mentions {
			found = found || m == users[w].ID
		}
		if !found {
			t.Fatalf("winner %s not mentioned", users[w].Name)
		}
	}
}

func TestRepeatedInteraction(t *testing.T) {
	h := newHarness(t)
	h.start()
	hand := handOf(t, h, ana)
	req := h.req(ana)
	h.ok(h.svc.Move(req, "", "d5 "+hand[0]))
	// Discord delivers the same interaction again: nothing is applied twice.
	_, err := h.svc.Move(req, "", "d5 "+hand[0])
	if err == nil {
		t.Fatal("a repeated interaction was applied")
	}
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if len(g.Moves) != 1 {
		t.Fatalf("%d moves", len(g.Moves))
	}
}

func TestRacingMoves(t *testing.T) {
	h := newHarness(t)
	h.start()
	// Ana sends two different moves at once (two devices): one wins, the
	// other is told to try again or that it is not her turn; nothing lost.
	legal := h.svc.MoveChoices(h.req(ana), "", "")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	reqs := []service.Request{h.req(ana), h.req(ana)}
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = h.svc.Move(reqs[i], "", legal[i].Value)
		}(i)
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if c := tessera.ErrorCode(err); c != tessera.ECONFLICT && c != tessera.EFORBIDDEN {
			t.Fatalf("loser got %v", err)
		}
	}
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if ok != 1 || len(g.Moves) != 1 {
		t.Fatalf("%d successes, %d moves stored; want 1 and 1", ok, len(g.Moves))
	}
}

func TestSeveralGamesInAChannel(t *testing.T) {
	h := newHarness(t)
	h.start()
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{cy}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(cy), "accept:2"))
	// Ana is to move in both: she must say which.
	h.refused(tessera.EINVALID, "several games (#1, #2)")(h.svc.Board(h.req(ana), ""))
	// Bo has one game here: no game: option needed.
	h.ok(h.svc.Board(h.req(bo), ""))
	r := h.ok(h.svc.Games(h.req(ana)))
	if !strings.Contains(r.Text, "#1 Elemental Connection vs Bo: **your turn**") || !strings.Contains(r.Text, "#2") {
		t.Fatalf("games: %q", r.Text)
	}
}

func TestRules(t *testing.T) {
	h := newHarness(t)
	for _, g := range engine.Games() {
		r := h.ok(h.svc.Rules(g.ID))
		if len(r.Text) > 2000 || len(r.Text) < 100 {
			t.Fatalf("%s rules: %d characters", g.ID, len(r.Text))
		}
	}
	if r := h.ok(h.svc.Rules("elemental")); !strings.Contains(r.Text, "d5 RGBY") {
		t.Fatal("rules lack the notation")
	}
	_ = elemental.ID
}
