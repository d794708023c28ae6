package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/engine"
)

func TestPlayoutsJSON(t *testing.T) {
	code, out, errs := runCmd(t, "", "playouts", "--game", "knotwork", "--seconds", "0.2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["game"] != "knotwork" || got["players"] != 2.0 || !(got["playouts_per_second"].(float64) > 0) || !(got["moves_per_playout"].(float64) >= 8) || len(got) != 4 {
		t.Fatalf("%s", out)
	}
	if code, _, _ := runCmd(t, "", "playouts", "--game", "knotwork", "--players", "3"); code != 2 {
		t.Fatalf("3-player knotwork: exit %d", code)
	}
	code, _, errs = runCmd(t, "", "playouts", "--game", "knotwork", "--players", "1", "--option", "puzzle=easy", "--seconds", "0.2")
	if code != 2 || !strings.Contains(errs, "puzzle") {
		t.Fatalf("a puzzle: exit %d %s", code, errs)
	}
	// A game with no 1-player form says what it does allow, not "puzzle".
	code, _, errs = runCmd(t, "", "playouts", "--game", "closure", "--players", "1", "--seconds", "0.2")
	if code != 2 || strings.Contains(errs, "puzzle") || !strings.Contains(errs, "2 to 3 players") {
		t.Fatalf("1-player closure: exit %d %s", code, errs)
	}
}

// TestAIMove: the AI's move for the seat to move after a moves file is
// legal there, and the same seed gives the same move.
func TestAIMove(t *testing.T) {
	moves := filepath.Join(t.TempDir(), "m.txt")
	os.WriteFile(moves, []byte("e6 NES*\nd5 ES*\n"), 0o644)
	args := []string{"ai", "--game", "knotwork", "--level", "easy", "--ai-seed", "5", "--think", "1h", moves}
	code, out, errs := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got aiResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Playouts != 300 || !strings.Contains(out, `"ms":`) {
		t.Fatalf("%s", out)
	}
	st, _, _ := replay(engine.Setup{Game: "knotwork", Players: 2, Seed: 1}, strings.NewReader("e6 NES*\nd5 ES*\n"))
	if _, err := st.Parse(got.Move); err != nil {
		t.Fatalf("the AI's move %q is not legal: %v", got.Move, err)
	}
	_, again, _ := runCmd(t, "", args...)
	var got2 aiResult
	json.Unmarshal([]byte(again), &got2)
	if got2.Move != got.Move {
		t.Fatalf("seed 5 chose %s, then %s", got.Move, got2.Move)
	}
	if code, _, errs := runCmd(t, "", "ai", "--game", "knotwork", "--think", "-5s", moves); code != 2 || !strings.Contains(errs, "above zero") {
		t.Fatalf("a negative think: exit %d %s", code, errs)
	}
	if code, _, errs := runCmd(t, "", "ai", "--game", "knotwork", "--level", "genius", moves); code != 2 || !strings.Contains(errs, "genius") {
		t.Fatalf("an unknown level: exit %d %s", code, errs)
	}
}

func TestLabTable(t *testing.T) {
	code, out, errs := runCmd(t, "", "lab", "--game", "knotwork", "-n", "2", "--seats", "greedy,random", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"knotwork, 2 players, 2 games, seed 3", "1:greedy", "2:random", "seat 1", "95% interval"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in\n%s", want, out)
		}
	}
	code, out, _ = runCmd(t, "", "lab", "--game", "knotwork", "-n", "2", "--seats", "greedy,random", "--seed", "3", "--json")
	var rep struct {
		Players []struct{ Games int }
		Games   []struct{ Moves []string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Games) != 2 || rep.Players[0].Games != 2 || len(rep.Games[0].Moves) == 0 {
		t.Fatalf("--json: exit %d\n%.300s", code, out)
	}
	if code, _, errs := runCmd(t, "", "lab", "--game", "knotwork", "--seats", "hard"); code != 1 || !strings.Contains(errs, "seats") {
		t.Fatalf("one seat for two players: exit %d %s", code, errs)
	}
}
