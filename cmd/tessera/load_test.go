package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestLoad: a short load run on a temporary bbolt file stores moves, and
// (given time to drain) delivers every one of them exactly once, with
// latencies in order. Nothing here is timed: only counts are checked.
func TestLoad(t *testing.T) {
	var out, errb bytes.Buffer
	// At 50 moves a second, about 15 moves, each announced with a board:
	// unpaced, 0.3 s made hundreds, whose pictures took 20 s to draw.
	if code := run([]string{"load", "--games", "4", "--seconds", "0.3", "--rate", "50", "--drain", "300", "--nosync"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r loadResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if r.Database != "bbolt" || r.Games != 4 || r.Game != "elemental" {
		t.Fatalf("%+v", r)
	}
	if r.MovesStored == 0 || r.MovesDelivered != r.MovesStored || r.Backlog != 0 || r.Refused != 0 {
		t.Fatalf("stored %d, delivered %d, backlog %d, refused %d", r.MovesStored, r.MovesDelivered, r.Backlog, r.Refused)
	}
	if !(r.P50ms > 0 && r.P50ms <= r.P99ms && r.P99ms <= r.MaxMs) || !(r.StoredPerSec > 0 && r.DeliveredPerSec > 0) {
		t.Fatalf("%+v", r)
	}
}

func TestLoadRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--games", "0"}, {"--seconds", "0"}, {"--workers", "0"}, {"--game", "chess"}, {"extra"}} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"load"}, args...), nil, &out, &errb); code != 2 {
			t.Fatalf("%v: exit %d", args, code)
		}
		if out.Len() != 0 || !strings.Contains(errb.String(), "load") && !strings.Contains(errb.String(), "game") {
			t.Fatalf("%v: stdout %q stderr %q", args, out.String(), errb.String())
		}
	}
}
