package lab

// The analysis's error and luck on lab games (issue #49): how well the
// decomposition adds up (its noise, where a game has no luck), and how
// much chance each kind of player loses a move, the AI levels' error
// rates that /analyze's verdict compares a player's with.

import (
	"context"
	"fmt"
	"math"
	"sync"

	"tessera/ai"
	"tessera/engine"
)

// DecompositionConfig is one run: games played by Seats (seat i of game
// g is Seats[(i+g) % len(Seats)], so every player sits everywhere), each
// position analysed by ai.AnalyzeStep with Analysis.
type DecompositionConfig struct {
	Game     string
	Players  int
	Options  map[string]string
	Games    int
	Seed     uint64
	Seats    []Player
	Analysis ai.Budget
	Workers  int
	Progress func(done int)
}

// DecompositionReport is a run's result.
type DecompositionReport struct {
	Game       string `json:"game"`
	Players    int    `json:"players"`
	Games      int    `json:"games"`
	Seed       uint64 `json:"seed"`
	Iterations int    `json:"iterations"` // the analysis's, per search
	Luckless   bool   `json:"luckless"`   // the game hides and draws nothing
	// NoiseMeanAbs is the mean over games and seats of |result − (start +
	// own errors + luck + opponents' errors)| in the spectator's view, and
	// NoiseMaxAbs its largest; LuckMean the mean of a seat's luck a game
	// (about 0: luck favours no seat on average).
	NoiseMeanAbs float64 `json:"noise_mean_abs"`
	NoiseMaxAbs  float64 `json:"noise_max_abs"`
	LuckMean     float64 `json:"luck_mean"`
	LuckMeanAbs  float64 `json:"luck_mean_abs"`
	// BySeat are each seat's signed noise and luck, mean over the games
	// with a 95% interval: the identity holds on average when the noise's
	// mean is near 0 (the estimates' noise of a single game, NoiseMeanAbs,
	// does not add up to a seat's advantage), and luck favours no seat
	// when its mean is near 0. Where something is hidden the noise is 0
	// by construction (luck is the rest), so the luck's mean is the check.
	BySeat []SeatParts `json:"by_seat"`
	// Players are each player's moves and the chance they lost.
	ByPlayer []PlayerErrors `json:"by_player"`
	// PerGame are each game's accounts, [seat][start, own errors, luck,
	// opponents' errors, result, noise], rounded to 3 decimals.
	PerGame [][][6]float64 `json:"per_game"`
}

// SeatParts is one seat's signed noise and luck over a run's games.
type SeatParts struct {
	Seat  int      `json:"seat"`
	Noise Estimate `json:"noise"`
	Luck  Estimate `json:"luck"`
}

