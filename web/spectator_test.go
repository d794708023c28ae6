package web

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"tessera"
	"tessera/engine"
	"tessera/service"
)

// TestSpectatorSeesNothingHidden: for each game in play, what a spectator
// fetches (the page, the scrubber's fragments, the event stream) holds no
// hand, no player's controls, no seed, and none of the pieces in any
// seat's hand unless the public view shows them too (the board's texts,
// the move list, the panel): the public view is the measure.
func TestSpectatorSeesNothingHidden(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		t.Run(kind, func(t *testing.T) {
			s := newSite(t)
			g := s.start(kind, "")
			for range 3 { // a few moves, so that hands were drawn again
				st, who, _ := s.turn(g)
				if _, err := s.svc.Move(s.req(who), "", st.Legal()[0].String()); err != nil {
					t.Fatal(err)
				}
				g = s.game(g.ID)
			}
			st, err := service.Replay(g)
			if err != nil {
				t.Fatal(err)
			}
			public := publicText(g.Moves, st)
			var pages []string
			for _, path := range []string{"", "?part=position", "?move=0", "?move=1&part=position", "?move=2"} {
				res, body := s.get(nil, s.addr(g.ID)+path)
				if res.StatusCode != 200 {
					t.Fatalf("%s: %d", path, res.StatusCode)
				}
				pages = append(pages, body)
			}
			ctx, cancel := context.WithCancel(context.Background())
			events := s.openStream(ctx, s.addr(g.ID)+"/events", "1")
			e := next(t, events)
			cancel()
			pages = append(pages, e.id+" "+e.event+" "+e.data)

			seed := []string{fmt.Sprint(g.Setup.Seed), fmt.Sprintf("%x", g.Setup.Seed)}
			for i, page := range pages {
				for _, marker := range append([]string{`class="hand"`, `class="play"`, `name="csrf"`, "Your hand", "data-csrf"}, seed...) {
					if strings.Contains(page, marker) {
						t.Errorf("fetch %d shows %q to a spectator", i, marker)
					}
				}
				for seat := range g.Players {
					for _, piece := range st.View(engine.Seat(seat)).Seats[seat].Hand {
						if !strings.ContainsAny(piece, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") || hasWord(public, piece) {
							continue // a bare number is everywhere in a page; a public piece is no secret
						}
						if hasWord(page, piece) {
							t.Errorf("fetch %d shows %q from seat %d's hand, which the public view does not", i, piece, seat+1)
						}
					}
				}
			}
		})
	}
}

// publicText is everything a game's thread shows of a position: the
// board's texts, the moves' notation, the public view's lines.
func publicText(moves []tessera.MoveEntry, st engine.State) string {
	var b strings.Builder
	for _, it := range st.Board().Items {
		b.WriteString(it.Text + "\n")
	}
	for _, m := range moves {
		b.WriteString(m.Text + "\n")
	}
	v := st.View(engine.NoSeat)
	b.WriteString(v.Status + "\n" + strings.Join(v.Legend, "\n"))
	for _, s := range v.Seats {
		b.WriteString(strings.Join(s.Info, "\n") + "\n" + strings.Join(s.Hand, "\n") + "\n")
	}
	return b.String()
}

// hasWord reports whether w occurs in text as a whole word.
func hasWord(text, w string) bool {
	return regexp.MustCompile(`(^|[^A-Za-z0-9])` + regexp.QuoteMeta(w) + `($|[^A-Za-z0-9])`).MatchString(text)
}
