package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/service"
)

// recordFile writes the record /export would give of a 2-player game of
// game played with k random moves (then a resignation unless it ended),
// and returns its path.
func recordFile(t *testing.T, game string, k int, seed uint64) string {
	t.Helper()
	setup := engine.Setup{Game: game, Players: 2, Seed: seed}
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(seed)
	g := &tessera.Game{ID: 12, Status: tessera.StatusFinished, Setup: setup, Players: []tessera.Player{{ID: "1", Name: "ana"}, {ID: "2", Name: "bo"}}}
	at := time.Unix(1700000000, 0).UTC()
	for i := 0; i < k && !st.Over(); i++ {
		legal := st.Legal()
		m := legal[r.IntN(len(legal))]
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(st.ToMove()), Text: m.String(), At: at})
		st.Apply(m)
	}
	if !st.Over() {
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: int(st.ToMove()), Text: "resign", At: at})
	}
	rec, err := service.RecordOf(g)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rec)
	path := filepath.Join(t.TempDir(), "game-12.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnalyzeRecord: `tessera analyze --record` prints one entry per
// record entry with chances summing to 1, the end's result, and the same
// JSON on a second run (deterministic for the seed); a file that is not
// a record and missing flags are refused.
func TestAnalyzeRecord(t *testing.T) {
	path := recordFile(t, "closure", 10, 4)
	chart := filepath.Join(t.TempDir(), "chart.png")
	code, out, errs := runCmd(t, "", "analyze", "--record", path, "--iterations", "40", "--png", chart)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if png, err := os.ReadFile(chart); err != nil || len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("chart: %v", err)
	}
	var got analysisJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Game != "closure" || got.Iterations != 40 || got.Seed != 12 || len(got.Moves) != 11 || got.Moves[10].Move != "resign" {
		t.Fatalf("analysis %+v", got)
	}
	for _, m := range got.Moves {
		sum := 0.0
		for _, v := range m.Before {
			sum += v
		}
		if len(m.Before) != 2 || math.Abs(sum-1) > 1e-9 || m.Best == "" || len(m.BestChances) != 2 {
			t.Fatalf("move %d: %+v", m.N, m)
		}
	}
	if w := got.End; len(w) != 2 || w[0]+w[1] != 1 || (w[0] != 1 && w[1] != 1) {
		t.Fatalf("end %v", w)
	}
	// The same analysis again, wall-clock time aside.
	_, again, _ := runCmd(t, "", "analyze", "--record", path, "--iterations", "40")
	var second analysisJSON
	json.Unmarshal([]byte(again), &second)
	got.Seconds, second.Seconds = 0, 0
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(second)
	if string(a) != string(b) {
		t.Fatal("two analyses of one record differ")
	}

	if code, _, errs := runCmd(t, "", "analyze", "--record", "../../docs/examples/closure.moves"); code != 1 || !strings.Contains(errs, "not a record file") {
		t.Fatalf("a moves file: exit %d %s", code, errs)
	}
	if code, _, _ := runCmd(t, "", "analyze"); code != 2 {
		t.Fatalf("no --record: exit %d", code)
	}
}

// TestCalibrateCommand: `tessera calibrate` prints a report and draws its
// diagram; --merge of two reports adds their games up.
func TestCalibrateCommand(t *testing.T) {
	dir := t.TempDir()
	var reports []string
	for _, seed := range []string{"1", "2"} {
		code, out, errs := runCmd(t, "", "calibrate", "--game", "knotwork", "-n", "2", "--seed", seed, "--iterations", "40", "--png", filepath.Join(dir, "d.png"))
		if code != 0 || !strings.Contains(out, `"games":2`) {
			t.Fatalf("exit %d: %s %s", code, out, errs)
		}
		p := filepath.Join(dir, seed+".json")
		os.WriteFile(p, []byte(out), 0o600)
		reports = append(reports, p)
	}
	if png, err := os.ReadFile(filepath.Join(dir, "d.png")); err != nil || string(png[1:4]) != "PNG" {
		t.Fatalf("diagram: %v", err)
	}
	code, out, errs := runCmd(t, "", append([]string{"calibrate", "--merge"}, reports...)...)
	if code != 0 || !strings.Contains(out, `"games":4`) {
		t.Fatalf("merge: exit %d: %s %s", code, out, errs)
	}
	if code, _, _ := runCmd(t, "", "calibrate", "--game", "knotwork", "--self", "champion"); code != 2 {
		t.Fatalf("a bad --self: exit %d", code)
	}
}

