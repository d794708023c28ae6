package main

// How much memory `tessera check` and `tessera backup` take on a large
// database: a measurement, not a test that can fail on a number (tests
// never assert on the machine). Run it by hand:
//
//	TESSERA_CHECKMEM=100000 go test -run '^TestCheckMemory$' -v -timeout 2h ./cmd/tessera/
//
// It fills a bbolt file with that many finished games (real records,
// played to the end by random legal moves, so that check replays them),
// keeps it in TESSERA_CHECKMEM_DIR (default: a directory under the
// system's temporary one, reused by the next run with the same count),
// then runs check and backup each in a fresh process (this test binary
// again) and prints the process's peak resident memory (VmHWM, which
// counts the file's pages mapped in, not only Go's heap) and the memory
// Go took from the system (runtime.MemStats.Sys).

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/ai"
	"tessera/engine"
	"tessera/storage"
	"tessera/storage/boltdb"
)

func TestCheckMemory(t *testing.T) {
	if os.Getenv("TESSERA_CHECKMEM_CHILD") != "" {
		checkMemoryChild(t)
		return
	}
	n, _ := strconv.Atoi(os.Getenv("TESSERA_CHECKMEM"))
	if n <= 0 {
		t.Skip("a measurement: set TESSERA_CHECKMEM to a number of games")
	}
	dir := os.Getenv("TESSERA_CHECKMEM_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "tessera-checkmem")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, fmt.Sprintf("games-%d.db", n))
	if _, err := os.Stat(db); err != nil {
		start := time.Now()
		if err := fillGames(t.Context(), db+".tmp", n); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(db+".tmp", db); err != nil {
			t.Fatal(err)
		}
		t.Logf("filled %s with %d games in %v", db, n, time.Since(start).Round(time.Second))
	}
	info, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games, file %d MB", n, info.Size()>>20)
	for _, what := range []string{"check", "backup"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCheckMemory$", "-test.v")
		cmd.Env = append(os.Environ(), "TESSERA_CHECKMEM_CHILD="+what, "TESSERA_CHECKMEM_DB="+db)
		out, err := cmd.CombinedOutput()
		report := ""
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "MEMORY ") {
				report = line[strings.Index(line, "MEMORY ")+7:]
			}
		}
		if err != nil || report == "" {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
		t.Logf("%s: %s", what, report)
	}
}

// checkMemoryChild runs one command and prints what it took.
func checkMemoryChild(t *testing.T) {
	db := os.Getenv("TESSERA_CHECKMEM_DB")
	var out strings.Builder
	start := time.Now()
	var code int
	switch os.Getenv("TESSERA_CHECKMEM_CHILD") {
	case "check":
		code = runCheck([]string{"--db", db}, &out, &out, func(string) string { return "" })
	case "backup":
		dst := db + ".backup"
		defer os.Remove(dst)
		code = runBackup([]string{"--db", db, dst}, &out, &out, func(string) string { return "" })
	}
	elapsed := time.Since(start)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, out.String())
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("MEMORY peak RSS (VmHWM) %d MB, Go's memory from the system %d MB, %v: %s",
		vmHWM(t)>>10, ms.Sys>>20, elapsed.Round(time.Millisecond), strings.TrimSpace(out.String()))
}

// vmHWM is the process's peak resident set size in kB.
func vmHWM(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// fillGames writes n finished games into a new bbolt file: a few records
// played to the end by random legal moves in each of the engine's games,
// each stored many times with its own id and players.
func fillGames(ctx context.Context, path string, n int) error {
	var records []*tessera.Game
	for _, eg := range engine.Games() {
		for seed := uint64(1); seed <= 5; seed++ {
			g := &tessera.Game{Status: tessera.StatusFinished, Setup: engine.Setup{Game: eg.ID, Players: 2, Seed: seed}}
			st, err := engine.New(g.Setup)
			if err != nil {
				return err
			}
			r := engine.NewRand(seed)
			at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			for !st.Over() && len(g.Moves) < 400 {
				m := ai.RandomMove(st, &r)
				if m == nil {
					break
				}
				seat := st.ToMove()
				o, err := st.Apply(m)
				if err != nil {
					return err
				}
				at = at.Add(37 * time.Minute)
				g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(seat), Text: o.Move, At: at})
			}
			if st.Over() {
				records = append(records, g)
			}
		}
	}
	if len(records) == 0 {
		return fmt.Errorf("no random game ended")
	}
	st, err := boltdb.Open(path, storage.Options{NoSync: true})
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Load(ctx, func(put func(storage.Record) error) error {
		for i := range n {
			g := *records[i%len(records)]
			g.ID = uint64(i + 1)
			g.Version = uint64(len(g.Moves) + 1)
			g.GuildID = fmt.Sprint("guild", i%4)
			g.ChannelID = fmt.Sprint("channel", i%40)
			g.ThreadID = fmt.Sprint("thread", i)
			g.Players = []tessera.Player{{ID: fmt.Sprint("player", i%(n/20+2)), Name: "Ada"}, {ID: fmt.Sprint("player", (i+7)%(n/20+2)), Name: "Grace"}}
			g.Created = g.Moves[0].At
			g.Updated = g.Moves[len(g.Moves)-1].At
			if err := put(storage.Record{Game: &g}); err != nil {
				return err
			}
		}
		return nil
	})
}
