package enginetest

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"tessera/engine"
)

// maxUnplaced bounds the legal moves of a position that a Placer may
// leave without a placement: the few that are not placed on a cell (a
// pass, a pass-all, a swap, a puzzle's undo, a discard of each tile in
// hand). Anything more is placing moves a page could not tap.
const maxUnplaced = 8

// notPlaced are notations that name no cell: a Placer must say so.
var notPlaced = map[string]bool{"pass": true, "pass all": true, "swap": true, "undo": true}

// checkPlacer checks an engine.Placer's placements of the legal moves
// of st: every move that is placed has one, its points lie inside the
// board's picture, its piece is one the hand's picture names (by the
// first word of a label, a trailing star aside: Knotwork's neutral
// tiles), no two moves share one (so taps name exactly one move), the
// moves that are not placed say so, and reading them leaves the
// position as it was.
func checkPlacer(t *testing.T, st engine.State, legal []engine.Move) {
	t.Helper()
	pl, ok := st.(engine.Placer)
	if !ok || st.Over() {
		return
	}
	before := Key(st)
	sc := st.Board()
	names := map[string]bool{}
	for _, it := range st.HandScene(st.ToMove()).Items {
		if f := strings.Fields(it.Text); len(f) > 0 {
			names[f[0]] = true
		}
	}
	seen := make(map[string]string, len(legal))
	var key []byte
	unplaced := 0
	for _, m := range legal {
		p, ok := pl.Placement(m)
		if !ok {
			unplaced++
			continue
		}
		if notPlaced[m.String()] {
			t.Fatalf("Placement(%q) has a placement %+v: it is not placed on a cell", m, p)
		}
		if len(p.At) == 0 {
			t.Fatalf("Placement(%q) has no point", m)
		}
		for _, q := range p.At {
			if math.IsNaN(q.X) || math.IsNaN(q.Y) || q.X < 0 || q.Y < 0 || q.X > sc.W || q.Y > sc.H {
				t.Fatalf("Placement(%q) at (%.1f, %.1f): outside the board's picture (%.0f x %.0f)", m, q.X, q.Y, sc.W, sc.H)
			}
		}
		if p.Piece != "" && !names[strings.TrimSuffix(p.Piece, "*")] {
			t.Fatalf("Placement(%q) takes %q, which the hand's picture does not name (it names %v)", m, p.Piece, names)
		}
		key = append(append(append(append(key[:0], p.Piece...), 0), p.Variant...), 0)
		for _, q := range p.At { // to a thousandth of a unit
			key = binary.LittleEndian.AppendUint64(key, uint64(math.Round(q.X*1000)))
			key = binary.LittleEndian.AppendUint64(key, uint64(math.Round(q.Y*1000)))
		}
		k := string(key)
		if other, dup := seen[k]; dup {
			t.Fatalf("legal moves %q and %q have the same placement %+v: a tap could not tell them apart", other, m, p)
		}
		seen[k] = m.String()
	}
	if unplaced > maxUnplaced {
		t.Fatalf("%d of %d legal moves have no placement; at most %d may not be placed on a cell", unplaced, len(legal), maxUnplaced)
	}
	if Key(st) != before {
		t.Fatal("Placement changed the position")
	}
}
