package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaleFillAndMeasure fills a small file and measures it: the fill
// must be a database the project's own tools accept as made by the bot
// (every game replays, every stored rating equals one computed again
// from the finished games), and measure must report every operation.
func TestScaleFillAndMeasure(t *testing.T) {
	db := filepath.Join(t.TempDir(), "scale.db")
	var out, errb bytes.Buffer
	if code := run([]string{"scale", "fill", "--db", db, "--stored", "200", "--templates", "2"}, nil, &out, &errb); code != 0 {
		t.Fatalf("fill: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "200 finished games, 20 in play") {
		t.Fatalf("fill said %q", out.String())
	}
	// A second fill would mix two populations: refused.
	out.Reset()
	errb.Reset()
	if code := run([]string{"scale", "fill", "--db", db, "--stored", "200", "--templates", "2"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "empty") {
		t.Fatalf("second fill: exit %d, %q", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"check", "--db", db}, nil, &out, &errb); code != 0 {
		t.Fatalf("check of the filled file: exit %d: %s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"ratings", "--db", db}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), " 0 differ") {
		t.Fatalf("ratings of the filled file: exit %d: %s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"scale", "measure", "--db", db, "--samples", "3", "--tools=false"}, nil, &out, &errb); code != 0 {
		t.Fatalf("measure: exit %d: %s", code, errb.String())
	}
	var res scaleResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("measure printed %q: %v", out.String(), err)
	}
	if res.Database != "bbolt" || res.Games != 200+20+8 {
		t.Fatalf("measured %s with %d games", res.Database, res.Games)
	}
	names := map[string]scaleOp{}
	for _, op := range res.Ops {
		names[op.Name] = op
	}
	for _, want := range []string{"tick, nothing due", "move through the service", "/move without game: in a channel",
		"chat line in a channel", "/profile", "/leaderboard", "/history", "/games", "/challenges",
		"web game page, first view", "web player page", "web leaderboard", "tick, reminders due"} {
		op, ok := names[want]
		if !ok || op.Samples == 0 {
			t.Errorf("no figures for %q in %+v", want, res.Ops)
		}
	}
	// A move reads its game and nothing else through the lists.
	if op := names["move through the service"]; op.Read < 1 {
		t.Errorf("a move read %d records: the port is not counted", op.Read)
	}
}
