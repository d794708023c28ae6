package console

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/delivery"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

func newConsole(t testing.TB) (*Console, *strings.Builder) {
	return newConsoleWith(t, func(*service.Config) {})
}

// newConsoleWith is newConsole with its service's configuration changed
// by set.
func newConsoleWith(t testing.TB, set func(*service.Config)) (*Console, *strings.Builder) {
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "c.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	out := &strings.Builder{}
	cfg := service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 3 }}
	set(&cfg)
	svc := service.New(st, cfg)
	return New(svc, delivery.New(svc, st), out, ""), out
}

// store is the console's store, for a test to check what was written
// (the console itself reads only through its Service).
func (c *Console) store() storage.Store { return c.svc.(*service.Service).Store() }

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
		c.Line(t.Context(), line)
	}
	for _, want := range []string{"challenges @bo to Closure", "begins", "(only you)", "Your hand in game #1", "Glorieta", "aborted", "Write who speaks first", "no command /frobnicate"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

// FuzzLine: nothing typed at the console crashes it, and no line leaves
// a game whose record does not replay. The lines share one console, so a
// line meets the games, challenges and vacations earlier ones made: a
// vacation of a player in several games once stopped the process (two
// courier workers posting at once; TestConsoleDeliversSeveralGamesAtOnce).
// The computer and the analyses think briefly: a line that starts a
// game against the hard level or an analysis must not run into the
// fuzzer's 10 s limit for one input, which would fail the target as a hang.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"ana: /move d5 RGBY", "bo: /move #1 pass", "ana: /click resign:1", "ana: /new tilingking bo cy board=hex", "x: /vacation 99", ":", "ana: /say 17 m13 90", "ana: /settings timezone=Nowhere/Else", "cy: /puzzle hard", "cy: /hint", "cy: /move undo", "cy: /hint #1",
		"ana: /vacation 2", "ana: /new closure tessera level=hard", "bo: /resign #1", "ana: /analyze #1"} {
		f.Add(s)
	}
	c, _ := newConsoleWith(f, func(cfg *service.Config) {
		cfg.AIThink = 20 * time.Millisecond
		cfg.AnalysisIterations = 20
		cfg.Courier.Workers = 2
	})
	c.out = io.Discard
	c.Line(context.Background(), "ana: /new elemental bo")
	c.Line(context.Background(), "bo: /accept")
	f.Fuzz(func(t *testing.T, line string) {
		c.Line(t.Context(), line)
		g, err := c.store().Game(t.Context(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := service.Replay(g); err != nil {
			t.Fatalf("after %q, game 1's record does not replay: %v", line, err)
		}
	})
}

// Item 12: a line over 64 KB is refused with a message, and the console
// goes on to the next line.
func TestConsoleRefusesALongLine(t *testing.T) {
	c, out := newConsole(t)
	long := "ana: /say " + strings.Repeat("x", MaxLine)
	in := "ana: /rules closure\n" + long + "\n" + strings.Repeat("y", 3*MaxLine) + "\nana: /rules glorieta\n"
	if err := c.Run(context.Background(), strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "longer than 64 KB"); n != 2 {
		t.Fatalf("%d refusals:\n%.2000s", n, out)
	}
	if !strings.Contains(out.String(), "Glorieta") || !strings.Contains(out.String(), "Closure") {
		t.Fatal("the lines around the long ones were not run")
	}
	// Exactly 64 KB is read (and is only chatter, not a crash).
	c, out = newConsole(t)
	if err := c.Run(context.Background(), strings.NewReader("ana: /say "+strings.Repeat("x", MaxLine-len("ana: /say "))+"\n")); err != nil || strings.Contains(out.String(), "longer than") {
		t.Fatalf("%v %.300s", err, out)
	}
}

// Item 12: the console ends cleanly when its context ends (the command
// cancels it on Ctrl-C and SIGTERM), even while waiting for a line.
func TestConsoleEndsWhenStopped(t *testing.T) {
	c, _ := newConsole(t)
	r, w, err := os.Pipe() // a terminal that never sends anything
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Run(ctx, r) }()
	w.Write([]byte("ana: /rules closure\n"))
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute): // a bound on a hang, not a measurement
		t.Fatal("the console did not end when stopped")
	}
}

