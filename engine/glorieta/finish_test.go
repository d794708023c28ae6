package glorieta

import (
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// TestWinningMoveByHand: four Yellow stones around g7 (of its six
// neighbours f6 f7 g6 g8 h6 h7) are a loop two stones away, five are one
// stone away, and a hand of one cannot place two.
func TestWinningMoveByHand(t *testing.T) {
	st := started(t, Yellow)
	put(t, st, Yellow, "f6 f7 g6 g8")
	put(t, st, Black, "a1")
	if m, ok := st.WinningMove(); !ok || m.String() != "h6 h7" {
		t.Fatalf("four around g7 with two to place: WinningMove = %v, %v; want h6 h7", m, ok)
	}
	st.Hands[Yellow] = 1
	if m, ok := st.WinningMove(); ok {
		t.Fatalf("four around g7 with one stone in hand: WinningMove = %v, want none", m)
	}
	st.Hands[Yellow] = 0 // must flip: a flip never closes the flipper's loop
	if m, ok := st.WinningMove(); ok {
		t.Fatalf("a turn that must flip: WinningMove = %v, want none", m)
	}
	st.Hands[Yellow] = 6
	put(t, st, Yellow, "h6")
	if m, ok := st.WinningMove(); !ok || m.String() != "h7" {
		t.Fatalf("five around g7: WinningMove = %v, %v; want h7", m, ok)
	}
	st.Turn = Black // Black has nothing near a loop
	if m, ok := st.WinningMove(); ok {
		t.Fatalf("Black: WinningMove = %v, want none", m)
	}
}

// TestWinningMoveMatchesTryingEveryMove compares WinningMove with trying
// every legal move, on the last positions of random games (where loops
// are near) and a few earlier ones, with every handful size.
func TestWinningMoveMatchesTryingEveryMove(t *testing.T) {
	games := 24
	if testing.Short() {
		games = 8
	}
	var singles, pairs, none int
	for g := 0; g < games; g++ {
		opts := map[string]string{"handful": []string{"6", "2", "1", "4"}[g%4]}
		s, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: opts, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		r := engine.NewRand(uint64(g))
		var seen []*State
		for !st.Over() {
			seen = append(seen, st.Clone().(*State))
			st.PlayRandom(&r)
		}
		rng := rand.New(rand.NewPCG(uint64(g), 3))
		var pick []*State
		pick = append(pick, seen[max(0, len(seen)-6):]...)
		for k := 0; k < 3; k++ {
			pick = append(pick, seen[rng.IntN(len(seen))])
		}
		for _, p := range pick {
			want := winsByTrying(t, p)
			m, ok := p.WinningMove()
			switch {
			case ok && !winsAtOnce(t, p, m):
				t.Fatalf("game %d: WinningMove gave %s, which does not win", g, m)
			case !ok && want != nil:
				t.Fatalf("game %d: WinningMove found nothing, %s wins", g, want)
			case !ok:
				none++
			case m.(Move).B < 0:
				singles++
			default:
				pairs++
			}
		}
	}
	t.Logf("%d single-stone wins, %d two-stone wins, %d positions without", singles, pairs, none)
	if singles == 0 || pairs == 0 || none == 0 {
		t.Fatalf("the positions did not cover every case: %d singles, %d pairs, %d none", singles, pairs, none)
	}
}

func winsByTrying(t *testing.T, st *State) engine.Move {
	for _, m := range st.Legal() {
		if winsAtOnce(t, st, m) {
			return m
		}
	}
	return nil
}

func winsAtOnce(t *testing.T, st *State, m engine.Move) bool {
	t.Helper()
	c := st.Clone().(*State)
	if err := c.Play(m); err != nil {
		t.Fatalf("%s: %v", m, err)
	}
	w := c.Winners()
	return c.Over() && len(w) == 1 && w[0] == st.Turn
}

// BenchmarkWinningMove is WinningMove on mid-game positions (mostly
// without a win, so both passes run in full): what the AI pays to look
// one move ahead at a new root child.
func BenchmarkWinningMove(b *testing.B) {
	var pos []*State
	for g := 0; g < 8; g++ {
		s, _ := engine.New(engine.Setup{Game: ID, Players: 2, Seed: uint64(g)})
		st := s.(*State)
		r := engine.NewRand(uint64(g))
		for k := 0; k < 30 && !st.Over(); k++ {
			st.PlayRandom(&r)
		}
		if !st.Over() {
			pos = append(pos, st)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pos[i%len(pos)].WinningMove()
	}
}

// TestUntryTakesBackTry: WinningMove tries each first stone on one copy of
// the book and takes it back before the next, so untry must leave the
// copy exactly as it was (members, union-find parents, member
// neighbours), or a later first stone would be judged with an earlier one
// still on the board. Every empty cell of positions along random games.
func TestUntryTakesBackTry(t *testing.T) {
	tries := 0
	for g := 0; g < 6; g++ {
		s, err := engine.New(engine.Setup{Game: ID, Players: 2, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		r := engine.NewRand(uint64(g))
		for k := 0; !st.Over(); k++ {
			if k%5 == 0 {
				if !st.synced() {
					st.rebuild()
				}
				for seat := 0; seat < 2; seat++ {
					b := st.fast
					for c := 0; c < nCells; c++ {
						if st.Stones[c] != empty {
							continue
						}
						u := b.try(seat, worldOf[c])
						if !b.member[seat][worldOf[c]] {
							t.Fatalf("game %d: try did not make %s a member", g, board.Name(c))
						}
						b.untry(seat, u)
						tries++
						if b != st.fast {
							t.Fatalf("game %d, move %d: trying %s for seat %d and taking it back changed the book", g, k, board.Name(c), seat)
						}
					}
				}
			}
			st.PlayRandom(&r)
		}
	}
	if tries < 1000 {
		t.Fatalf("only %d tries", tries)
	}
}
