package service_test

import (
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/service"
)

// startThree starts a 3-player game of id with a 1-day clock.
func startThree(t *testing.T, h *harness, id, options string) {
	t.Helper()
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: id, Opponents: []service.User{bo, cy}, Options: options, Clock: "1d"}))
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	h.ok(h.svc.Click(h.req(cy), "accept:1"))
	h.deliver()
}

func TestTimeoutThreePlayersWithoutPass(t *testing.T) {
	// Elemental has no pass: Ana, out of time, leaves as if resigned, and
	// Bo is to move.
	h := newHarness(t)
	startThree(t, h, "elemental", "")
	h.now = h.now.Add(25 * time.Hour)
	if n, err := h.svc.Tick(t.Context()); err != nil || n == 0 {
		t.Fatalf("tick: %d %v", n, err)
	}
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if g.Status != tessera.StatusPlaying || g.Moves[0].Text != "timeout" || g.Moves[0].Seat != 0 {
		t.Fatalf("status %s, record %+v", g.Status, g.Moves)
	}
	st, _ := service.Replay(g)
	if st.ToMove() != 1 || !st.View(0).Seats[0].Resigned {
		t.Fatalf("to move %d; Ana resigned %v", st.ToMove(), st.View(0).Seats[0].Resigned)
	}
	log := h.deliver()
	if p := of(log, "post"); len(p) != 1 || !strings.Contains(p[0].Msg.Text, "**Ana** ran out of time") || !strings.Contains(p[0].Msg.Text, "<@2>, your turn") {
		t.Fatalf("post: %s", texts(log))
	}
	// Bo's deadline is a day from now; the tick before it does nothing.
	h.now = h.now.Add(23 * time.Hour)
	if n, _ := h.svc.Tick(t.Context()); n != 0 {
		t.Fatalf("tick changed %d games before the deadline", n)
	}
}

func TestTimeoutThreePlayersWithPass(t *testing.T) {
	// TilingKing has a pass: Ana's turn is passed and she stays in.
	h := newHarness(t)
	startThree(t, h, "tilingking", "")
	h.now = h.now.Add(25 * time.Hour)
	h.svc.Tick(t.Context())
	g, _ := h.svc.Store().Game(t.Context(), 1)
	st, _ := service.Replay(g)
	if len(g.Moves) != 1 || st.ToMove() != 1 || st.View(0).Seats[0].Resigned {
		t.Fatalf("moves %+v, to move %d", g.Moves, st.ToMove())
	}
}

func TestTimeoutTwoPlayersLoses(t *testing.T) {
	h := newHarnessClock(t, "2d")
	h.start()
	h.now = h.now.Add(47 * time.Hour)
	h.svc.Tick(t.Context())
	if g, _ := h.svc.Store().Game(t.Context(), 1); g.Status != tessera.StatusPlaying {
		t.Fatal("timed out before the deadline")
	}
	h.now = h.now.Add(2 * time.Hour)
	h.svc.Tick(t.Context())
	g, _ := h.svc.Store().Game(t.Context(), 1)
	st, _ := service.Replay(g)
	if g.Status != tessera.StatusFinished || len(st.Winners()) != 1 || st.Winners()[0] != 1 {
		t.Fatalf("status %s winners %v", g.Status, st.Winners())
	}
	if g.Deadline != (time.Time{}) {
		t.Fatal("a finished game keeps a deadline")
	}
}

// TestNoNoticeAfterMoving: a turn notice still waiting for delivery when
// its player moves is never sent.
func TestNoNoticeAfterMoving(t *testing.T) {
	h := newHarness(t)
	h.start()
	for _, u := range []service.User{ana, bo} {
		cs := h.svc.MoveChoices(h.req(u), "", "")
		h.ok(h.svc.Move(h.req(u), "", cs[0].Value)) // no delivery in between
	}
	log := h.deliver()
	if len(of(log, "post")) != 2 {
		t.Fatalf("posts: %s", texts(log))
	}
	if dms := of(log, "dm"); len(dms) != 1 || dms[0].User != "1" {
		t.Fatalf("only Ana, to move now, gets a notice; Bo already moved: %s", texts(log))
	}
}
