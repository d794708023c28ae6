package svg_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"tessera/engine"
	"tessera/picture"
	"tessera/svg"
)

// maxBoard bounds a late board's SVG: a page shows one per move scrubbed
// to, on phones on slow networks.
const maxBoard = 40_000

// wellFormed parses doc as XML and returns its root element's name and
// its texts, failing on anything a browser's XML parser would refuse,
// and on any element but the few the renderer writes or any event
// attribute (what a hostile text would have to smuggle in to run).
func wellFormed(t *testing.T, doc []byte) (root string, texts []string) {
	t.Helper()
	if bytes.HasPrefix(doc, []byte("<?xml")) {
		t.Fatal("an XML prolog: the SVG is inlined in HTML")
	}
	d := xml.NewDecoder(bytes.NewReader(doc))
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					t.Fatal("two root elements")
				}
				root = tok.Name.Local
				if tok.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root namespace %q", tok.Name.Space)
				}
			}
			depth++
			switch tok.Name.Local {
			case "svg", "g", "path", "text", "title":
			default:
				t.Errorf("element <%s> in\n%s", tok.Name.Local, doc)
			}
			for _, a := range tok.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") || a.Name.Local == "href" {
					t.Errorf("attribute %s in\n%s", a.Name.Local, doc)
				}
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth > 0 && len(bytes.TrimSpace(tok)) > 0 {
				texts = append(texts, string(tok))
			}
		}
	}
	return root, texts
}

// TestEveryGamesBoard draws every game's late board, alone and with its
// panel, and its hands: each is one well-formed <svg> within the size a
// page can afford, and the board alone has the id and the scene's units
// that a page's overlays rely on.
func TestEveryGamesBoard(t *testing.T) {
	r := svg.New()
	for _, g := range engine.Games() {
		t.Run(g.ID, func(t *testing.T) {
			st := late(t, g)
			sc := st.Board()
			only, err := r.BoardOnly(sc)
			if err != nil {
				t.Fatal(err)
			}
			if root, _ := wellFormed(t, only); root != "svg" {
				t.Fatalf("root %q", root)
			}
			if !bytes.Contains(only, []byte(` id="board"`)) {
				t.Error(`BoardOnly has no id="board"`)
			}
			var x, y, w, h float64
			if _, err := fmt.Sscanf(attr(only, "viewBox"), "%g %g %g %g", &x, &y, &w, &h); err != nil || x != 0 || y != 0 || math.Abs(w-sc.W) > 0.1 || math.Abs(h-sc.H) > 0.1 {
				t.Errorf("BoardOnly's viewBox %q is not the scene's units (0 0 %g %g)", attr(only, "viewBox"), sc.W, sc.H)
			}
			board, err := r.Board(sc, panelOf(g, st))
			if err != nil {
				t.Fatal(err)
			}
			_, texts := wellFormed(t, board)
			if !contains(texts, "Ana") {
				t.Errorf("the panel does not name the first seat: %q", texts)
			}
			t.Logf("%s: board alone %d bytes, with its panel %d", g.ID, len(only), len(board))
			if len(only) > maxBoard || len(board) > maxBoard {
				t.Errorf("%s's late board is %d bytes alone and %d with its panel; want at most %d", g.ID, len(only), len(board), maxBoard)
			}
			for s := 0; s < st.Players(); s++ {
				hand, err := r.Scene(st.HandScene(engine.Seat(s)))
				if err != nil {
					t.Fatal(err)
				}
				wellFormed(t, hand)
			}
		})
	}
}

func contains(texts []string, sub string) bool {
	for _, s := range texts {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// attr is the value of the root element's attribute name.
func attr(doc []byte, name string) string {
	var root struct {
		Attrs []xml.Attr `xml:",any,attr"`
	}
	if err := xml.Unmarshal(doc, &root); err != nil {
		return ""
	}
	for _, a := range root.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// TestHostileText: what a player types reaches the pictures (names in the
// panel, a title) and must stay text: markup, entities, quotes, control
// characters and invalid UTF-8 are escaped, never interpreted, and the
// document stays well-formed.
func TestHostileText(t *testing.T) {
	r := svg.New()
	hostile := []string{
		`</text><script>alert(1)</script>`,
		`"><svg onload=alert(1)>`,
		`&amp; &lt; ]]> <!-- -->`,
		"tab\tbell\a nul\x00 bad\xff utf8",
		`' onmouseover='x`,
	}
	for _, name := range hostile {
		p := picture.Panel{
			Title:  name,
			Status: name + " to move",
			Seats:  []picture.Seat{{Name: name, SeatView: engine.SeatView{Score: 3, InHand: 2, Info: []string{name}, ToMove: true, Color: engine.Red}}},
			Legend: []string{name},
		}
		sc := engine.Scene{W: 100, H: 100}
		sc.Text(name, 50, 50, 20, engine.Ink, engine.Center, false)
		for what, draw := range map[string]func() ([]byte, error){
			"Board":       func() ([]byte, error) { return r.Board(sc, p) },
			"BoardOnly":   func() ([]byte, error) { return r.BoardOnly(sc) },
			"Scene":       func() ([]byte, error) { return r.Scene(sc) },
			"RatingChart": func() ([]byte, error) { return r.RatingChart([]int{1000, 1010}, name) },
			"Standings": func() ([]byte, error) {
				return r.Standings(picture.Standings{Title: name, Columns: []string{name}, Footer: name,
					Rows: []picture.StandingsRow{{Rank: "1", Name: name, Points: "1", TieBreaks: []string{name}, Played: 1}}})
			},
		} {
			doc, err := draw()
			if err != nil {
				t.Fatal(err)
			}
			_, texts := wellFormed(t, doc)
			// The name comes back as text, whole or shortened with an
			// ellipsis (the title's width), but for what XML cannot hold.
			clean := strings.Map(func(r rune) rune {
				if r < ' ' || r == utf8.RuneError {
					return -1
				}
				return r
			}, name)
			found := false
			for _, s := range texts {
				s = strings.Map(func(r rune) rune {
					if r < ' ' || r == utf8.RuneError {
						return -1
					}
					return r
				}, s)
				if s == clean || strings.HasSuffix(s, "…") && strings.HasPrefix(clean, strings.TrimSuffix(s, "…")) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s with %q: the name is not among the texts %q", what, name, texts)
			}
		}
	}
}

// TestRatingChart: the course is a line through one dot per rating, and
// the highest and lowest values are written (only one when all equal).
func TestRatingChart(t *testing.T) {
	r := svg.New()
	for _, tc := range []struct {
		course []int
		labels []string // the values written at the left
	}{
		{nil, nil},                            // no game yet: the box alone
		{[]int{1000}, []string{"1000"}},       // one value: one dot, one label
		{[]int{1000, 1000}, []string{"1000"}}, // flat: one label, not twice
		{[]int{1000, 1032, 987, 1050}, []string{"1050", "987"}},
	} {
		doc, err := r.RatingChart(tc.course, "Glorieta")
		if err != nil {
			t.Fatal(err)
		}
		_, texts := wellFormed(t, doc)
		want := append([]string{"Glorieta", "Glorieta"}, tc.labels...) // the <title> and the heading
		if strings.Join(texts, "|") != strings.Join(want, "|") {
			t.Errorf("course %v: texts %q, want %q", tc.course, texts, want)
		}
	}
}