// Item 13: "help" alone prints the console's help; /moves says when the
// list was cut; each player's hand is its own picture; hints name games
// the console's way.
func TestConsoleHelpMovesHandsAndHints(t *testing.T) {
	c, out := newConsole(t)
	c.dir = t.TempDir()
	c.Line(t.Context(), "help")
	if !strings.Contains(out.String(), "Type commands as") || strings.Contains(out.String(), "Write who speaks first") {
		t.Fatalf("help: %s", out)
	}
	for _, l := range []string{"ana: /new elemental bo", "bo: /accept", "ana: /hand", "bo: /hand"} {
		c.Line(t.Context(), l)
	}
	for _, who := range []string{"ana", "bo"} {
		if _, err := os.Stat(filepath.Join(c.dir, who+"-hand-1.png")); err != nil {
			t.Fatalf("%s's hand: %v\n%s", who, err, out)
		}
	}
	out.Reset()
	c.Line(t.Context(), "ana: /moves")
	if !strings.Contains(out.String(), "the list stops at 25 moves") {
		t.Fatalf("/moves on a first move (more than 25 choices): %s", out)
	}
	out.Reset()
	c.Line(t.Context(), "ana: /moves zz")
	if strings.Contains(out.String(), "stops at") {
		t.Fatalf("a short list said it was cut: %s", out)
	}
	c.Line(t.Context(), "ana: /new closure bo")
	c.Line(t.Context(), "bo: /accept")
	out.Reset()
	c.Line(t.Context(), "bo: /board")
	if !strings.Contains(out.String(), "#id after the command") || strings.Contains(out.String(), "game: option") {
		t.Fatalf("hint: %s", out)
	}
}

// TestConsoleProfilesAreFiledByPlayer: each profile picture is filed
// under the name of the player it shows, so asking for bo's does not
// write over ana's (issue #24, item 22: both were profile.png).
func TestConsoleProfilesAreFiledByPlayer(t *testing.T) {
	c, out := newConsole(t)
	c.dir = t.TempDir()
	c.Line(t.Context(), "ana: /profile")
	c.Line(t.Context(), "ana: /profile bo")
	ana, err := os.ReadFile(filepath.Join(c.dir, "ana-profile.png"))
	if err != nil {
		t.Fatalf("ana's profile: %v\n%s", err, out)
	}
	bo, err := os.ReadFile(filepath.Join(c.dir, "bo-profile.png"))
	if err != nil {
		t.Fatalf("bo's profile: %v\n%s", err, out)
	}
	if bytes.Equal(ana, bo) {
		t.Fatal("ana's and bo's profiles are the same picture")
	}
	if !strings.Contains(out.String(), "picture: "+filepath.Join(c.dir, "bo-profile.png")) {
		t.Fatalf("the console does not name bo's file:\n%s", out)
	}
}

// Issue 45: each game's leaderboard is its own picture, named by its
// game and server; every one was pictures/leaderboard.png.
func TestConsoleLeaderboardsAreFiledByGame(t *testing.T) {
	c, out := newConsole(t)
	c.dir = t.TempDir()
	c.Line(t.Context(), "ana: /leaderboard elemental")
	c.Line(t.Context(), "ana: /leaderboard Closure")
	for _, name := range []string{"leaderboard-elemental-console.png", "leaderboard-closure-console.png"} {
		if _, err := os.Stat(filepath.Join(c.dir, name)); err != nil || !strings.Contains(out.String(), "picture: "+filepath.Join(c.dir, name)) {
			t.Errorf("%s: %v\n%s", name, err, out)
		}
	}
}
