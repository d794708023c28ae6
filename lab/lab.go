// Package lab plays many games between AI levels and baselines and keeps a
// record of each, for measuring the AI (tessera lab) and, later, the games
// themselves (branching factor, lengths, end reasons, margins). It does no
// I/O: the command gives it a configuration and prints its report.
//
// A run is deterministic for its seed: game g is dealt from a seed derived
// from the run's seed and g/players (so the players' rotation through the
// seats replays the same deal, which halves the luck between them), every
// move's AI or baseline seed is derived from the run's seed, g and the ply,
// and the records come back in game order however many workers played them.
// Only a time cap (Config.Think) can make a search, and so a run, depend on
// the machine; Report.Capped counts the moves it cut short.
package lab

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"tessera/engine"
)

// Config is one lab run.
type Config struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options map[string]string `json:"options,omitempty"`
	Games   int               `json:"games"`
	Seats   []string          `json:"seats"` // one player per seat, as in ParsePlayer
	Seed    uint64            `json:"seed"`
	// First is the number (from 0) of the run's first game: a run with
	// First 100 plays games 100 onwards of the same seed, exactly the
	// games a longer run would have played there, so Merge can join it to
	// the run of games 0-99 instead of replaying them.
	First int `json:"first,omitempty"`
	// Workers is how many games are played at once (0: one per CPU). It
	// changes the speed only.
	Workers int `json:"-"`
	// Think caps each AI move's search (0: no cap, the full iteration
	// budget, deterministic).
	Think time.Duration `json:"think_ns,omitempty"`
	// MaxPlies stops a game that runs longer (0: 100,000), as an engine
	// bug's guard; such a game is an error.
	MaxPlies int `json:"-"`
	// Progress, when set, is told after each finished game how many games
	// are done. It is called from one goroutine at a time.
	Progress func(done int) `json:"-"`
}

// Record is everything one game did, so that the designers' measures can
// be computed without replaying it. Slices indexed by ply have one entry
// per move played.
type Record struct {
	Index   int      `json:"index"`
	Seed    uint64   `json:"seed"`    // the setup's seed
	Players []int    `json:"players"` // Players[seat]: the index in Config.Seats of who sat there
	Moves   []string `json:"moves"`   // canonical notation
	Movers  []int    `json:"movers"`  // the seat that made each move
	Legal   []int    `json:"legal"`   // how many legal moves the mover had
	// Scores[ply] is every seat's score after the move.
	Scores    [][]int `json:"scores"`
	Playouts  []int   `json:"playouts"`             // the search's playouts for the move (0 for a baseline)
	Final     []int   `json:"final"`                // scores at the end
	Winners   []int   `json:"winners"`              // seats, 0-based
	EndReason string  `json:"end_reason,omitempty"` // from engine.Ender, when the game has it
	// Think is the total time each seat's player took (the one measure
	// that depends on the machine).
	Think []time.Duration `json:"think_ns"`
	// Capped counts the moves whose search the time cap cut short.
	Capped int `json:"capped,omitempty"`
}

// Share is what seat earned in the game: 1 for a sole win, 1/k for a win
// shared by k seats, 0 for a loss.
func (r Record) Share(seat int) float64 {
	for _, w := range r.Winners {
		if w == seat {
			return 1 / float64(len(r.Winners))
		}
	}
	return 0
}

// Standing is one player's (or one seat's) results.
type Standing struct {
	Name   string  `json:"name"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`   // sole wins
	Draws  int     `json:"draws"`  // wins shared with others
	Losses int     `json:"losses"` //
	Rate   float64 `json:"rate"`   // mean share: a shared win of k seats counts 1/k
	Low    float64 `json:"low"`    // Wilson 95% interval of Rate
	High   float64 `json:"high"`   //
}

// Report is a run's result.
type Report struct {
	Config  Config     `json:"config"`
	Players []Standing `json:"players"` // in Config.Seats order
	Seats   []Standing `json:"seats"`   // by seat, whoever sat there: the first-move advantage
	Capped  int        `json:"capped"`  // moves cut short by the time cap, over all games
	Records []Record   `json:"games"`
}

// Check says what is wrong with cfg, if anything, without playing: the
// command checks both option sets of a comparison this way before an hour
// of games, not after.
func (cfg Config) Check() error {
	_, err := cfg.check()
	return err
}

func (cfg Config) check() ([]Player, error) {
	if cfg.Games < 1 {
		return nil, engine.Illegalf("play at least one game")
	}
	if cfg.Think < 0 {
		return nil, engine.Illegalf("--think %v: write a time above zero, or 0 for no cap", cfg.Think)
	}
	if cfg.Players < 2 {
		// A one-player game is a puzzle: nobody to measure against, and
		// random or searching players may undo for ever. A game without
		// puzzles says so itself.
		if _, err := engine.New(cfg.setup(0)); err != nil {
			return nil, err
		}
		return nil, engine.Illegalf("the lab plays games of 2 or more players; a 1-player game is a puzzle, which it cannot measure")
	}
	if cfg.First < 0 || cfg.First%cfg.Players != 0 {
		// A deal's seatings are consecutive games; a run starting inside
		// one would split it.
		return nil, engine.Illegalf("--first %d: write a multiple of the %d players, 0 or more", cfg.First, cfg.Players)
	}
	if len(cfg.Seats) != cfg.Players {
		return nil, engine.Illegalf("%d players need %d seats, not %d (--seats a,b,...)", cfg.Players, cfg.Players, len(cfg.Seats))
	}
	players := make([]Player, len(cfg.Seats))
	for i, s := range cfg.Seats {
		p, err := ParsePlayer(s)
		if err != nil {
			return nil, err
		}
		players[i] = p
	}
	if _, err := engine.New(cfg.setup(0)); err != nil {
		return nil, err
	}
	return players, nil
}

