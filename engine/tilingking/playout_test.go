package tilingking

import (
	"fmt"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestRandomPlayouts plays random games on every board, with 2-4 players
// and some resignations, and checks after every move: no cell covered
// twice (the pieces on the board and the cover map agree, and no piece
// covers a neutral tile or another player's territory), every piece is on
// the board or in its owner's hand, and each score equals covered cells
// plus territory. enginetest.Playout adds the shared checks (notation
// round trips, clones, replay gives the same position).
func TestRandomPlayouts(t *testing.T) {
	n := 0
	for _, kind := range Kinds {
		for players := 2; players <= 4; players++ {
			games := 2
			if testing.Short() {
				games = 1
			}
			for g := 0; g < games; g++ {
				n++
				seed := uint64(n)
				opts := map[string]string{"board": kind}
				if g == 1 {
					opts["maxcapture"] = "half"
				}
				if players == 2 && g == 1 {
					opts["pie"] = "on"
				}
				setup := engine.Setup{Game: ID, Players: players, Seed: seed, Options: opts}
				resign := 0.0
				if n%3 == 0 {
					resign = 0.01
				}
				t.Run(fmt.Sprintf("%s/%dp/%d", kind, players, g), func(t *testing.T) {
					enginetest.Playout(t, setup, seed, enginetest.PlayoutOptions{
						ResignChance: resign,
						Check: func(t testing.TB, s engine.State, o engine.Outcome) {
							checkInvariants(t, s.(*State))
						},
					})
				})
			}
		}
	}
}

func checkInvariants(t testing.TB, st *State) {
	t.Helper()
	b := st.b
	cover := make([]int8, b.n)
	for i := range cover {
		cover[i] = -1
	}
	count := make([]map[string]int, st.N)
	for s := range count {
		count[s] = map[string]int{}
		for _, p := range st.Hands[s] {
			count[s][p]++
		}
	}
	for _, p := range st.Pieces {
		count[p.Seat][p.Piece]++
		if b.shapeName(p.Cells) != p.Piece {
			t.Fatalf("piece %s on %s has the wrong shape", p.Piece, b.text(p.Cells))
		}
		for _, c := range p.Cells {
			if cover[c] >= 0 {
				t.Fatalf("%s covered twice", b.name(c))
			}
			if b.neutral.has(c) {
				t.Fatalf("%s is neutral and covered", b.name(c))
			}
			if st.Terr[c] >= 0 && engine.Seat(st.Terr[c]) != p.Seat {
				t.Fatalf("%s is territory of seat %d and covered by seat %d", b.name(c), st.Terr[c], p.Seat)
			}
			cover[c] = int8(p.Seat)
		}
	}
	for i := range cover {
		if cover[i] != st.Cover[i] {
			t.Fatalf("%s: cover map says %d, pieces say %d", b.name(i), st.Cover[i], cover[i])
		}
		if st.Terr[i] >= 0 && b.neutral.has(i) {
			t.Fatalf("neutral %s is territory", b.name(i))
		}
	}
	for s := 0; s < st.N; s++ {
		for _, p := range b.set {
			if count[s][p.Name] != p.Count {
				t.Fatalf("seat %d has %d %s in all, want %d", s, count[s][p.Name], p.Name, p.Count)
			}
		}
		covered, terr := 0, 0
		for i := range cover {
			if int(cover[i]) == s {
				covered++
			} else if int(st.Terr[i]) == s {
				terr++
			}
		}
		if st.Score[s] != covered+terr {
			t.Fatalf("seat %d scores %d, but covers %d and owns %d more", s, st.Score[s], covered, terr)
		}
	}
}
