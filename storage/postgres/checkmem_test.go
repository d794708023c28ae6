package postgres

// How much memory Check takes on a large database: a measurement, not a
// test that can fail on a number. Run it by hand:
//
//	TESSERA_CHECKMEM=100000 go test -run '^TestCheckMemory$' -v -timeout 2h ./storage/postgres/
//
// It loads that many finished games (each with 60 moves, players, a
// channel and a thread) into a fresh database of the test server, then
// runs Check and a walk of every game (All, as tessera check does) in a
// fresh process (this test binary again) and prints the process's peak
// resident memory (VmHWM) and the memory Go took from the system.

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
	"tessera/storage/postgres/pgtest"
)

func TestCheckMemory(t *testing.T) {
	if url := os.Getenv("TESSERA_CHECKMEM_URL"); url != "" {
		checkMemoryChild(t, url)
		return
	}
	n, _ := strconv.Atoi(os.Getenv("TESSERA_CHECKMEM"))
	if n <= 0 {
		t.Skip("a measurement: set TESSERA_CHECKMEM to a number of games")
	}
	url := pgtest.Database(t)
	s, err := Open(t.Context(), url, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var moves []tessera.MoveEntry
	for i := range 60 {
		moves = append(moves, tessera.MoveEntry{Seat: i % 2, Text: fmt.Sprintf("%c%d RGBY", 'a'+i%9, i%9+1), At: at.Add(time.Duration(i) * time.Hour)})
	}
	const batch = 2000 // a transaction each
	for from := 0; from < n; from += batch {
		err := s.inTx(t.Context(), func(tx *Tx) error {
			for i := from; i < min(n, from+batch); i++ {
				g := &tessera.Game{ID: uint64(i + 1), Version: 61, Status: tessera.StatusFinished,
					Setup: engine.Setup{Game: "elemental", Players: 2, Seed: uint64(i)}, Moves: moves,
					GuildID: fmt.Sprint("guild", i%4), ChannelID: fmt.Sprint("channel", i%40), ThreadID: fmt.Sprint("thread", i),
					Players: []tessera.Player{{ID: fmt.Sprint("player", i%(n/20+2)), Name: "Ada"}, {ID: fmt.Sprint("player", (i+7)%(n/20+2)), Name: "Grace"}},
					Created: at, Updated: at.Add(60 * time.Hour)}
				if err := tx.putGame(t.Context(), g, nil); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	t.Logf("loaded %d games in %v", n, time.Since(start).Round(time.Second))
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckMemory$", "-test.v")
	cmd.Env = append(os.Environ(), "TESSERA_CHECKMEM_URL="+url)
	out, err := cmd.CombinedOutput()
	report := ""
	for _, line := range strings.Split(string(out), "\n") {
		if i := strings.Index(line, "MEMORY "); i >= 0 {
			report = line[i+7:]
		}
	}
	if err != nil || report == "" {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("check of %d games: %s", n, report)
}

func checkMemoryChild(t *testing.T, url string) {
	s, err := Open(t.Context(), url, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	if errs := s.Check(t.Context()); len(errs) > 0 {
		t.Fatal(errs)
	}
	games := 0
	if err := s.All(t.Context(), func(*tessera.Game) error { games++; return nil }); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b, _ := os.ReadFile("/proc/self/status")
	hwm := 0
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			hwm, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	t.Logf("MEMORY peak RSS (VmHWM) %d MB, Go's memory from the system %d MB, %v, %d games", hwm>>10, ms.Sys>>20, elapsed.Round(time.Millisecond), games)
}
