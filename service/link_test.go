package service_test

import (
	"context"
	"strings"
	"testing"

	"tessera"
	"tessera/service"
)

func TestLink(t *testing.T) {
	ctx := context.Background()
	h := newWebHarness(t)
	id := h.start()
	g, _ := h.svc.Store().Game(ctx, id)

	r := h.ok(h.svc.Link(h.req(ana), "", false))
	if !r.Ephemeral || len(r.Buttons) != 1 || r.Buttons[0].ID != "" || !strings.HasPrefix(r.Buttons[0].URL, h.svc.GameURL(ctx, g)+"?t=") {
		t.Fatalf("/link: %+v", r)
	}
	if strings.Contains(r.Text, "?t=") || !strings.Contains(r.Text, "keep it to yourself") || !strings.Contains(r.Text, "2 days") {
		t.Fatalf("/link's text shows the token, or does not warn: %q", r.Text)
	}
	tok := r.Buttons[0].URL[strings.Index(r.Buttons[0].URL, "?t=")+3:]
	if user, seat, err := h.svc.CheckPlayerToken(ctx, g, tok); err != nil || user != ana.ID || seat != g.Seat(ana.ID) {
		t.Fatalf("the link's token: %q %d %v", user, seat, err)
	}
	other := h.ok(h.svc.Link(h.req(bo), "#1", false))
	otherTok := other.Buttons[0].URL[strings.Index(other.Buttons[0].URL, "?t=")+3:]

	// reset:true revokes Ana's older links, and only hers.
	r = h.ok(h.svc.Link(h.req(ana), "1", true))
	if !strings.Contains(r.Text, "no longer works") {
		t.Fatalf("/link reset: %q", r.Text)
	}
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, tok); tessera.ErrorCode(err) != tessera.EFORBIDDEN {
		t.Fatalf("the old link after reset: %v", err)
	}
	fresh := r.Buttons[0].URL[strings.Index(r.Buttons[0].URL, "?t=")+3:]
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, fresh); err != nil {
		t.Fatalf("the new link: %v", err)
	}
	if _, _, err := h.svc.CheckPlayerToken(ctx, g, otherTok); err != nil {
		t.Fatalf("Bo's link after Ana's reset: %v", err)
	}

	// Refusals, each saying what to do instead.
	h.refused(tessera.EFORBIDDEN, "not playing")(h.svc.Link(h.req(cy), "1", false))
	h.refused(tessera.ENOTFOUND, "no game #99")(h.svc.Link(h.req(ana), "99", false))
	off := h.req(ana)
	off.ManageServer = true
	h.ok(h.svc.ServerSettings(off, "off"))
	h.refused(tessera.EINVALID, "turned its game pages off")(h.svc.Link(h.req(ana), "1", false))
	if u := h.svc.GameURL(ctx, g); u != "" {
		t.Fatalf("GameURL with the server's pages off: %q", u)
	}
	if _, err := h.svc.GameAt(ctx, h.svc.GameAddress(id)); tessera.ErrorCode(err) != tessera.ENOTFOUND {
		t.Fatalf("the page with the server's pages off: %v", err)
	}

	plain := newHarness(t)
	plain.start()
	plain.refused(tessera.EINVALID, "not set up")(plain.svc.Link(plain.req(ana), "1", false))
}

