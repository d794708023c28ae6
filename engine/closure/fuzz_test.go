package closure

import (
	"errors"
	"testing"

	"tessera/engine"
)

// FuzzParse feeds arbitrary text to the parser, on an empty table and on a
// mid-game position: it never panics, refuses with an *IllegalError, and
// an accepted move's notation parses back to the same move.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"17 m13 90", "7 m13", "7 m13 0", "7 M13 270°", "8 m13 180", "discard 17", "pass",
		"", " ", "17", "m13 17", "17 m13 45", "17 z13", "17 m26", "17 m0", "17 m-1", "-17 m13",
		"+7 m13", "99999999999999999999 m13", "discard", "discard x", "pass pass", "7 m13 90 90",
		"7 a1", "7 y25", "７ m13", "7 m13 ９0", "\x00", "discard 7 8",
	} {
		f.Add(s)
	}
	empty := func() *State {
		s, _ := engine.New(engine.Setup{Game: ID, Players: 2, Seed: 3, Deck: []string{"7", "8", "17", "1", "2", "3", "4", "5"}, Options: map[string]string{"first": "1"}})
		return s.(*State)
	}
	mid := midGame(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, st := range []*State{empty(), mid} {
			m, err := st.Parse(text)
			if err != nil {
				var ie *engine.IllegalError
				if !errors.As(err, &ie) || ie.Msg == "" {
					t.Fatalf("%q: error %v is not an IllegalError with a message", text, err)
				}
				continue
			}
			back, err := st.Parse(m.String())
			if err != nil || back != m {
				t.Fatalf("%q parsed as %q, which parses back as %v, %v", text, m, back, err)
			}
		}
	})
}
