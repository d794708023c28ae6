package service

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReplayGate(t *testing.T) {
	defer func(w time.Duration) { replayWait = w }(replayWait)
	replayWait = 20 * time.Millisecond
	g := newReplayGate(1)

	leaveA, err := g.enter("ana")
	if err != nil {
		t.Fatal(err)
	}
	// The same player again while hers is drawn: refused at once.
	if _, err := g.enter("ana"); err == nil || !strings.Contains(err.Error(), "still being drawn") {
		t.Fatalf("a second replay of one player: %v", err)
	}
	// Another player waits for the only slot, then is told to come back.
	if _, err := g.enter("bo"); err == nil || !strings.Contains(err.Error(), "try again in a minute") {
		t.Fatalf("a replay with every slot taken: %v", err)
	}
	// bo's refusal left no trace: once ana's is done both may go again.
	leaveA()
	leaveB, err := g.enter("bo")
	if err != nil {
		t.Fatalf("bo after ana's replay: %v", err)
	}
	done := make(chan error, 1)
	replayWait = time.Minute
	go func() {
		leave, err := g.enter("ana")
		if err == nil {
			leave()
		}
		done <- err
	}()
	// ana is past the check of her own replays, on her way to wait for
	// bo's slot (a slot freed before she waits is hers all the same).
	for waiting := false; !waiting; runtime.Gosched() {
		g.mu.Lock()
		waiting = g.active["ana"]
		g.mu.Unlock()
	}
	leaveB()
	if err := <-done; err != nil {
		t.Fatalf("a waiting replay did not get the freed slot: %v", err)
	}
}
