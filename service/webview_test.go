package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"tessera"
	"tessera/engine"
	"tessera/service"
)

// webGame starts a 2-player game of kind between Ana and Bo and plays
// moves moves (each seat's first legal move), returning the stored game.
func webGame(t *testing.T, h *harness, kind, options string, moves int) *tessera.Game {
	t.Helper()
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: kind, Opponents: []service.User{bo}, Options: options}))
	var id uint64
	h.svc.Store().All(context.Background(), func(g *tessera.Game) error { id = max(id, g.ID); return nil })
	h.ok(h.svc.Accept(h.req(bo), id))
	for range moves {
		g, err := h.svc.Store().Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		st, err := service.Replay(g)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over() {
			break
		}
		who := []service.User{ana, bo}[st.ToMove()]
		h.ok(h.svc.Move(h.req(who), "", st.Legal()[0].String()))
	}
	g, err := h.svc.Store().Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGameViewWhoSeesWhat: for each game, a spectator gets the public
// view and nothing of any hand; the seat's player at the last position
// gets their own hand, and their legal moves on their turn only; looking
// back, nobody gets a hand.
func TestGameViewWhoSeesWhat(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t)
			g := webGame(t, h, kind, "", 3)
			ctx := context.Background()
			st, err := service.Replay(g)
			if err != nil {
				t.Fatal(err)
			}
			toMove := int(st.ToMove())
			spec, err := h.svc.GameView(ctx, g, -1, "")
			if err != nil {
				t.Fatal(err)
			}
			if spec.Viewer != -1 || spec.Hand != nil || spec.Pieces != nil || spec.Legal != nil {
				t.Fatalf("a spectator got a seat's things: viewer %d hand %v pieces %v legal %d", spec.Viewer, spec.Hand != nil, spec.Pieces, len(spec.Legal))
			}
			if spec.Moves != len(g.Moves) || len(spec.Record) != len(g.Moves) {
				t.Fatalf("moves %d record %d, want %d", spec.Moves, len(spec.Record), len(g.Moves))
			}
			pub := st.View(engine.NoSeat)
			for i, s := range spec.Seats {
				if s.Score != pub.Seats[i].Score || s.ToMove != pub.Seats[i].ToMove || s.Name != g.Players[i].Name {
					t.Errorf("seat %d: %+v, public view %+v", i, s, pub.Seats[i])
				}
			}
			for seat, u := range []service.User{ana, bo} {
				v, err := h.svc.GameView(ctx, g, -1, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				if v.Viewer != seat || v.Hand == nil {
					t.Fatalf("%s: viewer %d, hand %v", u.Name, v.Viewer, v.Hand != nil)
				}
				if own := st.View(engine.Seat(seat)).Seats[seat].Hand; strings.Join(v.Pieces, ",") != strings.Join(own, ",") {
					t.Errorf("%s's pieces %v, their view %v", u.Name, v.Pieces, own)
				}
				if (len(v.Legal) > 0) != (seat == toMove) {
					t.Errorf("%s (seat %d, %d to move) got %d legal moves", u.Name, seat, toMove, len(v.Legal))
				}
				for _, l := range v.Legal {
					if _, err := st.Clone().Parse(l.Text); err != nil {
						t.Errorf("listed move %q does not parse: %v", l.Text, err)
					}
				}
				back, err := h.svc.GameView(ctx, g, 1, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				if back.Hand != nil || back.Legal != nil || back.Viewer != -1 {
					t.Errorf("%s looking back at move 1 got a hand or moves", u.Name)
				}
			}
		})
	}
}

