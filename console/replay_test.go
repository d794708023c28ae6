package console

import (
	"bytes"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleReplay: /replay #1 [from] [to] writes the game's animated
// GIF to the pictures folder, one frame per position; bad words are
// answered, not written.
func TestConsoleReplay(t *testing.T) {
	c, out := newConsole(t)
	c.dir = t.TempDir()
	for _, l := range []string{"ana: /new elemental bo", "bo: /accept", "ana: /move h8 BGGY"} {
		c.Line(t.Context(), l)
	}
	out.Reset()
	c.Line(t.Context(), "bo: /moves")
	bo := strings.Fields(strings.SplitN(out.String(), "(only you)", 2)[1])
	c.Line(t.Context(), "bo: /move "+bo[0]+" "+bo[1])
	for _, l := range []string{"cy: /replay #1", "cy: /replay #1 2 2", "cy: /replay #1 two", "cy: /replay #1 3"} {
		c.Line(t.Context(), l)
	}
	for _, want := range []string{"Replay of Elemental Connection, game #1: moves 1 to 2 of 2", "game #1: move 2 of 2",
		"Write /replay #id [from] [to], with move numbers", "1 ≤ from ≤ to ≤ 2"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	for name, frames := range map[string]int{"game-1-replay-1-2.gif": 3, "game-1-replay-2-2.gif": 2} {
		data, err := os.ReadFile(filepath.Join(c.dir, name))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		anim, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil || len(anim.Image) != frames {
			t.Fatalf("%s: %d frames (want %d), %v", name, len(anim.Image), frames, err)
		}
	}
}
