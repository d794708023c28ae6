package web

// Live updates: a hub keeps, for each game that has open pages, the set of
// its event streams and one poller that reads the game's version from the
// store every Config.Poll. The store is where every process's moves meet
// (several processes may share one PostgreSQL database), so a move made
// anywhere (Discord, the console, another page, the AI) reaches every
// page. A change is handed to each stream as the latest state, never
// queued: a slow reader gets the newest position, not a backlog. The
// streams run in net/http's goroutines; the hub adds one per watched game.

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"tessera/storage"
)

// change is what a page learns: the game's version and how many record
// entries it has.
type change struct {
	Version uint64 `json:"version"`
	Moves   int    `json:"moves"`
	Status  string `json:"status"`
}

// stream is one open page's mailbox: the latest change it has not read.
type stream struct {
	c      chan change // capacity 1: the newest change replaces an unread one
	client string      // the address it counts against (clientAddress)
}

func (st *stream) put(c change) {
	for {
		select {
		case st.c <- c:
			return
		default:
		}
		select { // full: drop the unread older change and try again
		case <-st.c:
		default:
		}
	}
}

// watch is one game's poller and its streams.
type watch struct {
	streams map[*stream]struct{}
	last    change
	stop    context.CancelFunc
}

type hub struct {
	games storage.Games
	poll  time.Duration
	max   int // streams open at once at most
	// perClient is the most streams one client address keeps open.
	perClient int
	live      LiveCounter
	log       *slog.Logger

	mu      sync.Mutex
	watches map[uint64]*watch
	open    int            // streams open, over every game
	clients map[string]int // streams open, by client address
	closed  bool
	done    chan struct{} // closed by close: every stream ends
	wg      sync.WaitGroup
}

func newHub(games storage.Games, poll time.Duration, max int, live LiveCounter, log *slog.Logger) *hub {
	return &hub{games: games, poll: poll, max: max, live: live, log: log, watches: map[uint64]*watch{}, clients: map[string]int{}, perClient: max, done: make(chan struct{})}
}

// Why subscribe refused a stream.
var (
	errHubClosed  = errors.New("web: the server is shutting down")
	errHubFull    = errors.New("web: too many live pages open")
	errClientFull = errors.New("web: too many live pages open from one address")
)

// subscribe opens a stream on game id, whose state the page last saw as
// seen and the store last gave as now; the stream gets the newest change
// at once when the page is behind (a reconnection's Last-Event-ID). It
// refuses once the hub is closed (errHubClosed), while max streams are
// open (errHubFull) or while client, the asker's address, holds
// perClient of them (errClientFull).
func (h *hub) subscribe(id uint64, seen uint64, now change, client string) (*stream, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return nil, errHubClosed
	case h.clients[client] >= h.perClient:
		return nil, errClientFull
	case h.open >= h.max:
		return nil, errHubFull
	}
	h.open++
	h.clients[client]++
	st := &stream{c: make(chan change, 1), client: client}
	w := h.watches[id]
	if w == nil {
		ctx, cancel := context.WithCancel(context.Background())
		w = &watch{streams: map[*stream]struct{}{}, last: now, stop: cancel}
		h.watches[id] = w
		h.wg.Add(1)
		go h.run(ctx, id, w)
	} else if now.Version > w.last.Version { // versions only grow
		w.last = now
	}
	if w.last.Version != seen {
		st.put(w.last)
	}
	w.streams[st] = struct{}{}
	if h.live != nil {
		h.live.LiveOpened()
	}
	return st, nil
}

// unsubscribe closes a stream; the game's poller stops with its last one.
func (h *hub) unsubscribe(id uint64, st *stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.watches[id]
	if w == nil {
		return
	}
	if _, ok := w.streams[st]; !ok {
		return
	}
	delete(w.streams, st)
	h.open--
	if h.clients[st.client]--; h.clients[st.client] <= 0 {
		delete(h.clients, st.client)
	}
	if h.live != nil {
		h.live.LiveClosed()
	}
	if len(w.streams) == 0 {
		w.stop()
		delete(h.watches, id)
	}
}

// run polls one game's version until its last stream closes.
func (h *hub) run(ctx context.Context, id uint64, w *watch) {
	defer h.wg.Done()
	t := time.NewTicker(h.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		g, err := h.games.Game(ctx, id)
		if err != nil {
			if ctx.Err() == nil { // the store's error: read again at the next tick
				h.log.Warn("web: reading a watched game", "game", id, "err", err)
			}
			continue
		}
		c := change{Version: g.Version, Moves: len(g.Moves), Status: string(g.Status)}
		h.mu.Lock()
		if c.Version != w.last.Version {
			w.last = c
			for st := range w.streams {
				st.put(c)
			}
		}
		h.mu.Unlock()
	}
}

// close stops every poller and ends every stream.
func (h *hub) close() {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		close(h.done)
		for _, w := range h.watches {
			w.stop()
		}
	}
	h.mu.Unlock()
	h.wg.Wait()
}
