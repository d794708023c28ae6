package grid

import (
	"testing"
)

func TestSquareNotation(t *testing.T) {
	g := Square{W: 8, H: 8}
	i, err := g.Parse(" D5 ")
	if err != nil || g.Name(i) != "d5" {
		t.Fatalf("d5: %v %v", g.Name(i), err)
	}
	c, r := g.XY(i)
	if c != 3 || r != 4 {
		t.Fatalf("d5 at column %d row %d, want 3 4", c, r)
	}
	for in, want := range map[string]string{
		"d9":  "d9 is off the board (a1-h8)",
		"i1":  "i1 is off the board (a1-h8)",
		"a0":  "a0 is off the board (a1-h8)",
		"5d":  `"5d" is not a cell (write a column letter and a row number, like e5)`,
		"d-1": `"d-1" is not a cell (write a column letter and a row number, like e5)`,
		"":    `"" is not a cell (write a column letter and a row number, like e5)`,
	} {
		if _, err := g.Parse(in); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	// North is towards higher rows; steps off the board give -1.
	if g.Name(g.Step(i, N)) != "d6" || g.Name(g.Step(i, E)) != "e5" || g.Name(g.Step(i, S)) != "d4" || g.Name(g.Step(i, W)) != "c5" {
		t.Fatal("steps from d5")
	}
	a1, _ := g.Parse("a1")
	if g.Step(a1, S) != -1 || g.Step(a1, W) != -1 || !g.OnEdge(a1) {
		t.Fatal("a1 is a corner")
	}
	n := 0
	g.King(i, func(int) { n++ })
	if n != 8 {
		t.Fatalf("d5 has %d king neighbours, want 8", n)
	}
	n = 0
	g.Orth(a1, func(int) { n++ })
	if n != 2 {
		t.Fatalf("a1 has %d orthogonal neighbours, want 2", n)
	}
}

func TestHexNotation(t *testing.T) {
	h := NewHex(7)
	if h.Len() != 127 {
		t.Fatalf("%d cells, want 127", h.Len())
	}
	// Rows a-m have 7..13..7 cells; g7 is the centre.
	for row, want := range map[int]int{0: 7, 6: 13, 12: 7, 3: 10} {
		if h.RowLen(row) != want {
			t.Fatalf("row %c: %d cells, want %d", 'a'+row, h.RowLen(row), want)
		}
	}
	g7, err := h.Parse("g7")
	if err != nil {
		t.Fatal(err)
	}
	if q, r := h.Axial(g7); q != 0 || r != 0 {
		t.Fatalf("g7 at %d,%d, want the centre", q, r)
	}
	n := 0
	h.Adj(g7, func(int) { n++ })
	if n != 6 {
		t.Fatalf("g7 has %d neighbours", n)
	}
	a1, _ := h.Parse("a1")
	n = 0
	h.Adj(a1, func(int) { n++ })
	if n != 3 || !h.OnEdge(a1) {
		t.Fatalf("corner a1 has %d neighbours, want 3", n)
	}
	if _, err := h.Parse("a8"); err == nil || err.Error() != "a8 is off the board (row a has cells a1-a7)" {
		t.Fatalf("a8: %v", err)
	}
	if _, err := h.Parse("n1"); err == nil {
		t.Fatal("n1 accepted")
	}
	for i := 0; i < h.Len(); i++ {
		j, err := h.Parse(h.Name(i))
		if err != nil || j != i {
			t.Fatalf("cell %d named %s parses as %d (%v)", i, h.Name(i), j, err)
		}
	}
}

func TestFloodAndComponents(t *testing.T) {
	// A 5x5 board with a wall on column c: the west part (a, b) and the
	// east part (d, e) are two components of 10 cells each.
	g := Square{W: 5, H: 5}
	open := func(i int) bool { c, _ := g.XY(i); return c != 2 }
	label, n := Components(g.Len(), open, g.Orth)
	if n != 2 {
		t.Fatalf("%d components, want 2", n)
	}
	a1, _ := g.Parse("a1")
	e5, _ := g.Parse("e5")
	if label[a1] == label[e5] || label[a1] < 0 {
		t.Fatal("a1 and e5 in one component")
	}
	seen := Flood(g.Len(), []int{a1}, g.Orth, open)
	count := 0
	for _, s := range seen {
		if s {
			count++
		}
	}
	if count != 10 {
		t.Fatalf("flood from a1 reached %d cells, want 10", count)
	}
	// With corner neighbours the wall still holds (it is a full column).
	if _, n := Components(g.Len(), open, g.King); n != 2 {
		t.Fatalf("king components %d, want 2", n)
	}
	// A start that does not pass is not flooded.
	c3, _ := g.Parse("c3")
	if s := Flood(g.Len(), []int{c3}, g.Orth, open); s[c3] {
		t.Fatal("a wall cell was flooded")
	}
}

func BenchmarkFlood(b *testing.B) {
	h := NewHex(8)
	b.ReportAllocs()
	for b.Loop() {
		Flood(h.Len(), []int{0}, h.Adj, func(int) bool { return true })
	}
}
