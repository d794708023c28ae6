package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tessera"
	"tessera/delivery"
	"tessera/engine"
	"tessera/internal/cputime"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
)

// loadResult is what `tessera load` prints.
type loadResult struct {
	Database       string  `json:"database"` // "bbolt" or "postgres"
	Game           string  `json:"game"`
	Games          int     `json:"games"`
	Workers        int     `json:"courier_workers"`
	Seconds        float64 `json:"seconds"` // the moves' window
	Rate           float64 `json:"rate,omitempty"`
	MovesStored    int64   `json:"moves_stored"`
	MovesDelivered int64   `json:"moves_delivered"`
	Backlog        int64   `json:"backlog"` // moves stored and not delivered when it stopped
	Refused        int64   `json:"refused"`
	StoredPerSec   float64 `json:"moves_stored_per_second"`
	// DeliveredPerSec is the moves delivered over the time from the start
	// to the last delivery (the drain included).
	DeliveredPerSec float64 `json:"moves_delivered_per_second"`
	// DeliveredInWindow is the moves delivered while moves were still
	// being made, per second of that window.
	DeliveredInWindow float64 `json:"moves_delivered_per_second_in_window"`
	// DeliveredAlone is the moves delivered per second after the window,
	// when the courier has the machine to itself: its throughput, when
	// there was a backlog to work through (0 when there was none).
	DeliveredAlone float64 `json:"moves_delivered_per_second_alone"`
	// CPUPerMoveAlone is the process's CPU time after the window per move
	// delivered then: what one move costs the courier, which a machine
	// shared with other work changes much less than the rates above.
	CPUPerMoveAlone float64 `json:"cpu_ms_per_move_alone,omitempty"`
	P50ms           float64 `json:"p50_ms"` // move accepted -> its post delivered
	P99ms           float64 `json:"p99_ms"`
	MaxMs           float64 `json:"max_ms"`
}