// TestAnalyzeExportedRecord: the record a user exports (the console's
// /export of a finished game, the same Service.Export as Discord's) is
// what `tessera analyze --record` reads. The game: the README's example
// game of Elemental (seed 7, borders RBGY), its first six moves played
// through the console, then bo resigns. Each move's chances before (and
// after, where the search tried the move) sum to 1 over the two seats,
// and the move the AI preferred is legal in the position before it.
func TestAnalyzeExportedRecord(t *testing.T) {
	t.Chdir("../..")
	text, err := os.ReadFile("docs/examples/elemental.moves")
	if err != nil {
		t.Fatal(err)
	}
	script := []string{"ana: /new elemental bo borders=RBGY", "bo: /accept"}
	var played []string
	for _, line := range strings.Split(string(text), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(played) == 6 {
			break
		}
		script = append(script, []string{"ana", "bo"}[len(played)%2]+": /move "+line)
		played = append(played, line)
	}
	script = append(script, "bo: /resign", "bo: /click resign:1", "ana: /export #1", "quit")
	env := consoleEnv(t, filepath.Join(t.TempDir(), "t.db"))
	code, out, errs := runWithEnv(t, env, strings.Join(script, "\n")+"\n", "--seed", "7")
	if code != 0 {
		t.Fatalf("console: exit %d: %s", code, errs)
	}
	exported, _ := filepath.Glob(filepath.Join(env["TESSERA_PICTURES"], "*game-1.json"))
	if len(exported) != 1 {
		t.Fatalf("exported records %v; console output:\n%s", exported, out)
	}

	code, js, errs := runCmd(t, "", "analyze", "--record", exported[0], "--iterations", "40")
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	var got analysisJSON
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	if got.Game != "elemental" || got.Players != 2 || got.Seed != 1 || len(got.Moves) != len(played)+1 || got.Moves[len(played)].Move != "resign" {
		t.Fatalf("analysis of the exported record: %+v", got)
	}
	// The position before each move, replayed from the same setup.
	st, err := engine.New(engine.Setup{Game: "elemental", Players: 2, Seed: 7, Options: map[string]string{"borders": "RBGY"}})
	if err != nil {
		t.Fatal(err)
	}
	sumsToOne := func(w []float64) bool { return len(w) == 2 && math.Abs(w[0]+w[1]-1) < 1e-9 }
	for i, m := range got.Moves {
		if m.N != i+1 || !sumsToOne(m.Before) || !sumsToOne(m.BestChances) || m.After != nil && !sumsToOne(m.After) {
			t.Fatalf("move %d: chances that do not sum to 1: %+v", i+1, m)
		}
		best, err := st.Parse(m.Best)
		if err != nil || !slices.ContainsFunc(st.Legal(), func(l engine.Move) bool { return l.String() == best.String() }) {
			t.Fatalf("move %d: the preferred move %q is not legal there (%v)", i+1, m.Best, err)
		}
		if i < len(played) {
			if m.Move != played[i] || m.Seat != i%2+1 {
				t.Fatalf("move %d: %+v, want %s by seat %d", i+1, m, played[i], i%2+1)
			}
			mv, err := st.Parse(m.Move)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Apply(mv); err != nil {
				t.Fatal(err)
			}
		}
	}
	if w := got.End; len(w) != 2 || w[0] != 1 || w[1] != 0 {
		t.Fatalf("the end after bo resigned: %v, want ana's win", w)
	}
}
