package delivery

import (
	"testing"

	"tessera"
)

// TestNonceSpacesDisjoint: an announcement's nonce never equals the nonce
// of a post that makes a game's place (it used to: "tsr"+base36(1009) was
// "tsrs1", the status nonce of game 1), and every nonce fits Discord's 25
// characters (for any announcement, and up to a trillion games moved a
// thousand times each).
func TestNonceSpacesDisjoint(t *testing.T) {
	seen := map[string]string{}
	for seq := uint64(1); seq <= 50000; seq++ {
		n := nonce(tessera.Announcement{Seq: seq})
		seen[n] = "announcement"
	}
	for id := uint64(1); id <= 2000; id++ {
		for r := 0; r < 3; r++ {
			g := &tessera.Game{ID: id, Relocations: r}
			for _, kind := range []string{"s", "n", "n0", "n3"} {
				n := placeNonce(g, kind)
				if seen[n] != "" {
					t.Fatalf("game %d place nonce %q is also an %s nonce", id, n, seen[n])
				}
				seen[n] = "place"
			}
		}
	}
	if n := nonce(tessera.Announcement{Seq: ^uint64(0)}) + ".3t"; len(n) > 25 {
		t.Fatalf("nonce %q is longer than 25", n)
	}
	if n := placeNonce(&tessera.Game{ID: 1 << 40, Relocations: 1000}, "n3") + "t"; len(n) > 25 {
		t.Fatalf("place nonce %q is longer than 25", n)
	}
}
