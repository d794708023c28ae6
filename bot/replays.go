package bot

import (
	"sync"
	"time"
)

// A signed interaction request stays valid for MaxInteractionAge on each
// side of its timestamp (webhook.go), and the signature covers the body,
// interaction id included: whoever recorded a request can send it again
// for minutes, and for an autocomplete, which the store does not record
// as handled, the bot would answer again with what the recorded player
// saw (a mover's legal moves). So the endpoint remembers the ids it took
// and refuses one it has seen; Discord never sends one interaction twice.
//
// An id needs remembering only while a replay of it could pass the
// timestamp check: the request arrived within MaxInteractionAge of its
// timestamp, and a replay passes within MaxInteractionAge of it too, so
// 2×MaxInteractionAge after its arrival it is refused as stale anyway.
// The memory is bounded: past maxRemembered ids within that window the
// oldest is forgotten (and a replay of it would pass again); at 64 Ki
// ids in 10 minutes that takes over 100 interactions a second, which a
// process that serves them has memory for (an id is about 100 bytes
// here) and an attacker cannot make, since only Discord signs requests.

// maxRemembered bounds the ids the endpoint remembers.
const maxRemembered = 1 << 16

// replays are the interaction ids seen within the replay window.
type replays struct {
	mu    sync.Mutex
	max   int
	seen  map[string]struct{}
	queue []seenID // in order of arrival, from head: the first is forgotten first
	head  int
}

type seenID struct {
	id     string
	forget time.Time
}

func newReplays(max int) *replays {
	return &replays{max: max, seen: map[string]struct{}{}}
}

// first records id, seen at now, and reports whether it is new: false
// for an id seen within the window.
func (r *replays) first(id string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.head < len(r.queue) && (!now.Before(r.queue[r.head].forget) || len(r.queue)-r.head >= r.max) {
		delete(r.seen, r.queue[r.head].id)
		r.queue[r.head] = seenID{}
		r.head++
	}
	if r.head > len(r.queue)/2 { // compact now and then: amortised O(1)
		r.queue = append(r.queue[:0], r.queue[r.head:]...)
		r.head = 0
	}
	if _, ok := r.seen[id]; ok {
		return false
	}
	r.seen[id] = struct{}{}
	r.queue = append(r.queue, seenID{id: id, forget: now.Add(2 * MaxInteractionAge)})
	return true
}

// len is how many ids are remembered (for tests).
func (r *replays) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}