// PlayerErrors is one player's error rate over a run.
type PlayerErrors struct {
	Name      string  `json:"name"`
	Moves     int     `json:"moves"`
	Errors    int     `json:"errors"`     // moves that lost at least ai.ErrorThreshold
	ErrorRate float64 `json:"error_rate"` // mean chance lost a move
	// Low and High are the rate's 95% normal interval over games.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

type decomposedGame struct {
	d     ai.Decomposition
	seats []string
	err   error
}

// Decompositions plays and analyses cfg's games.
func Decompositions(ctx context.Context, cfg DecompositionConfig) (DecompositionReport, error) {
	if len(cfg.Seats) == 0 || cfg.Games < 1 {
		return DecompositionReport{}, fmt.Errorf("lab: a decomposition run needs players and games")
	}
	games := make([]decomposedGame, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range max(1, cfg.Workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				games[i] = decomposePlay(ctx, cfg, i)
				mu.Lock()
				done++
				if cfg.Progress != nil {
					cfg.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cfg.Games {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	rep := DecompositionReport{Game: cfg.Game, Players: cfg.Players, Seed: cfg.Seed, Iterations: cfg.Analysis.Iterations}
	type tally struct {
		moves, errors int
		lost          float64
		perGame       []float64
	}
	byName := map[string]*tally{}
	var order []string
	n := 0
	var noises, lucks [][]float64 // [seat][game]
	for _, g := range games {
		if g.err != nil {
			if ctx.Err() != nil {
				break
			}
			return DecompositionReport{}, g.err
		}
		if g.d.Steps == nil && g.d.Line == nil {
			continue
		}
		rep.Games++
		rep.Luckless = g.d.Luckless
		row := make([][6]float64, len(g.d.Accounts))
		perSeat := map[string][2]float64{}
		for i, a := range g.d.Accounts {
			r := func(v float64) float64 { return math.Round(v*1000) / 1000 }
			row[i] = [6]float64{r(a.Start), r(a.OwnErrors), r(a.Luck), r(a.OpponentErrors), r(a.Result), r(a.Noise)}
			for len(noises) <= int(a.Seat) {
				noises, lucks = append(noises, nil), append(lucks, nil)
			}
			noises[a.Seat] = append(noises[a.Seat], a.Noise)
			lucks[a.Seat] = append(lucks[a.Seat], a.Luck)
			rep.NoiseMeanAbs += math.Abs(a.Noise)
			rep.NoiseMaxAbs = max(rep.NoiseMaxAbs, math.Abs(a.Noise))
			rep.LuckMean += a.Luck
			rep.LuckMeanAbs += math.Abs(a.Luck)
			n++
			name := g.seats[a.Seat]
			t := byName[name]
			if t == nil {
				t = &tally{}
				byName[name] = t
				order = append(order, name)
			}
			t.moves += a.Moves
			t.errors += a.Errors
			t.lost += a.ErrorRate * float64(a.Moves)
			ps := perSeat[name]
			perSeat[name] = [2]float64{ps[0] + a.ErrorRate*float64(a.Moves), ps[1] + float64(a.Moves)}
		}
		for name, ps := range perSeat {
			if ps[1] > 0 {
				byName[name].perGame = append(byName[name].perGame, ps[0]/ps[1])
			}
		}
		rep.PerGame = append(rep.PerGame, row)
	}
	if n > 0 {
		rep.NoiseMeanAbs /= float64(n)
		rep.LuckMean /= float64(n)
		rep.LuckMeanAbs /= float64(n)
	}
	for seat := range noises {
		rep.BySeat = append(rep.BySeat, SeatParts{Seat: seat, Noise: signedInterval(noises[seat]), Luck: signedInterval(lucks[seat])})
	}
	for _, name := range order {
		t := byName[name]
		pe := PlayerErrors{Name: name, Moves: t.moves, Errors: t.errors}
		if t.moves > 0 {
			pe.ErrorRate = t.lost / float64(t.moves)
		}
		e := meanInterval(t.perGame)
		pe.Low, pe.High = e.Low, e.High
		rep.ByPlayer = append(rep.ByPlayer, pe)
	}
	return rep, ctx.Err()
}

// meanInterval is the mean of xs with a 95% normal interval.
func meanInterval(xs []float64) Estimate {
	if len(xs) == 0 {
		return Estimate{}
	}
	m, v := 0.0, 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	se := 0.0
	if len(xs) > 1 {
		se = math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
	}
	return Estimate{Value: m, Low: max(0, m-1.96*se), High: m + 1.96*se, N: len(xs)}
}

// signedInterval is the mean of xs with a 95% normal interval, which may
// be below 0.
func signedInterval(xs []float64) Estimate {
	e := Estimate{N: len(xs)}
	if len(xs) == 0 {
		return e
	}
	v := 0.0
	for _, x := range xs {
		e.Value += x
	}
	e.Value /= float64(len(xs))
	for _, x := range xs {
		v += (x - e.Value) * (x - e.Value)
	}
	se := 0.0
	if len(xs) > 1 {
		se = math.Sqrt(v / float64(len(xs)-1) / float64(len(xs)))
	}
	e.Low, e.High = e.Value-1.96*se, e.Value+1.96*se
	return e
}

// decomposePlay plays game i of a run, analysing every position.
func decomposePlay(ctx context.Context, cfg DecompositionConfig, i int) decomposedGame {
	seed := mix(cfg.Seed, uint64(i))
	st, err := engine.New(engine.Setup{Game: cfg.Game, Players: cfg.Players, Seed: seed, Options: cfg.Options})
	if err != nil {
		return decomposedGame{err: err}
	}
	g := decomposedGame{}
	for s := range cfg.Players {
		g.seats = append(g.seats, cfg.Seats[(s+i)%len(cfg.Seats)].Name)
	}
	hidden := ai.Hides(st)
	var steps []ai.Step
	for k := 0; ; k++ {
		if k > 20000 {
			return decomposedGame{err: fmt.Errorf("lab: game %d does not end", i)}
		}
		ps := mix(seed, uint64(k)+1)
		if st.Over() {
			s, err := ai.AnalyzeStep(ctx, st, "", cfg.Analysis, ps)
			if err != nil {
				return decomposedGame{err: err}
			}
			steps = append(steps, s)
			break
		}
		p := cfg.Seats[(int(st.ToMove())+i)%len(cfg.Seats)]
		c, err := p.choose(ctx, st, ps^0x5eed, 0)
		if err != nil {
			return decomposedGame{err: err}
		}
		text := c.move.String()
		s, err := ai.AnalyzeStep(ctx, st, text, cfg.Analysis, ps)
		if err != nil {
			return decomposedGame{err: err}
		}
		steps = append(steps, s)
		if _, err := st.Apply(c.move); err != nil {
			return decomposedGame{err: fmt.Errorf("lab: game %d, move %d %q: %w", i, k+1, text, err)}
		}
	}
	d, ok := ai.Decompose(steps, engine.NoSeat, hidden)
	if !ok {
		return decomposedGame{err: fmt.Errorf("lab: game %d: the analysis does not decompose", i)}
	}
	g.d = d
	return g
}
