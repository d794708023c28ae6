package games_test

import (
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// TestKeyIsFingerprint: enginetest.Key, which CheckFast compares instead
// of the slower JSON Fingerprint, tells two positions apart exactly when
// their fingerprints differ. The positions are every game's first moves
// (for 2 to 4 players where allowed) and, for each, the positions after
// each of its legal moves: siblings that differ in little (one tile, one
// score, whose turn), plus each position twice (equal keys).
func TestKeyIsFingerprint(t *testing.T) {
	for _, g := range engine.Games() {
		for players := g.MinPlayers; players <= min(g.MaxPlayers, 4); players++ {
			st, err := engine.New(engine.Setup{Game: g.ID, Players: players, Seed: 7})
			if err != nil {
				continue // e.g. Knotwork alone needs a puzzle option
			}
			r := engine.NewRand(uint64(players))
			for ply := 0; ply < 6 && !st.Over(); ply++ {
				var positions []engine.State
				legal := st.Legal()
				for i, m := range legal {
					if i == 12 {
						break
					}
					next := st.Clone()
					if _, err := next.Apply(m); err != nil {
						t.Fatalf("%s: Apply(%s): %v", g.ID, m, err)
					}
					positions = append(positions, next, next.Clone())
				}
				positions = append(positions, st)
				fps, keys := make([]string, len(positions)), make([]string, len(positions))
				for i, p := range positions {
					fps[i], keys[i] = enginetest.Fingerprint(p), enginetest.Key(p)
				}
				for i := range positions {
					for j := i; j < len(positions); j++ {
						if sameKey, sameFP := keys[i] == keys[j], fps[i] == fps[j]; sameKey != sameFP {
							t.Fatalf("%s, %d players, ply %d: equal keys %v, equal fingerprints %v:\n%s\n%s",
								g.ID, players, ply, sameKey, sameFP, fps[i], fps[j])
						}
					}
				}
				if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
