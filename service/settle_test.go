package service_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/delivery"
	"tessera/service"
)

// TestSettledChallengeLosesItsButtons: once a challenge is settled (the
// game began, or it was declined, withdrawn or expired), its message is
// rewritten once to say so, in the challenge's channel, with no buttons
// left to click.
func TestSettledChallengeLosesItsButtons(t *testing.T) {
	for _, c := range []struct {
		name   string
		settle func(h *harness)
		want   string
	}{
		{"accepted", func(h *harness) {
			h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Options: "", Clock: ""}))
			h.svc.ChallengeMessage(t.Context(), 1, "c", "challenge-msg")
			h.ok(h.svc.Click(h.req(bo), "accept:1"))
		}, "**Closure**, game #1, between Ana and Bo: accepted; the game is played in its own thread."},
		{"declined", func(h *harness) {
			h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{bo, cy}, Options: "", Clock: ""}))
			h.svc.ChallengeMessage(t.Context(), 1, "c", "challenge-msg")
			h.ok(h.svc.Click(h.req(bo), "accept:1"))
			h.ok(h.svc.Click(h.req(cy), "decline:1"))
		}, "**Closure**, game #1: Cy declined the challenge."},
		{"withdrawn", func(h *harness) {
			h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "knotwork", Opponents: []service.User{bo}, Options: "", Clock: ""}))
			h.svc.ChallengeMessage(t.Context(), 1, "c", "challenge-msg")
			h.ok(h.svc.Click(h.req(ana), "withdraw:1"))
		}, "**Knotwork**, game #1: Ana withdrew the challenge."},
		{"open, filled", func(h *harness) {
			h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "elemental", Seats: 3, Options: "borders=RBGY", Clock: ""}))
			h.svc.ChallengeMessage(t.Context(), 1, "c", "challenge-msg")
			h.ok(h.svc.Click(h.req(bo), "join:1"))
			if edits(h.deliver(), "challenge-msg") != nil {
				h.t.Fatal("rewritten while a seat is still free")
			}
			h.ok(h.svc.Click(h.req(cy), "join:1"))
		}, "**Elemental Connection**, game #1 with borders=RBGY, between Ana, Bo and Cy: accepted; the game is played in its own thread."},
		{"open, expired", func(h *harness) {
			h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "tilingking", Seats: 3, Options: "", Clock: ""}))
			h.svc.ChallengeMessage(t.Context(), 1, "c", "challenge-msg")
			h.ok(h.svc.Click(h.req(bo), "join:1"))
			h.now = h.now.Add(7 * 24 * time.Hour)
			if _, err := h.svc.Tick(t.Context()); err != nil {
				h.t.Fatal(err)
			}
		}, "**TilingKing**, game #1: the open challenge expired after 7d; only 2 of 3 seats were taken."},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			c.settle(h)
			log := h.deliver()
			e := edits(log, "challenge-msg")
			if len(e) != 1 || e[0].Channel != "c" || e[0].Msg.Text != c.want || len(e[0].Msg.Buttons) != 0 {
				t.Fatalf("the challenge message's edits: %+v\nwant one in c: %q, no buttons", e, c.want)
			}
			if again := edits(h.deliver(), "challenge-msg"); len(again) != 0 {
				t.Fatalf("rewritten again: %+v", again)
			}
		})
	}
}

// TestSettleWithoutItsMessage: a challenge whose message the transport
// never recorded is not rewritten, and a message that is gone (or may no
// longer be edited) holds nothing of its game back.
func TestSettleWithoutItsMessage(t *testing.T) {
	// Retries run on the wall clock: make them quick.
	quick := func(c *service.Config) { c.RetryBase = time.Millisecond }
	h := newHarnessWith(t, quick)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	log := h.deliver()
	// Recorded late (the click came before the transport had the id): the
	// rewrite waited for it.
	h.svc.ChallengeMessage(t.Context(), 1, "c", "late-msg")
	log = append(log, h.deliver()...)
	if e := edits(log, "late-msg"); len(e) != 1 || !strings.Contains(e[0].Msg.Text, "accepted") {
		t.Fatalf("a message recorded after the click: %+v", e)
	}
	// A game against the AI alone began at once, with no buttons to take
	// away: its message is left alone.
	h.svc.SetBot(botUser)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{botUser}, Options: "", Clock: ""}))
	if g := h.game(2); !g.Players[1].IsAI() || g.Status != tessera.StatusPlaying {
		t.Fatalf("not a game against the AI: %+v", g)
	}
	h.svc.ChallengeMessage(t.Context(), 2, "c", "ai-msg")
	if e := edits(h.deliver(), "ai-msg"); len(e) != 0 {
		t.Fatalf("a game against the AI had its message rewritten: %+v", e)
	}

	for _, failure := range []delivery.Failure{delivery.MessageGone, delivery.Blocked} {
		h := newHarnessWith(t, quick)
		h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "closure", Opponents: []service.User{bo}, Options: "", Clock: ""}))
		h.svc.ChallengeMessage(t.Context(), 1, "c", "challenge-msg")
		h.sink.FailEdits(map[string]error{"challenge-msg": delivery.DeliveryFailure(failure, errors.New("refused"))})
		h.ok(h.svc.Click(h.req(bo), "accept:1"))
		log := h.deliver()
		if len(of(log, "thread")) != 1 || !strings.Contains(texts(log), "your turn") {
			t.Fatalf("failure %d held the game back: %s", failure, texts(log))
		}
	}
}

// edits are the log's edits of message id.
func edits(log []sent, id string) []sent {
	var out []sent
	for _, s := range log {
		if s.Kind == "edit" && s.ID == id {
			out = append(out, s)
		}
	}
	return out
}
