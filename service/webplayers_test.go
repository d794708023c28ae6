package service_test

import (
	"context"
	"testing"

	"tessera"
	"tessera/service"
)

// TestWebPlayersData: what the players' pages read. Ana beat Bo at
// Elemental (Bo resigned), plays a second game with him, and Cy has an
// open challenge: the leaderboard ranks both with their ids, Ana's page
// has her rating, the game in play with its page's address and the
// finished one, and the server's page lists Cy's challenge.
func TestWebPlayersData(t *testing.T) {
	h := newWebHarness(t)
	ctx := context.Background()
	done := h.newGame("elemental", "borders=RBGY", ana, bo)
	h.resign(bo, done)
	playing := h.newGame("elemental", "borders=RBGY", ana, bo)
	h.ok(h.svc.NewOpen(h.req(cy), service.NewGameRequest{Game: "glorieta", Options: "handful=3"}))

	url := h.svc.PlayersURL(ctx, "g")
	if url != "https://t.example/s/"+h.svc.GuildAddress("g") {
		t.Fatalf("PlayersURL %q", url)
	}
	guild, err := h.svc.WebGuild(ctx, url[len("https://t.example/s/"):])
	if err != nil || guild != "g" {
		t.Fatalf("WebGuild = %q, %v", guild, err)
	}

	rows, note, rated, err := h.svc.WebLeaderboard(ctx, "g", "elemental", 0)
	if err != nil {
		t.Fatal(err)
	}
	if rated != 2 || len(rows) != 2 || rows[0].UserID != ana.ID || rows[0].Name != "Ana" || rows[0].Place != 1 || rows[1].UserID != bo.ID || note == "" {
		t.Fatalf("leaderboard %+v (%d rated, note %q): want Ana then Bo", rows, rated, note)
	}
	if _, _, _, err := h.svc.WebLeaderboard(ctx, "g", "chess", 0); tessera.ErrorCode(err) != tessera.EINVALID && tessera.ErrorCode(err) != tessera.ENOTFOUND {
		t.Fatalf("an unknown game: %v", err)
	}

	p, err := h.svc.WebPlayer(ctx, "g", ana.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Card.Title != "Ana" || len(p.Card.Games) != 1 || len(p.Card.Games[0].Course) != 2 {
		t.Fatalf("Ana's card %+v: want her name and one game's course of two ratings", p.Card)
	}
	if len(p.InPlay) != 1 || p.InPlay[0].ID != playing || p.InPlay[0].URL != "https://t.example/g/"+h.svc.GameAddress(playing) || p.InPlay[0].Status == "" {
		t.Fatalf("in play %+v: want game %d with its page", p.InPlay, playing)
	}
	if len(p.Finished) != 1 || p.Finished[0].ID != done || len(p.Finished[0].Seats) != 2 || p.Finished[0].Seats[1].UserID != bo.ID || p.More {
		t.Fatalf("finished %+v (more %v): want game %d", p.Finished, p.More, done)
	}

	open, more, err := h.svc.WebChallenges(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 || more != 0 || open[0].By != "Cy" || open[0].Game != "Glorieta" || open[0].Free != 1 || open[0].Seats != 2 || open[0].Options != " with handful=3" {
		t.Fatalf("challenges %+v: want Cy's Glorieta", open)
	}
}

// TestWebPlayersRefusals: an address the service did not make, another
// server's players, a player who has played nothing here and a server
// whose pages are off are all "not found", which tells nothing of who
// plays where.
func TestWebPlayersRefusals(t *testing.T) {
	h := newWebHarness(t)
	ctx := context.Background()
	h.newGame("elemental", "borders=RBGY", ana, bo)
	for _, addr := range []string{"", "g", "g-AAAAAAAAAAAAAAAAAAAAAA", h.svc.GuildAddress("g") + "x", h.svc.GameAddress(1)} {
		if _, err := h.svc.WebGuild(ctx, addr); tessera.ErrorCode(err) != tessera.ENOTFOUND {
			t.Errorf("WebGuild(%q): %v, want ENOTFOUND", addr, err)
		}
	}
	if _, err := h.svc.WebPlayer(ctx, "g", cy.ID, 0); tessera.ErrorCode(err) != tessera.ENOTFOUND {
		t.Errorf("a player with no game here: %v, want ENOTFOUND", err)
	}
	if _, err := h.svc.WebPlayer(ctx, "other", ana.ID, 0); tessera.ErrorCode(err) != tessera.ENOTFOUND {
		t.Errorf("Ana in a server where she never played: %v, want ENOTFOUND", err)
	}
	off := newHarness(t)
	if _, err := off.svc.WebGuild(ctx, h.svc.GuildAddress("g")); tessera.ErrorCode(err) != tessera.ENOTFOUND {
		t.Errorf("pages off: %v, want ENOTFOUND", err)
	}
	if u := off.svc.PlayersURL(ctx, "g"); u != "" {
		t.Errorf("pages off: PlayersURL %q, want none", u)
	}
}