// Run plays the configured games. When ctx is cancelled (Ctrl-C) it stops
// and returns, with ctx's error, the report of the games that finished, so
// what was played is not lost; a game cut off midway is left out.
func Run(ctx context.Context, cfg Config) (Report, error) {
	players, err := cfg.check()
	if err != nil {
		return Report{}, err
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 100000
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, cfg.Games)

	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	records := make([]Record, cfg.Games)
	errs := make([]error, cfg.Games)
	finished := make([]bool, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				records[g], errs[g] = playOne(ctx, cfg, players, cfg.First+g)
				if errs[g] != nil {
					cancel()
					continue
				}
				mu.Lock()
				finished[g] = true
				done++
				if cfg.Progress != nil {
					cfg.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for g := range cfg.Games {
		select {
		case next <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for g, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return Report{}, fmt.Errorf("game %d: %w", cfg.First+g+1, err)
		}
	}
	if err := outer.Err(); err != nil {
		var played []Record
		for g, r := range records {
			if finished[g] {
				played = append(played, r)
			}
		}
		return summarize(cfg, played), err
	}
	return summarize(cfg, records), nil
}

func (cfg Config) setup(g int) engine.Setup {
	return engine.Setup{Game: cfg.Game, Players: cfg.Players, Options: cfg.Options, Seed: mix(cfg.Seed, uint64(g/cfg.Players))}
}

// seating is who sits where in game g: the players rotate one seat per
// game, so over any Players consecutive games each plays each seat once.
func seating(g, n int) []int {
	out := make([]int, n)
	for s := range out {
		out[s] = (s + g) % n
	}
	return out
}

// playOne plays game g to its end.
func playOne(ctx context.Context, cfg Config, players []Player, g int) (Record, error) {
	setup := cfg.setup(g)
	st, err := engine.New(setup)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Index: g, Seed: setup.Seed, Players: seating(g, cfg.Players), Think: make([]time.Duration, cfg.Players)}
	for ply := 0; !st.Over(); ply++ {
		if ply == cfg.MaxPlies {
			return rec, fmt.Errorf("no end after %d moves", ply)
		}
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		seat := st.ToMove()
		legal := len(st.Legal())
		p := players[rec.Players[seat]]
		c, err := p.choose(ctx, st, mix(cfg.Seed, uint64(g)<<20|uint64(ply)), cfg.Think)
		if err != nil {
			return rec, fmt.Errorf("%s at move %d: %w", p.Name, ply+1, err)
		}
		if c.move == nil {
			return rec, fmt.Errorf("%s found no move at move %d", p.Name, ply+1)
		}
		if _, err := st.Apply(c.move); err != nil {
			return rec, fmt.Errorf("%s's move %s at move %d: %w", p.Name, c.move, ply+1, err)
		}
		rec.Moves = append(rec.Moves, c.move.String())
		rec.Movers = append(rec.Movers, int(seat))
		rec.Legal = append(rec.Legal, legal)
		rec.Scores = append(rec.Scores, st.Scores())
		rec.Playouts = append(rec.Playouts, c.playouts)
		rec.Think[seat] += c.elapsed
		if c.stopped {
			rec.Capped++
		}
	}
	rec.Final = st.Scores()
	for _, w := range st.Winners() {
		rec.Winners = append(rec.Winners, int(w))
	}
	if e, ok := st.(engine.Ender); ok {
		rec.EndReason = e.EndReason()
	}
	return rec, nil
}

// summarize counts each player's and each seat's results.
func summarize(cfg Config, records []Record) Report {
	rep := Report{Config: cfg, Records: records}
	rep.Players = make([]Standing, cfg.Players)
	rep.Seats = make([]Standing, cfg.Players)
	shares := make([]float64, cfg.Players)
	seatShares := make([]float64, cfg.Players)
	for i, s := range cfg.Seats {
		rep.Players[i].Name = fmt.Sprintf("%d:%s", i+1, s)
		rep.Seats[i].Name = fmt.Sprintf("seat %d", i+1)
	}
	count := func(st *Standing, share float64, winners int) {
		st.Games++
		switch {
		case share == 0:
			st.Losses++
		case winners == 1:
			st.Wins++
		default:
			st.Draws++
		}
	}
	for _, r := range records {
		rep.Capped += r.Capped
		for seat, p := range r.Players {
			share := r.Share(seat)
			count(&rep.Players[p], share, len(r.Winners))
			count(&rep.Seats[seat], share, len(r.Winners))
			shares[p] += share
			seatShares[seat] += share
		}
	}
	for i := range rep.Players {
		finish(&rep.Players[i], shares[i])
		finish(&rep.Seats[i], seatShares[i])
	}
	return rep
}

func finish(st *Standing, share float64) {
	if st.Games > 0 {
		st.Rate = share / float64(st.Games)
	}
	st.Low, st.High = Wilson(share, st.Games, z95)
}

// mix derives independent seeds from one (splitmix64's finaliser).
func mix(seed, k uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(k+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
