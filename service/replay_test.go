package service_test

import (
	"bytes"
	"image/gif"
	"strings"
	"testing"

	"tessera"
	"tessera/render"
	"tessera/service"
)

// TestReplayRefusals: /replay of a challenge, of a game without moves, of
// more moves than replay.max_moves, and the parts it then suggests.
func TestReplayRefusals(t *testing.T) {
	h := newHarness(t)
	h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "elemental", Seats: 0, Options: "", Clock: ""}))
	h.refused(tessera.EINVALID, "Game #1 has not started")(h.svc.ReplayGIF(h.req(cy), "1", 0, 0))
	h.ok(h.svc.Click(h.req(bo), "join:1"))
	h.refused(tessera.EINVALID, "Game #1 has no moves yet")(h.svc.ReplayGIF(h.req(cy), "1", 0, 0))
	for i, u := range []service.User{ana, bo, ana} {
		cs := h.svc.MoveChoices(h.req(u), "1", "")
		h.ok(h.svc.Move(h.req(u), "1", cs[i].Value))
	}
	h.refused(tessera.EINVALID, "1 ≤ from ≤ to ≤ 3")(h.svc.ReplayGIF(h.req(cy), "1", 3, 2))
	h.refused(tessera.ENOTFOUND, "There is no game #2")(h.svc.ReplayGIF(h.req(cy), "2", 0, 0))

	small := service.New(h.svc.Store(), service.Config{Renderer: render.Renderer{}, ReplayMoves: 2})
	h.refused(tessera.EINVALID, "at most 2 moves at a time; game #1 has 3")(small.ReplayGIF(h.req(cy), "1", 0, 0))
	r := h.ok(small.ReplayGIF(h.req(cy), "1", 2, 0))
	if r.Ephemeral || len(r.Files) != 1 || !strings.Contains(r.Text, "moves 2 to 3 of 3") || r.Files[0].Name != "game-1-replay-2-3.gif" {
		t.Fatalf("/replay from:2: %q (ephemeral %v, %d files)", r.Text, r.Ephemeral, len(r.Files))
	}
	if anim, err := gif.DecodeAll(bytes.NewReader(r.Files[0].Data)); err != nil || len(anim.Image) != 3 {
		t.Fatalf("from:2 of 3 moves: %d frames, %v", len(anim.Image), err)
	}
	if err := (service.Config{Renderer: render.Renderer{}, ReplayMoves: service.MaxReplayMoves + 1}).Validate(); err == nil || !strings.Contains(err.Error(), "replay.max_moves") {
		t.Fatalf("replay.max_moves over the bound: %v", err)
	}
}
