package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
	"tessera/storage/boltdb"
)

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestReplayJSON(t *testing.T) {
	// Borders north R, east B, south G, west Y. The deck deals seat 1 RRRR
	// and GGGG, seat 2 BBBB and YYYY; RRRG and RRRB come next.
	// a1 RRRR: south R on the green border, west R on the yellow: 0.
	// b1 BBBB: west B against a1's east R: 1 misconnection, -1; its south
	// B on the green border: 0.
	// Seat 1 to move with GGGG and RRRG (code GRRR): the open cells are
	// a2, b2, c1; GGGG has 1 orientation and RRRG 4: 3 x 5 = 15 moves.
	moves := filepath.Join(t.TempDir(), "m.txt")
	os.WriteFile(moves, []byte("# two moves\n\na1 RRRR\n  B1 bbbb \n"), 0o644)
	code, out, errs := runCmd(t, "", "replay", "--game", "elemental", "--players", "2", "--seed", "7",
		"--option", "borders=RBGY", "--deck", "RRRR,GGGG,BBBB,YYYY,RRRG,RRRB", moves)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got replayResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := replayResult{Game: "elemental", Status: "playing", ToMove: 1, Moves: 2, Scores: []int{0, -1}, Winners: []int{}, LegalMoves: 15,
		Hands: []any{[]any{"GGGG", "GRRR"}, []any{"BRRR", "YYYY"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if !strings.Contains(out, `"to_move":1`) || !strings.Contains(out, `"legal_moves":15`) {
		t.Fatalf("JSON field names: %s", out)
	}
}

func TestReplayIllegalLine(t *testing.T) {
	moves := filepath.Join(t.TempDir(), "m.txt")
	os.WriteFile(moves, []byte("a1 RRRR\nz9 BBBB\n"), 0o644)
	code, _, errs := runCmd(t, "", "replay", "--game", "elemental", "--deck", "RRRR,GGGG,BBBB,YYYY", moves)
	if code != 1 || !strings.Contains(errs, "line 2") || !strings.Contains(errs, "z9 BBBB") || !strings.Contains(errs, "off the board") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	code, _, _ = runCmd(t, "", "replay", "--game", "nope", moves)
	if code != 2 {
		t.Fatalf("unknown game: exit %d", code)
	}
}

func TestReplayResignFinishes(t *testing.T) {
	code, out, _ := runCmd(t, "a1 RRRR\nresign\n", "replay", "--game", "elemental", "--deck", "RRRR,GGGG", "-")
	if code != 0 || !strings.Contains(out, `"status":"finished"`) || !strings.Contains(out, `"winners":[1]`) || !strings.Contains(out, `"to_move":0`) {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// TestConsole plays through the local console, as a newcomer would with
// no token: the same service as Discord.
func TestConsole(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DISCORD_TOKEN", "")
	t.Setenv("TESSERA_DATABASE", filepath.Join(dir, "t.db"))
	t.Setenv("TESSERA_PICTURES", filepath.Join(dir, "pics"))
	t.Setenv("TESSERA_CONFIG", "")
	script := "ana: /new elemental bo borders=RBGY\nbo: /accept\nana: /hand\nbo: /move a1 RRRR\nana: /games\nquit\n"
	code, out, errs := runCmd(t, script, "console")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"local console", "challenges @bo", "begins", "It is ana's turn", "Your hand in game #1", "Your games:", "[direct message to ana]"} {
		if !strings.Contains(out, want) {
			t.Fatalf("console output lacks %q:\n%s", want, out)
		}
	}
	pics, _ := filepath.Glob(filepath.Join(dir, "pics", "*.png"))
	if len(pics) < 2 {
		t.Fatalf("%d pictures written", len(pics))
	}
}

func TestConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("database: x.db\nguild_id: \"123\"\ngames:\n  thread: false\ndefaults:\n  clock: 3d\n"), 0o600)
	env := map[string]string{"TESSERA_GUILD_ID": "456", "DISCORD_TOKEN": " secret "}
	c, err := loadConfig(path, true, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Database != "x.db" || c.GuildID != "456" || c.Token != "secret" || *c.Games.Thread || c.Defaults.Clock != "3d" || c.Vacation.Days != 20 {
		t.Fatalf("%+v", c)
	}
	os.WriteFile(path, []byte("token: abc\n"), 0o600)
	if _, err := loadConfig(path, true, func(string) string { return "" }); err == nil {
		t.Fatal("a token in the file (an unknown field) was accepted")
	}
	os.WriteFile(path, []byte("defaults:\n  clock: soon\n"), 0o600)
	if _, err := loadConfig(path, true, func(string) string { return "" }); err == nil {
		t.Fatal("a bad clock was accepted")
	}
	// The example configuration is valid.
	if _, err := loadConfig("../../config.example.yaml", true, func(string) string { return "" }); err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
}

func TestBackupAndCheckWhileTheBotRuns(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	st, err := boltdb.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: 1, Deck: []string{"RRRR", "GGGG"}},
		Players: []tessera.Player{{ID: "1", Name: "a"}, {ID: "2", Name: "b"}}, ChannelID: "c", Created: time.Now(),
		Moves: []tessera.MoveEntry{{Seat: 0, Text: "d4 RRRR"}}}
	if err := st.Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	// The "bot" holds the database and serves the socket.
	admin, err := serveAdmin(t.Context(), st, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy.db")
	code, out, errs := runCmd(t, "", "backup", "--db", db, copyPath)
	if code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup: exit %d %s %s", code, out, errs)
	}
	code, out, _ = runCmd(t, "", "check", "--db", db)
	if code != 0 || !strings.Contains(out, "OK") {
		t.Fatalf("check through the bot: exit %d %s", code, out)
	}
	admin.Close()
	st.Close()
	// The copy is a whole database.
	cp, err := boltdb.Open(copyPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := cp.Game(t.Context(), 1)
	if err != nil || len(got.Moves) != 1 {
		t.Fatalf("the copy: %+v %v", got, err)
	}
	// A record that no longer replays is reported, with exit status 1.
	cp.Update(t.Context(), 1, got.Version, "", func(g *tessera.Game, _ storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: 1, Text: "z9 QQQQ"})
		return nil
	})
	cp.Close()
	code, out, _ = runCmd(t, "", "check", "--db", copyPath)
	if code != 1 || !strings.Contains(out, "game 1: move 2") {
		t.Fatalf("check of a broken record: exit %d %s", code, out)
	}
	// With no bot and no file: a clear failure.
	code, _, errs = runCmd(t, "", "check", "--db", filepath.Join(dir, "none.db"))
	if code != 2 || !strings.Contains(errs, "does not exist") {
		t.Fatalf("missing file: %d %s", code, errs)
	}
}
