package console

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/delivery"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// TestConsoleAgainstTheAI: the console's bot is the player tessera; a
// game against it starts at once, and its moves follow each of ana's in
// the output, as posts with the board's picture.
func TestConsoleAgainstTheAI(t *testing.T) {
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "c.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	out := &strings.Builder{}
	// The AI thinks briefly: the test checks what it posts, not how well.
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 3 }, AIThink: 30 * time.Millisecond})
	c := New(svc, delivery.New(svc, st), out, t.TempDir())
	c.Line(t.Context(), "ana: /new closure tessera level=hard first=1")
	for _, want := range []string{"ana plays Closure against Tessera (hard) (game #1)", "Tessera accepts", "[new thread \"#1 Closure: ana vs Tessera (hard)\"]", "@ana, your turn"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	for turn := 0; turn < 3; turn++ {
		g, err := c.store().Game(t.Context(), 1)
		if err != nil {
			t.Fatal(err)
		}
		st, err := service.Replay(g)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over() || st.ToMove() != 0 {
			t.Fatalf("turn %d: over %v, seat %d to move", turn, st.Over(), st.ToMove())
		}
		out.Reset()
		c.Line(t.Context(), "ana: /move "+st.Legal()[0].String())
		text := out.String()
		played := strings.Index(text, "Tessera (hard) played ")
		if !strings.Contains(text, "Tessera (hard) is thinking.") || !strings.Contains(text, "(Tessera is thinking…)") || played < 0 ||
			!strings.Contains(text[played:], "@ana, your turn") || !strings.Contains(text[played:], "picture: ") {
			t.Fatalf("turn %d: the AI's answer is not in the output:\n%s", turn, text)
		}
		if g, _ := c.store().Game(t.Context(), 1); len(g.Moves) != 2*turn+2 || g.Moves[2*turn+1].Seat != 1 {
			t.Fatalf("turn %d: record %+v", turn, g.Moves)
		}
	}
	out.Reset()
	c.Line(t.Context(), "tessera: /move discard 1")
	c.Line(t.Context(), "ana: /games")
	for _, want := range []string{"You are not playing in any game", "#1 Closure vs Tessera (hard): your turn"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}
