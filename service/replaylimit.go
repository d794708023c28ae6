package service

import (
	"runtime"
	"sync"
	"time"

	"tessera"
)

// A replay draws and encodes up to replay.max_moves frames (about 10 ms of
// a core each), so a player who runs /replay again and again could keep
// the machine busy and slow every other command. replayGate bounds that:
// one replay at a time per player, and at most half the cores drawing
// replays at once; a replay that waits longer than replayWait for a turn
// is refused with a message saying to try again.
type replayGate struct {
	slots  chan struct{}
	mu     sync.Mutex
	active map[string]bool // players with a replay being drawn
}

// replayWait is how long a replay may wait for a free slot; the
// interaction is deferred, so the player sees "thinking" meanwhile.
var replayWait = time.Minute

func newReplayGate(slots int) *replayGate {
	if slots < 1 {
		slots = max(1, runtime.NumCPU()/2)
	}
	return &replayGate{slots: make(chan struct{}, slots), active: map[string]bool{}}
}

// enter takes user's turn to draw a replay, or says why not; leave gives
// it back.
func (g *replayGate) enter(user string) (leave func(), err error) {
	g.mu.Lock()
	if g.active[user] {
		g.mu.Unlock()
		return nil, errorf(tessera.EINVALID, "Your last replay is still being drawn; it will be here in a moment.")
	}
	g.active[user] = true
	g.mu.Unlock()
	done := func() {
		g.mu.Lock()
		delete(g.active, user)
		g.mu.Unlock()
	}
	select {
	case g.slots <- struct{}{}:
	case <-time.After(replayWait):
		done()
		return nil, errorf(tessera.EINVALID, "I am drawing other replays right now; try again in a minute.")
	}
	return func() {
		<-g.slots
		done()
	}, nil
}