// TestServerSettings: web:on|off is a server's, for members who may
// manage it; reading it is anyone's.
func TestServerSettings(t *testing.T) {
	h := newWebHarness(t)
	h.refused(tessera.EFORBIDDEN, "Manage Server")(h.svc.ServerSettings(h.req(ana), "off"))
	admin := h.req(ana)
	admin.ManageServer = true
	r := h.ok(h.svc.ServerSettings(admin, "off"))
	if !r.Ephemeral || !strings.Contains(r.Text, "off") {
		t.Fatalf("web:off: %q", r.Text)
	}
	if on, err := h.svc.GuildWebOn(context.Background(), "g"); on || err != nil {
		t.Fatalf("after web:off: %v %v", on, err)
	}
	if on, _ := h.svc.GuildWebOn(context.Background(), "another"); !on {
		t.Fatal("another server's pages went off too")
	}
	h.refused(tessera.EINVALID, "on or off")(h.svc.ServerSettings(admin, "maybe"))
	dm := admin
	dm.GuildID = ""
	h.refused(tessera.EINVALID, "server's setting")(h.svc.ServerSettings(dm, "on"))
	admin.InteractionID = "again"
	if r := h.ok(h.svc.ServerSettings(admin, "on")); !strings.Contains(r.Text, "on") {
		t.Fatalf("web:on: %q", r.Text)
	}
	if on, _ := h.svc.GuildWebOn(context.Background(), "g"); !on {
		t.Fatal("web:on did not turn them on")
	}

	// Through the table: a refusal of web: changes none of the caller's
	// own settings given with it.
	cmd, _ := service.LookupCommand("settings")
	if _, err := cmd.Run(h.svc, h.req(bo), service.Args{"web": "off", "notify": "off"}); tessera.ErrorCode(err) != tessera.EFORBIDDEN {
		t.Fatalf("web:off by a member: %v", err)
	}
	if u, _ := h.svc.Store().User(context.Background(), bo.ID); u.NotifyOff {
		t.Fatal("notify changed by a refused /settings")
	}
	r = h.ok(cmd.Run(h.svc, admin, service.Args{"web": "off", "notify": "off"}))
	if !strings.Contains(r.Text, "Turn notices by direct message: off") || !strings.Contains(r.Text, "Game pages of this server: off") {
		t.Fatalf("both at once: %q", r.Text)
	}
}

// TestLinkButtonsOnAnnouncements: with the pages on, a move's post and
// the status message carry a link button to the game's page, and the
// next player's turn notice their own private link; with the server's
// pages off, none of them does.
func TestLinkButtonsOnAnnouncements(t *testing.T) {
	ctx := context.Background()
	h := newWebHarness(t)
	id := h.start()
	g := h.game(id)
	page := h.svc.GameURL(ctx, g)
	mover, next := ana, bo
	if h.position(id).ToMove() != 0 {
		mover, next = bo, ana
	}
	move := func() []sent {
		h.ok(h.svc.Move(h.req(mover), "", h.position(id).Legal()[0].String()))
		mover, next = next, mover
		return h.deliver()
	}
	seen := map[string]bool{}
	for _, s := range move() {
		links := 0
		for _, b := range s.Msg.Buttons {
			if b.URL != "" {
				links++
				if b.ID != "" {
					t.Errorf("%s: a link button with an id: %+v", s.Kind, b)
				}
			}
		}
		switch s.Kind {
		case "post", "edit":
			if links != 1 || s.Msg.Buttons[0].URL != page || s.Msg.Buttons[0].Label != service.PageButtonLabel {
				t.Errorf("%s: buttons %+v, want the page's link %s", s.Kind, s.Msg.Buttons, page)
			}
		case "dm":
			if links != 1 || !strings.HasPrefix(s.Msg.Buttons[0].URL, page+"?t=") {
				t.Fatalf("turn notice: buttons %+v", s.Msg.Buttons)
			}
			tok := s.Msg.Buttons[0].URL[len(page)+3:]
			if user, _, err := h.svc.CheckPlayerToken(ctx, g, tok); err != nil || user != s.User {
				t.Errorf("the turn notice's link is %q's (%v), sent to %q", user, err, s.User)
			}
			if strings.Contains(s.Msg.Text, tok) {
				t.Error("the token is in the notice's text")
			}
		}
		seen[s.Kind] = true
	}
	if !seen["post"] || !seen["edit"] || !seen["dm"] {
		t.Fatalf("a move delivered %v; want a post, a status edit and a turn notice", seen)
	}

	admin := h.req(ana)
	admin.ManageServer = true
	h.ok(h.svc.ServerSettings(admin, "off"))
	for _, s := range move() {
		for _, b := range s.Msg.Buttons {
			if b.URL != "" {
				t.Errorf("%s with the server's pages off carries %+v", s.Kind, b)
			}
		}
	}
}
