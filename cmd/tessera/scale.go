package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
)

// `tessera scale` measures what the everyday answers cost in a database
// that holds years of games (docs/scaling.md, "A million games"):
//
//	tessera scale fill --db PATH|URL --stored N
//	tessera scale measure --db PATH|URL
//
// fill writes N finished games (played to their end by legal moves,
// rated, with the ratings' history), N/10 games in play and a few
// challenges, by N/20 players in 4 servers, into an empty database;
// measure then times each everyday operation on it and prints p50/p99
// and the records each read through the storage port.

// runScale dispatches `tessera scale fill|measure`.
func runScale(args []string, stdout, stderr io.Writer) int {
	usage := func() int {
		fmt.Fprintln(stderr, "usage: tessera scale fill --db PATH|URL --stored N [--seed S] [--templates T]\n       tessera scale measure --db PATH|URL [--samples K]\n       tessera scale upgrade --db PATH|URL")
		return 2
	}
	if len(args) == 0 {
		return usage()
	}
	switch args[0] {
	case "fill":
		return runScaleFill(args[1:], stdout, stderr)
	case "measure":
		return runScaleMeasure(args[1:], stdout, stderr)
	case "upgrade":
		return runScaleUpgrade(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		usage()
		return 0
	}
	fmt.Fprintf(stderr, "tessera scale: no subcommand %q\n", args[0])
	return usage()
}

// The population a fill makes, and the clock it writes with: every fill
// of the same N and seed writes the same games.
const (
	scaleGuilds          = 4
	scaleChannels        = 8  // game channels per server
	scaleGamesPerPlayer  = 20 // N/20 players
	scaleHistoryYears    = 3  // finished games spread over this many years
	scaleFillBatch       = 500
	scaleInPlayFraction  = 10 // N/10 games in play
	scaleChallengePerMil = 2  // open and direct challenges: 2 per 1,000 games each
)

// scaleNow is the fill's "now": games in play got their turn in the 20
// hours before it, so at scaleNow no clock and no reminder is due.
var scaleNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// scaleGuild, scalePlayer and scaleChannel name the fill's population
// as Discord would (numeric snowflakes), the same in fill and measure.
func scaleGuild(i int) string { return strconv.FormatUint(900000000000000000+uint64(i), 10) }
func scalePlayer(guild, i int) string {
	return strconv.FormatUint(100000000000000000+uint64(i*scaleGuilds+guild), 10)
}
func scaleChannel(guild, i int) string {
	return strconv.FormatUint(800000000000000000+uint64(guild*100+i), 10)
}
func scaleThread(gameID uint64) string { return strconv.FormatUint(700000000000000000+gameID, 10) }

// scalePlayers is how many players each server has for n stored games.
func scalePlayers(n int) int { return max(4, n/scaleGamesPerPlayer/scaleGuilds) }

func runScaleFill(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scale fill", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "an empty (or new) bbolt file or postgres:// URL")
	n := fs.Int("stored", 1000, "finished games to store (N/10 more in play)")
	seed := fs.Uint64("seed", 1, "seed of the templates and the population")
	per := fs.Int("templates", 24, "finished games played through the service per game, copied to make the N")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *db == "" || fs.NArg() != 0 || *n < 10 || *n > 10_000_000 || *per < 1 || *per > 1000 {
		fs.Usage()
		return 2
	}
	if _, err := makeDatabaseFolder(*db); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	ctx := context.Background()
	st, err := database.Open(ctx, *db, storage.Options{NoSync: true})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer st.Close()
	start := time.Now()
	fmt.Fprintf(stderr, "tessera scale fill: playing %d templates per game through the service\n", *per)
	tpl, err := scaleTemplates(ctx, *per, *seed)
	if err != nil {
		fmt.Fprintln(stderr, "tessera scale fill:", err)
		return 1
	}
	fmt.Fprintf(stderr, "tessera scale fill: %d templates in %.1fs; writing %d finished games\n", len(tpl), time.Since(start).Seconds(), *n)
	f := &scaleFiller{store: st, tpl: tpl, n: *n, rng: rand.New(rand.NewPCG(*seed, 0x5ca1e)), log: stderr, ratings: map[string]*tessera.Rating{}}
	if err := f.fill(ctx); err != nil {
		fmt.Fprintln(stderr, "tessera scale fill:", err)
		return 1
	}
	fmt.Fprintf(stdout, "filled %s: %d finished games, %d in play, %d challenges, %d ratings in %.1fs\n",
		database.Redact(*db), f.finished, f.playing, f.challenges, len(f.ratings), time.Since(start).Seconds())
	return 0
}

// scaleTemplate is a finished game played through the service, with the
// position of each of its prefixes' seats needed to copy it.
type scaleTemplate struct {
	game   *tessera.Game
	places []int // its seats' finishing places (service.Places)
}

// scaleTemplates plays per two-player games of every registered game to
// their end through the service (NewGame, accept, random legal moves),
// in a scratch file, and returns them.
func scaleTemplates(ctx context.Context, per int, seed uint64) ([]scaleTemplate, error) {
	dir, err := os.MkdirTemp("", "tessera-scale")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	st, err := database.Open(ctx, filepath.Join(dir, "templates.db"), storage.Options{NoSync: true})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	seeds := seed * 1_000_003
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { seeds++; return seeds }})
	var out []scaleTemplate
	r := engine.NewRand(seed)
	interaction := 0
	req := func(u service.User) service.Request {
		interaction++
		return service.Request{User: u, GuildID: "scale", ChannelID: "scale", InteractionID: fmt.Sprint("S", interaction)}
	}
	a := service.User{ID: "1", Name: "A"}
	b := service.User{ID: "2", Name: "B"}
	for _, game := range engine.Games() {
		if game.MinPlayers > 2 || game.MaxPlayers < 2 {
			continue
		}
		for range per {
			rep, err := svc.NewGame(req(a), service.NewGameRequest{Game: game.ID, Opponents: []service.User{b}})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", game.ID, err)
			}
			var id uint64
			for _, btn := range rep.Buttons {
				if _, err := fmt.Sscanf(btn.ID, "accept:%d", &id); err == nil {
					break
				}
			}
			if id == 0 {
				return nil, fmt.Errorf("%s: no accept button", game.ID)
			}
			if _, err := svc.Click(req(b), fmt.Sprint("accept:", id)); err != nil {
				return nil, fmt.Errorf("%s: accept: %w", game.ID, err)
			}
			for {
				g, err := st.Game(ctx, id)
				if err != nil {
					return nil, err
				}
				if g.Status != tessera.StatusPlaying {
					if g.Status != tessera.StatusFinished {
						return nil, fmt.Errorf("%s game %d ended %s", game.ID, id, g.Status)
					}
					pos, err := service.Replay(g)
					if err != nil {
						return nil, err
					}
					out = append(out, scaleTemplate{game: g, places: service.Places(g, pos)})
					break
				}
				pos, err := service.Replay(g)
				if err != nil {
					return nil, err
				}
				legal := pos.Legal()
				if len(legal) == 0 || pos.ToMove() < 0 {
					return nil, fmt.Errorf("%s game %d is in play with no move", game.ID, id)
				}
				mover := []service.User{a, b}[pos.ToMove()]
				m := legal[r.IntN(len(legal))]
				if _, err := svc.Move(req(mover), fmt.Sprint(id), m.String()); err != nil {
					return nil, fmt.Errorf("%s game %d: %s: %w", game.ID, id, m, err)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no two-player game is registered")
	}
	return out, nil
}

// scaleFiller writes the population into the store in batches of
// scaleFillBatch games a transaction, through the port's own writes
// (CreateWith, Tx.CreateGame, Tx.NextRatingSeq), the ratings computed by
// the service's own rule as each game ends.
type scaleFiller struct {
	store storage.Store
	tpl   []scaleTemplate
	n     int
	rng   *rand.Rand
	log   io.Writer

	nextID                        uint64
	finished, playing, challenges int
	ratings                       map[string]*tessera.Rating
}

func (f *scaleFiller) fill(ctx context.Context) error {
	var empty bool
	err := f.store.All(ctx, func(*tessera.Game) error { return errStopWalk })
	switch {
	case err == nil:
		empty = true
	case errors.Is(err, errStopWalk):
	default:
		return err
	}
	if !empty {
		return errors.New("the database holds games already: fill an empty one")
	}
	f.nextID = 1
	span := time.Duration(scaleHistoryYears) * 365 * 24 * time.Hour
	first := scaleNow.Add(-span)
	step := span / time.Duration(f.n)
	began := time.Now()
	var batch []scaleRow
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := f.write(ctx, batch)
		batch = batch[:0]
		return err
	}
	for i := range f.n {
		batch = append(batch, f.finishedGame(i, first.Add(time.Duration(i)*step)))
		if len(batch) == scaleFillBatch {
			if err := flush(); err != nil {
				return err
			}
		}
		if (i+1)%100_000 == 0 {
			fmt.Fprintf(f.log, "tessera scale fill: %d finished games in %.0fs\n", i+1, time.Since(began).Seconds())
		}
	}
	inPlay := f.n / scaleInPlayFraction
	for i := range inPlay {
		g, err := f.gameInPlay(i)
		if err != nil {
			return err
		}
		batch = append(batch, scaleRow{game: g})
		if len(batch) == scaleFillBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	for i := range max(4, f.n*scaleChallengePerMil/1000) {
		batch = append(batch, scaleRow{game: f.challenge(i, true)}, scaleRow{game: f.challenge(i, false)})
		if len(batch) >= scaleFillBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	rs := make([]tessera.Rating, 0, len(f.ratings))
	for _, r := range f.ratings {
		rs = append(rs, *r)
	}
	slices.SortFunc(rs, func(a, b tessera.Rating) int {
		return cmpStrings(a.GuildID+"\x00"+a.Game+"\x00"+a.UserID, b.GuildID+"\x00"+b.Game+"\x00"+b.UserID)
	})
	fmt.Fprintf(f.log, "tessera scale fill: games written in %.0fs; writing %d ratings\n", time.Since(began).Seconds(), len(rs))
	return f.store.ReplaceRatings(ctx, rs)
}

var errStopWalk = errors.New("stop")

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// scaleRow is a game to write, with its seats' places when it is
// finished (from its template).
type scaleRow struct {
	game   *tessera.Game
	places []int
}

// write stores batch in one transaction, checking that every game got
// the id it was made for (its thread and the ratings' history name it),
// and rates the finished ones in id order as their ends would have.
func (f *scaleFiller) write(ctx context.Context, batch []scaleRow) error {
	want := f.nextID
	for i, r := range batch {
		if r.game.Status != tessera.StatusChallenge {
			r.game.ThreadID = scaleThread(want + uint64(i))
		}
	}
	rated := func(g *tessera.Game) bool { return g.Status == tessera.StatusFinished && service.Rated(g) }
	err := f.store.CreateWith(ctx, batch[0].game, "", func(g *tessera.Game, tx storage.Tx) error {
		if g.ID != want {
			return fmt.Errorf("the store gave game id %d, not %d: is the database empty?", g.ID, want)
		}
		for i, r := range batch {
			if rated(r.game) {
				seq, err := tx.NextRatingSeq(ctx)
				if err != nil {
					return err
				}
				r.game.RatingSeq = seq
			}
			// Every game has had announcements, delivered since: on
			// PostgreSQL each leaves its row in the couriers' leases.
			if err := tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceStatus, GameID: want + uint64(i), Moves: len(r.game.Moves), Enqueued: r.game.Updated}); err != nil {
				return err
			}
			if i == 0 {
				continue // CreateWith writes it after this function
			}
			if err := tx.CreateGame(ctx, r.game, nil); err != nil {
				return err
			}
			if r.game.ID != want+uint64(i) {
				return fmt.Errorf("the store gave game id %d, not %d", r.game.ID, want+uint64(i))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	f.nextID += uint64(len(batch))
	delivered, err := f.store.Pending(ctx, scaleNow.Add(100*365*24*time.Hour), len(batch)+1)
	if err != nil {
		return err
	}
	seqs := make([]uint64, len(delivered))
	for i, a := range delivered {
		seqs[i] = a.Seq
	}
	if err := f.store.Delivered(ctx, seqs...); err != nil {
		return err
	}
	for _, r := range batch {
		if rated(r.game) {
			f.rate(r.game, r.places)
		}
	}
	return nil
}

// rate applies a finished game to the players' ratings, by the rule a
// game's end applies (service.NextRatings), with its template's places.
func (f *scaleFiller) rate(g *tessera.Game, places []int) {
	before := make([]tessera.Rating, len(g.Players))
	keys := make([]string, len(g.Players))
	for i, p := range g.Players {
		keys[i] = g.GuildID + "\x00" + g.Setup.Game + "\x00" + p.ID
		if r := f.ratings[keys[i]]; r != nil {
			before[i] = *r
		}
	}
	for i, r := range service.NextRatings(g, places, before) {
		f.ratings[keys[i]] = &r
	}
}

// pair draws two different players of guild.
func (f *scaleFiller) pair(guild int) (service.User, service.User) {
	n := scalePlayers(f.n)
	i := f.rng.IntN(n)
	j := f.rng.IntN(n - 1)
	if j >= i {
		j++
	}
	u := func(k int) service.User {
		return service.User{ID: scalePlayer(guild, k), Name: fmt.Sprintf("Player %d-%d", guild, k)}
	}
	return u(i), u(j)
}

// copyOf is template t's game retimed: created at start, its moves
// spaced by gaps of 2 to 36 hours, in guild's channel, played by a and b.
func (f *scaleFiller) copyOf(t *tessera.Game, moves int, start time.Time, guild int, a, b service.User) *tessera.Game {
	g := *t
	g.ID, g.Version = 0, 0
	g.Moves = make([]tessera.MoveEntry, moves)
	copy(g.Moves, t.Moves[:moves])
	at := start.Add(time.Duration(f.rng.IntN(60)) * time.Minute)
	for i := range g.Moves {
		at = at.Add(2*time.Hour + time.Duration(f.rng.IntN(34*60))*time.Minute)
		g.Moves[i].At = at
	}
	g.Players = []tessera.Player{{ID: a.ID, Name: a.Name, Accepted: true}, {ID: b.ID, Name: b.Name, Accepted: true}}
	g.GuildID = scaleGuild(guild)
	g.ChannelID = scaleChannel(guild, f.rng.IntN(scaleChannels))
	g.MessageID = ""
	g.StatusID = ""
	g.Created = start
	g.Updated = at
	g.TurnStart = at
	g.Reminded = time.Time{}
	g.RemindAt = time.Time{}
	g.Deadline = time.Time{}
	g.RatingSeq = 0
	g.Rematch = 0
	return &g
}

// finishedGame is the i-th finished game, begun at start.
func (f *scaleFiller) finishedGame(i int, start time.Time) scaleRow {
	t := f.tpl[f.rng.IntN(len(f.tpl))]
	guild := i % scaleGuilds
	a, b := f.pair(guild)
	g := f.copyOf(t.game, len(t.game.Moves), start, guild, a, b)
	g.Settled = "The game began."
	f.finished++
	return scaleRow{game: g, places: t.places}
}

// gameInPlay is the i-th game in play: a template cut after a random
// move, its player to move given the turn in the 20 hours before
// scaleNow on a 3-day clock, so nothing is due at scaleNow.
func (f *scaleFiller) gameInPlay(i int) (*tessera.Game, error) {
	t := f.tpl[f.rng.IntN(len(f.tpl))].game
	guild := i % scaleGuilds
	a, b := f.pair(guild)
	moves := 1 + f.rng.IntN(max(1, len(t.Moves)-2))
	for moves > 0 && t.Moves[moves-1].End() != "" {
		moves--
	}
	turn := scaleNow.Add(-time.Duration(f.rng.IntN(20*60)) * time.Minute)
	g := f.copyOf(t, moves, turn.Add(-time.Duration(moves)*40*time.Hour), guild, a, b)
	// The record's times end where the turn began.
	shift := turn.Sub(g.Moves[len(g.Moves)-1].At)
	if moves == 0 {
		shift = 0
	}
	for k := range g.Moves {
		g.Moves[k].At = g.Moves[k].At.Add(shift)
	}
	pos, err := service.ReplayN(g, len(g.Moves))
	if err != nil {
		return nil, fmt.Errorf("a game in play cut from a template: %w", err)
	}
	if pos.Over() {
		return nil, errors.New("a template's prefix is already over")
	}
	g.Status = tessera.StatusPlaying
	g.Clock = tessera.Clock{Kind: tessera.ClockMove, PerMove: 72 * time.Hour}
	g.Banks = nil
	g.TurnStart = turn
	g.Updated = turn
	g.Deadline = turn.Add(72 * time.Hour)
	g.RemindAt = turn.Add(24 * time.Hour) // reminders.after's default
	g.ThreadID = ""                       // given once written, from its id
	f.playing++
	return g, nil
}

// challenge is an open challenge (anyone may join) or one to a named
// player, made in the day before scaleNow.
func (f *scaleFiller) challenge(i int, open bool) *tessera.Game {
	t := f.tpl[f.rng.IntN(len(f.tpl))].game
	guild := i % scaleGuilds
	a, b := f.pair(guild)
	g := f.copyOf(t, 0, scaleNow.Add(-time.Duration(f.rng.IntN(24*60))*time.Minute), guild, a, b)
	g.Status = tessera.StatusChallenge
	g.Settled = ""
	g.ThreadID = ""
	g.Players[1].Accepted = false
	g.Open = open
	if open {
		g.Players = g.Players[:1]
	}
	g.TurnStart = time.Time{}
	f.challenges++
	return g
}

// runScaleUpgrade opens a database once for writing, which upgrades an
// older one (its new indexes built in batches, as the bot's first start
// would), and says how long it took.
func runScaleUpgrade(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scale upgrade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "the database to open for writing")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *db == "" || fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	start := time.Now()
	st, err := database.Open(context.Background(), *db, storage.Options{})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := st.Close(); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "opened %s for writing in %.1fs\n", database.Redact(*db), time.Since(start).Seconds())
	return 0
}
