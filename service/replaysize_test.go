package service_test

import (
	"fmt"
	"testing"

	"tessera"
	"tessera/render"
	"tessera/service"
)

// TestReplayTooLargeToUpload: a replay GIF larger than the transport takes
// is refused with a shorter part to ask for, in proportion to the size
// less a tenth; one of exactly the limit is sent.
func TestReplayTooLargeToUpload(t *testing.T) {
	// Discord's default per-file limit (developers/reference.mdx,
	// Uploading Files): 10 MiB = 10 × 1024 × 1024 bytes.
	if service.MaxUpload != 10485760 {
		t.Fatalf("MaxUpload = %d, want 10 MiB", service.MaxUpload)
	}
	h := newHarness(t)
	h.ok(h.svc.NewOpen(h.req(ana), service.NewGameRequest{Game: "elemental", Seats: 0, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "join:1"))
	for i, u := range []service.User{ana, bo, ana} {
		cs := h.svc.MoveChoices(h.req(u), "1", "")
		h.ok(h.svc.Move(h.req(u), "1", cs[i].Value))
	}
	// The size of the whole replay, under the default limit.
	whole := len(h.ok(h.svc.ReplayGIF(h.req(cy), "1", 0, 0)).Files[0].Data)
	limited := func(n int) *service.Service {
		return service.New(h.svc.Store(), service.Config{Renderer: render.Renderer{}, UploadLimit: n})
	}
	// Sizes are written rounded up, limits down (a few KiB here).
	up := func(n int) string { return fmt.Sprintf("%d KiB", (n+1023)/1024) }
	down := func(n int) string { return fmt.Sprintf("%d KiB", n/1024) }

	// Exactly the limit: sent.
	if r := h.ok(limited(whole).ReplayGIF(h.req(cy), "1", 0, 0)); len(r.Files) != 1 {
		t.Fatalf("a replay of exactly the limit: %q", r.Text)
	}
	// A byte over: 3 moves × 9/10 of (limit / size), just under 1, is
	// 2.69…: moves 1 to 2.
	h.refused(tessera.EINVALID, fmt.Sprintf("The replay of moves 1 to 3 is %s, more than the %s a file may have. Ask for fewer moves with from: and to: (e.g. from:1 to:2).", up(whole), down(whole-1)))(limited(whole-1).ReplayGIF(h.req(cy), "1", 0, 0))
	// However small the limit, the advice names at least one move.
	h.refused(tessera.EINVALID, "The replay of move 3 is ")(limited(1).ReplayGIF(h.req(cy), "1", 3, 3))
	h.refused(tessera.EINVALID, "(e.g. from:3 to:3)")(limited(1).ReplayGIF(h.req(cy), "1", 3, 3))
}