// TestGameViewPositions: each position shows the board the record gives
// there, the record whole, and a position past the end is refused with
// words that say which positions there are.
func TestGameViewPositions(t *testing.T) {
	h := newHarness(t)
	g := webGame(t, h, "elemental", "borders=RBGY", 4)
	ctx := context.Background()
	for n := 0; n <= len(g.Moves); n++ {
		v, err := h.svc.GameView(ctx, g, n, "")
		if err != nil {
			t.Fatal(err)
		}
		st, err := service.ReplayN(g, n)
		if err != nil {
			t.Fatal(err)
		}
		if v.Moves != n || len(v.Record) != len(g.Moves) || len(v.Scene.Items) != len(st.Board().Items) {
			t.Fatalf("position %d: moves %d, record %d, scene items %d want %d", n, v.Moves, len(v.Record), len(v.Scene.Items), len(st.Board().Items))
		}
	}
	v, _ := h.svc.GameView(ctx, g, -1, "")
	for i, m := range v.Record {
		if m.N != i+1 || m.Text != g.Moves[i].Text || m.Player != g.Players[g.Moves[i].Seat].Name {
			t.Errorf("record entry %d: %+v, stored %+v", i, m, g.Moves[i])
		}
	}
	_, err := h.svc.GameView(ctx, g, len(g.Moves)+1, "")
	if tessera.ErrorCode(err) != tessera.EINVALID || !strings.Contains(tessera.ErrorMessage(err), "from 0 to 4") {
		t.Fatalf("past the end: %v", err)
	}
}

// TestPreviewBoard: only the seat to move previews, a bad move is refused
// with the engine's words, and nothing is stored.
func TestPreviewBoard(t *testing.T) {
	h := newHarness(t)
	g := webGame(t, h, "elemental", "borders=RBGY", 0)
	ctx := context.Background()
	st, _ := service.Replay(g)
	mover := []service.User{ana, bo}[st.ToMove()]
	other := []service.User{ana, bo}[1-st.ToMove()]
	legal := st.Legal()[0].String()
	if _, err := h.svc.PreviewBoard(ctx, g, mover.ID, legal); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		who, move, code string
	}{
		{other.ID, legal, tessera.EFORBIDDEN}, // not their turn
		{"stranger", legal, tessera.EFORBIDDEN},
		{mover.ID, "zz99 nonsense", tessera.EINVALID},
		{mover.ID, strings.Repeat("a", 300), tessera.EINVALID},
	} {
		if _, err := h.svc.PreviewBoard(ctx, g, tc.who, tc.move); tessera.ErrorCode(err) != tc.code {
			t.Errorf("%s %.20q: %v, want %s", tc.who, tc.move, err, tc.code)
		}
	}
	if after, _ := h.svc.Store().Game(ctx, g.ID); after.Version != g.Version {
		t.Fatal("a preview changed the game")
	}
}

// TestGameViewPlacements: every game places its moves on the board
// (engine.Placer), so the player's page lists each placed move with its
// cells inside the board's scene, and no two placed moves alike.
func TestGameViewPlacements(t *testing.T) {
	for _, kind := range []string{"closure", "elemental", "glorieta", "knotwork", "tilingking"} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t)
			g := webGame(t, h, kind, "", 2)
			st, _ := service.Replay(g)
			mover := []service.User{ana, bo}[st.ToMove()]
			v, err := h.svc.GameView(context.Background(), g, -1, mover.ID)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]string{}
			placed := 0
			for _, l := range v.Legal {
				if !l.Placed {
					continue
				}
				placed++
				if len(l.At) == 0 {
					t.Fatalf("%s: placed with no cell", l.Text)
				}
				for _, p := range l.At {
					if p.X < 0 || p.Y < 0 || p.X > v.Scene.W || p.Y > v.Scene.H {
						t.Errorf("%s: cell %v outside the board (%gx%g)", l.Text, p, v.Scene.W, v.Scene.H)
					}
				}
				key := fmt.Sprint(l.Piece, l.At, l.Variant)
				if other, dup := seen[key]; dup {
					t.Errorf("%s and %s are placed alike (%s)", other, l.Text, key)
				}
				seen[key] = l.Text
			}
			if placed == 0 {
				t.Fatalf("no placed move among %d", len(v.Legal))
			}
		})
	}
}
