package tilingking

import (
	"fmt"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

// benchSetups are the boards and player counts the benchmarks measure:
// the two of the issue (square9 with 2 players, square11 with 3) and the
// others.
var benchSetups = []struct {
	kind    string
	players int
}{
	{Square9, 2}, {Square11, 3}, {Square11, 4}, {Hex, 2}, {Hex, 3}, {Tri, 2}, {Tri, 4},
}

func benchStart(b *testing.B, kind string, players int) engine.State {
	st, err := engine.New(engine.Setup{Game: ID, Players: players, Options: map[string]string{"board": kind}})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkPlayoutLegalApply is the loop a search had before FastPlayer:
// Legal, a uniform choice, Apply, from the start to the end.
func BenchmarkPlayoutLegalApply(b *testing.B) {
	for _, bs := range benchSetups {
		b.Run(fmt.Sprintf("%s/%dp", bs.kind, bs.players), func(b *testing.B) {
			enginetest.BenchPlayoutLegalApply(b, benchStart(b, bs.kind, bs.players))
		})
	}
}

// BenchmarkPlayoutFast is the same playouts with PlayRandom (a Clone of
// the start included).
func BenchmarkPlayoutFast(b *testing.B) {
	for _, bs := range benchSetups {
		b.Run(fmt.Sprintf("%s/%dp", bs.kind, bs.players), func(b *testing.B) {
			enginetest.BenchPlayoutFast(b, benchStart(b, bs.kind, bs.players))
		})
	}
}