// runLoad is `tessera load`: N games played at once with random legal
// moves through the service (parse, check, store) while the courier
// renders and delivers their announcements to an in-process transport
// that only counts and times them. Nothing leaves the machine. The games
// are made first (their threads and status messages delivered, for at
// most --drain seconds), then moves are made for --seconds, then the
// courier has at most --drain seconds more to catch up; it prints JSON.
func runLoad(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "a bbolt file or a postgres:// URL (default: a new file in a temporary directory, removed after)")
	games := fs.Int("games", 200, "games played at once")
	seconds := fs.Float64("seconds", 10, "how long moves are made")
	drain := fs.Float64("drain", 60, "at most this long for the courier to deliver the new games' messages before the moves, and what is left after them")
	workers := fs.Int("workers", runtime.NumCPU(), "courier workers (courier.workers)")
	game := fs.String("game", "elemental", "game id ("+gameIDs()+")")
	rate := fs.Float64("rate", 0, "moves per second over all games (0: as fast as they go)")
	seed := fs.Uint64("seed", 1, "seed of the deals and the moves")
	nosync := fs.Bool("nosync", false, "bbolt without fsync (not what the bot does)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera load [--db PATH|URL] [--games N] [--seconds S] [--drain S] [--workers N] [--rate R] [--game ID]\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 || *games < 1 || *games > 10000 || !(*seconds > 0) || *seconds > 3600 || !(*drain >= 0) || *drain > 3600 ||
		*workers < 1 || *workers > service.MaxCourierWorkers || *rate < 0 {
		fs.Usage()
		return 2
	}
	if _, err := engine.New(engine.Setup{Game: *game, Players: 2, Seed: 1}); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	dsn := *db
	if dsn == "" {
		dir, err := os.MkdirTemp("", "tessera-load")
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		dsn = filepath.Join(dir, "load.db")
	}
	if _, err := makeDatabaseFolder(dsn); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	store, err := database.Open(context.Background(), dsn, storage.Options{NoSync: *nosync})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer store.Close()
	l := &loader{game: *game, n: *games, seed: *seed, sink: newLoadSink()}
	var seeds atomic.Uint64
	seeds.Store(*seed * 1_000_003)
	l.svc = service.New(store, service.Config{Renderer: render.Renderer{},
		Seed:    func() uint64 { return seeds.Add(1) },
		Courier: service.CourierConfig{Workers: *workers},
	})
	res, err := l.run(time.Duration(*seconds*float64(time.Second)), time.Duration(*drain*float64(time.Second)), *rate)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	res.Database = "bbolt"
	if database.IsPostgres(dsn) {
		res.Database = "postgres"
	}
	res.Game, res.Games, res.Workers, res.Rate = *game, *games, *workers, *rate
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

type loader struct {
	svc  *service.Service
	sink *loadSink
	game string
	n    int
	seed uint64

	stored, refused atomic.Int64
	interactions    atomic.Int64
}

// moveKey names a move: its game and the record's length after it (what
// the move post's picture is called after).
type moveKey struct{ game, n uint64 }

func (l *loader) req(u service.User, channel string) service.Request {
	return service.Request{User: u, GuildID: "load", ChannelID: channel, InteractionID: fmt.Sprint("L", l.interactions.Add(1))}
}

// newGame starts a two-player game in slot i's channel and returns its
// id and position.
func (l *loader) newGame(ctx context.Context, i int) (uint64, engine.State, error) {
	ch := fmt.Sprint("c", i)
	a := service.User{ID: fmt.Sprint(i, "a"), Name: fmt.Sprint("A", i)}
	b := service.User{ID: fmt.Sprint(i, "b"), Name: fmt.Sprint("B", i)}
	r, err := l.svc.NewGame(l.req(a, ch), service.NewGameRequest{Game: l.game, Opponents: []service.User{b}, Options: "", Clock: ""})
	if err != nil {
		return 0, nil, err
	}
	var id uint64
	for _, btn := range r.Buttons {
		if _, err := fmt.Sscanf(btn.ID, "accept:%d", &id); err == nil {
			break
		}
	}
	if id == 0 {
		return 0, nil, fmt.Errorf("no accept button in %+v", r.Buttons)
	}
	if _, err := l.svc.Click(l.req(b, ch), fmt.Sprint("accept:", id)); err != nil {
		return 0, nil, err
	}
	g, err := l.svc.Store().Game(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	st, err := service.Replay(g)
	return id, st, err
}

// slot is one of the games played at once.
type slot struct {
	id uint64
	st engine.State
}

// play makes random legal moves in slot i's game until stop, starting a
// new game when one ends; tokens, when not nil, paces the moves.
func (l *loader) play(ctx context.Context, i int, g slot, stop <-chan struct{}, tokens <-chan struct{}) error {
	r := engine.NewRand(l.seed*7919 + uint64(i))
	ch := fmt.Sprint("c", i)
	users := []service.User{{ID: fmt.Sprint(i, "a"), Name: fmt.Sprint("A", i)}, {ID: fmt.Sprint(i, "b"), Name: fmt.Sprint("B", i)}}
	id, st := g.id, g.st
	var err error
	n := 0
	for {
		if tokens != nil {
			select {
			case <-stop:
				return nil
			case <-tokens:
			}
		}
		select {
		case <-stop:
			return nil
		default:
		}
		legal := st.Legal()
		if len(legal) == 0 || st.ToMove() < 0 {
			if id, st, err = l.newGame(ctx, i); err != nil {
				return err
			}
			n = 0
			continue
		}
		m := legal[r.IntN(len(legal))]
		_, err := l.svc.Move(l.req(users[st.ToMove()], ch), fmt.Sprint(id), m.String())
		if err != nil {
			if tessera.ErrorCode(err) == tessera.EINTERNAL {
				return err // not a refusal: the store failed
			}
			l.refused.Add(1)
			continue
		}
		accepted := time.Now()
		n++
		l.sink.accepted(moveKey{id, uint64(n)}, accepted)
		l.stored.Add(1)
		if _, err := st.Apply(m); err != nil {
			return fmt.Errorf("game %d: %s was accepted but does not apply: %w", id, m, err)
		}
	}
}

func (l *loader) run(window, drain time.Duration, rate float64) (loadResult, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var courierErr error
	courierDone := make(chan struct{})
	courier := delivery.New(l.svc, l.svc.Store())
	go func() {
		defer close(courierDone)
		for ctx.Err() == nil {
			if _, err := courier.Deliver(ctx, l.sink); err != nil && ctx.Err() == nil {
				courierErr = err
				return
			}
			select {
			case <-ctx.Done():
			case <-l.svc.Wake():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	stop := make(chan struct{})
	var tokens chan struct{}
	if rate > 0 {
		tokens = make(chan struct{})
		go func() {
			t := time.NewTicker(time.Duration(float64(time.Second) / rate))
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					select {
					case tokens <- struct{}{}:
					case <-stop:
						return
					}
				}
			}
		}()
	}
	// The games are made first and their threads and status messages
	// delivered, so that the window times moves only.
	slots := make([]slot, l.n)
	made := make(chan int)
	var mu sync.Mutex
	var setupErr error
	var wg sync.WaitGroup
	for range min(l.n, 8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range made {
				id, st, err := l.newGame(ctx, i)
				mu.Lock()
				if err != nil && setupErr == nil {
					setupErr = fmt.Errorf("game slot %d: %w", i, err)
				}
				slots[i] = slot{id, st}
				mu.Unlock()
			}
		}()
	}
	for i := range l.n {
		made <- i
	}
	close(made)
	wg.Wait()
	if setupErr != nil {
		return loadResult{}, setupErr
	}
	for until := time.Now().Add(drain); time.Now().Before(until); {
		if n, err := l.svc.Store().Outbox(ctx); err != nil {
			return loadResult{}, err
		} else if n == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	l.sink.start(start)
	errs := make(chan error, l.n)
	for i := range l.n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.play(ctx, i, slots[i], stop, tokens); err != nil {
				errs <- fmt.Errorf("game slot %d: %w", i, err)
			}
		}()
	}
	time.Sleep(window)
	close(stop)
	wg.Wait()
	moved := time.Since(start)
	inWindow := l.sink.deliveredCount()
	// The courier catches up, for at most drain.
	drained := time.Now()
	cpu0, cpuOK := cputime.Process()
	deadline := drained.Add(drain)
	for l.sink.deliveredCount() < l.stored.Load() && time.Now().Before(deadline) {
		select {
		case <-courierDone:
			deadline = time.Now()
		case <-time.After(20 * time.Millisecond):
		}
	}
	cpu1, _ := cputime.Process()
	cancel()
	<-courierDone
	close(errs)
	for err := range errs {
		return loadResult{}, err
	}
	if courierErr != nil {
		return loadResult{}, courierErr
	}
	res := loadResult{Seconds: round2(moved.Seconds()), MovesStored: l.stored.Load(), Refused: l.refused.Load()}
	lat, last := l.sink.latencies()
	res.MovesDelivered = int64(len(lat))
	res.Backlog = res.MovesStored - res.MovesDelivered
	res.StoredPerSec = round2(float64(res.MovesStored) / moved.Seconds())
	res.DeliveredInWindow = round2(float64(inWindow) / moved.Seconds())
	if after := int64(len(lat)) - inWindow; after > 0 && last.After(drained) {
		res.DeliveredAlone = round2(float64(after) / last.Sub(drained).Seconds())
		if cpuOK {
			res.CPUPerMoveAlone = round2(float64(cpu1-cpu0) / float64(time.Millisecond) / float64(after))
		}
	}
	if len(lat) > 0 {
		res.DeliveredPerSec = round2(float64(len(lat)) / last.Sub(start).Seconds())
		slices.Sort(lat)
		q := func(p float64) float64 {
			return round2(float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / float64(time.Millisecond))
		}
		res.P50ms, res.P99ms, res.MaxMs = q(0.50), q(0.99), q(1)
	}
	return res, nil
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// loadSink is the transport of `tessera load`: it accepts everything and
// times each move's post (the one with the board after that move).
type loadSink struct {
	mu        sync.Mutex
	begin     time.Time
	acc       map[moveKey]time.Time
	lat       []time.Duration
	last      time.Time
	delivered atomic.Int64
	ids       atomic.Int64
}

func newLoadSink() *loadSink { return &loadSink{acc: map[moveKey]time.Time{}} }

func (s *loadSink) start(t time.Time) { s.begin = t }

func (s *loadSink) accepted(k moveKey, t time.Time) {
	s.mu.Lock()
	s.acc[k] = t
	s.mu.Unlock()
}

func (s *loadSink) deliveredCount() int64 { return s.delivered.Load() }

func (s *loadSink) latencies() ([]time.Duration, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lat), s.last
}

func (s *loadSink) id() string { return fmt.Sprint("m", s.ids.Add(1)) }

func (s *loadSink) Thread(context.Context, string, string, string) (string, error) {
	return "t" + s.id(), nil
}

func (s *loadSink) Post(_ context.Context, _ string, m service.Message, _ string) (string, error) {
	now := time.Now()
	if strings.Contains(m.Marker, "· place") {
		return s.id(), nil // the status message: a picture of whatever position the game is in
	}
	for _, f := range m.Files {
		var k moveKey
		if _, err := fmt.Sscanf(f.Name, "game-%d-move-%d.png", &k.game, &k.n); err != nil {
			continue
		}
		s.mu.Lock()
		if t, ok := s.acc[k]; ok {
			delete(s.acc, k) // a post sent again is not a second move
			s.lat = append(s.lat, now.Sub(t))
			s.last = now
			s.delivered.Add(1)
		}
		s.mu.Unlock()
	}
	return s.id(), nil
}

func (s *loadSink) Edit(context.Context, string, string, service.Message) error { return nil }
func (s *loadSink) DM(context.Context, string, service.Message, string) error   { return nil }
func (s *loadSink) React(context.Context, string, string, string) error         { return nil }
