package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/golang/freetype/raster"

	"tessera/engine"
)

// referenceBoard is a board's PNG drawn the slow way: every shape
// rasterised again by a fresh rasteriser bounded by the picture itself
// (no kept spans, no kept layer), with fresh faces, and written with the
// palette's first implementation (refPalette, refQuantize).
func referenceBoard(t testing.TB, sc engine.Scene, p Panel) []byte {
	t.Helper()
	loadFonts()
	tr, boardH, h := boardLayout(sc, p)
	img := image.NewRGBA(image.Rect(0, 0, Width, h))
	dc := &canvas{im: img, r: raster.NewRasterizer(Width, h), lineWidth: 1, w: Width, h: h, uncached: true}
	dc.paint.im = img
	paintBoard(dc, pen{fc: faces{}}, sc, p, tr, boardH)
	// Encoded as every board is (encodeBoard is Encode): the fast
	// palette Encode takes for a large board is the reference's own, tie
	// for tie (TestPaletteSameAsReference).
	data, err := Encode(img)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFastPathSameBytes: random games of every registered game (every
// player count, every value of an option that has a few), played to the
// end with random legal moves; at its start, after its first move, at a
// third, at two thirds and at its end, the PNG that BoardOn writes (drawn
// on the kind's start kept as a layer, as the service draws, with kept
// spans, encoded with the fast palette) and the one Board writes are byte
// for byte the reference's, a full redraw done the slow way.
func TestFastPathSameBytes(t *testing.T) {
	boards, layered := 0, 0
	for _, g := range engine.Games() {
		t.Run(g.ID, func(t *testing.T) {
			var setups []engine.Setup
			for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
				setups = append(setups, engine.Setup{Game: g.ID, Players: n, Seed: 11 + uint64(n)})
			}
			for _, o := range g.Options {
				for _, v := range o.Values {
					setups = append(setups, engine.Setup{Game: g.ID, Players: g.MinPlayers, Seed: 13, Options: map[string]string{o.Name: v}})
				}
			}
			played := 0
			for _, setup := range setups {
				st, err := engine.New(setup)
				var illegal *engine.IllegalError
				if errors.As(err, &illegal) {
					continue // a setup the game refuses (Knotwork alone without a puzzle)
				} else if err != nil {
					t.Fatal(err)
				}
				played++
				s1 := setup
				s1.Seed = 1
				start, err := engine.New(s1)
				if err != nil {
					t.Fatal(err)
				}
				base := start.Board()
				r := engine.NewRand(setup.Seed)
				states := []engine.State{st.Clone()}
				for !st.Over() && len(states) < 300 { // a puzzle played at random may never end
					legal := st.Legal()
					if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
						t.Fatal(err)
					}
					states = append(states, st.Clone())
				}
				last := len(states) - 1
				names := []string{"Ana", "Bo", "Cy", "Di", "Ed", "Flo"}[:setup.Players]
				for _, move := range []int{0, min(1, last), last / 3, 2 * last / 3, last} {
					name := fmt.Sprintf("%s %dp %v seed %d move %d", g.ID, setup.Players, setup.Options, setup.Seed, move)
					sc := states[move].Board()
					p := NewPanel(name, states[move].View(engine.NoSeat), names)
					want := referenceBoard(t, sc, p)
					got, err := BoardOn(base, sc, p)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: BoardOn's PNG (%d bytes) differs from a full redraw's (%d bytes)", name, len(got), len(want))
					}
					if got, err = Board(sc, p); err != nil || !bytes.Equal(got, want) {
						t.Fatalf("%s: Board's PNG differs from a full redraw's (%v)", name, err)
					}
					tr, boardH, h := boardLayout(sc, p)
					img := image.NewRGBA(image.Rect(0, 0, Width, h))
					if drawOnLayer(img, newCanvas(img), pen{fc: faces{}}, base, sc, tr, int(boardH-pad/2)) {
						layered++
					}
					boards++
				}
			}
			if played == 0 {
				t.Fatalf("%s: no game played", g.ID)
			}
		})
	}
	if t.Failed() || strings.Contains(runFlag(), "/") {
		return // a game alone: the counts below are the whole test's
	}
	if boards < 40 || layered == 0 {
		t.Fatalf("%d boards compared, %d of them drawn on a layer", boards, layered)
	}
	t.Logf("%d boards compared, %d drawn on the start's layer", boards, layered)
}

// runFlag is the -test.run pattern.
func runFlag() string {
	if f := flag.Lookup("test.run"); f != nil {
		return f.Value.String()
	}
	return ""
}
