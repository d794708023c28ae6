package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"testing"

	"tessera/engine"
)

// TestRecentSameBytes: the boards of random games of every registered
// game (each player count, each value of an option that has a few),
// drawn move by move as the service draws them (BoardOn, on the kind's
// start dealt from seed 1, with the recent boards kept), are pixel for
// pixel the board drawn whole, at every move; at the first, the last and
// every eighth move the PNG is byte for byte Board's. The games of a kind
// are played move for move side by side, so that each move's picture has
// its own game's previous board and the other games' to choose from. A
// game is played for at most recentMoves moves (a Knotwork puzzle played
// at random may never end), so the test's time and memory are bounded;
// with -short, 2 moves of at most 2 setups of each game.
func TestRecentSameBytes(t *testing.T) {
	recentMoves, maxSetups := 24, 100
	if testing.Short() {
		recentMoves, maxSetups = 2, 2 // the race detector's rounds
	}
	before := recentUsed.Load()
	drawn := 0
	for _, g := range engine.Games() {
		var setups []engine.Setup
		for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
			setups = append(setups, engine.Setup{Game: g.ID, Players: n, Seed: 21 + uint64(n)})
		}
		for _, o := range g.Options {
			for _, v := range o.Values {
				setups = append(setups, engine.Setup{Game: g.ID, Players: g.MinPlayers, Seed: 23, Options: map[string]string{o.Name: v}})
			}
		}
		if len(setups) > maxSetups { // the first and the last
			setups = []engine.Setup{setups[0], setups[len(setups)-1]}
		}
		type game struct {
			st    engine.State
			r     engine.Rand
			name  string
			base  engine.Scene
			names []string
		}
		var games []*game
		for _, setup := range setups {
			st, err := engine.New(setup)
			var illegal *engine.IllegalError
			if errors.As(err, &illegal) {
				continue // a setup the game refuses (Knotwork alone without a puzzle)
			} else if err != nil {
				t.Fatal(err)
			}
			s1 := setup
			s1.Seed = 1
			start, err := engine.New(s1)
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, &game{st, engine.NewRand(setup.Seed), fmt.Sprintf("%s %dp %v", g.ID, setup.Players, setup.Options),
				start.Board(), []string{"Ana", "Bo", "Cy", "Di", "Ed", "Flo"}[:setup.Players]})
		}
		if len(games) == 0 {
			t.Fatalf("%s: no game played", g.ID)
		}
		for move := 0; move <= recentMoves; move++ {
			for _, gm := range games {
				if move > 0 {
					if gm.st.Over() {
						continue
					}
					l := gm.st.Legal()
					if _, err := gm.st.Apply(l[gm.r.IntN(len(l))]); err != nil {
						t.Fatal(err)
					}
				}
				name := fmt.Sprintf("%s move %d", gm.name, move)
				sc := gm.st.Board()
				p := NewPanel(name, gm.st.View(engine.NoSeat), gm.names)
				if move%8 == 0 || move == recentMoves || gm.st.Over() {
					want, err := Board(sc, p)
					if err != nil {
						t.Fatal(err)
					}
					got, err := BoardOn(gm.base, sc, p)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: BoardOn's PNG (%d bytes) differs from Board's (%d bytes)", name, len(got), len(want))
					}
				} else {
					tr, boardH, h := boardLayout(sc, p)
					want := image.NewRGBA(image.Rect(0, 0, Width, h))
					drawBoard(want, sc, p, tr, boardH, nil)
					got := image.NewRGBA(image.Rect(0, 0, Width, h))
					for i := range got.Pix {
						got.Pix[i] = byte(i*7 + 3) // noise: a pixel left undrawn shows
					}
					drawBoardOn(got, gm.base, sc, p, tr, boardH)
					if i := firstDiff(got, want); i >= 0 {
						t.Fatalf("%s: differs from the whole drawing at pixel %d (%d,%d)", name, i, i%Width, i/Width)
					}
				}
				drawn++
			}
		}
	}
	used := recentUsed.Load() - before
	t.Logf("%d boards compared, %d drawn on a recent board", drawn, used)
	if used < int64(drawn)/2 {
		t.Fatalf("only %d of %d boards drawn on a recent board", used, drawn)
	}
}
