package tessera_test

import (
	"encoding/json"
	"testing"

	"tessera"
)

// TestStoredWordsNeverChange pins the values of the typed words that
// records store: a renamed constant is fine, a changed value would make
// every old database read differently.
func TestStoredWordsNeverChange(t *testing.T) {
	for _, c := range []struct {
		got  string
		want string
	}{
		{string(tessera.EndResign), "resign"},   // MoveEntry.Text of a resignation
		{string(tessera.EndTimeout), "timeout"}, // MoveEntry.Text of a seat whose clock ran out
		{string(tessera.ClockNone), "none"},     // Clock.Kind
		{string(tessera.ClockMove), "move"},
		{string(tessera.ClockBank), "bank"},
	} {
		if c.got != c.want {
			t.Errorf("stored word %q, want %q", c.got, c.want)
		}
	}
	b, err := json.Marshal(tessera.Clock{Kind: tessera.ClockBank})
	if err != nil || string(b) != `{"kind":"bank"}` {
		t.Errorf("a bank clock is stored as %s (%v), want {\"kind\":\"bank\"}", b, err)
	}
}

// TestEndOf tells the entries that are no move from moves, whatever a
// game's notation looks like.
func TestEndOf(t *testing.T) {
	for _, c := range []struct {
		text string
		want tessera.EndReason
	}{
		{"resign", tessera.EndResign},
		{"timeout", tessera.EndTimeout},
		{"Resign", ""}, // the record holds the canonical word only; anything else is a move's text
		{"d4 RGBY", ""},
		{"pass", ""},
		{"", ""},
	} {
		if got := (tessera.MoveEntry{Text: c.text}).End(); got != c.want {
			t.Errorf("End of %q = %q, want %q", c.text, got, c.want)
		}
	}
}
