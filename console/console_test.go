package console

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	_ "tessera/engine/games"
	"tessera/service"
	"tessera/storage"
)

func newConsole(t testing.TB) (*Console, *strings.Builder) {
	st, err := storage.Open(filepath.Join(t.TempDir(), "c.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	out := &strings.Builder{}
	return New(service.New(st, service.Config{Seed: func() uint64 { return 3 }}), out, ""), out
}

func TestConsoleCommands(t *testing.T) {
	c, out := newConsole(t)
	for _, line := range []string{
		"ana: /new closure bo first=1",
		"bo: /accept",
		"ana: /moves",
		"bo: /hand",
		"ana: /rules glorieta",
		"ana: /abort",
		"no colon here",
		"ana: /frobnicate",
	} {
		c.Line(line)
	}
	for _, want := range []string{"challenges @bo to **Closure**", "begins", "(only you)", "Your hand in game #1", "Glorieta", "aborted", "Write who speaks first", "no command /frobnicate"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

// FuzzLine: nothing typed at the console crashes it.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"ana: /move d5 RGBY", "bo: /move #1 pass", "ana: /click resign:1", "ana: /new tilingking bo cy board=hex", "x: /vacation 99", ":", "ana: /say 17 m13 90", "ana: /settings timezone=Nowhere/Else"} {
		f.Add(s)
	}
	c, _ := newConsole(f)
	c.out = io.Discard
	c.Line("ana: /new elemental bo")
	c.Line("bo: /accept")
	f.Fuzz(func(t *testing.T, line string) {
		c.Line(line)
	})
}
