package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/internal/cputime"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
	"tessera/svg"
	"tessera/web"
)

// scaleOp is one operation's figures.
type scaleOp struct {
	Name    string  `json:"name"`
	Samples int     `json:"samples"`
	P50ms   float64 `json:"p50_ms"`
	P99ms   float64 `json:"p99_ms"`
	// CPUp50ms and CPUp99ms are this process's CPU time per sample (user
	// and system): on a machine busy with other work they move much less
	// than the wall-clock figures. A PostgreSQL server's own work is not
	// in them.
	CPUp50ms float64 `json:"cpu_p50_ms,omitempty"`
	CPUp99ms float64 `json:"cpu_p99_ms,omitempty"`
	// Read is the records (games, ratings, ids) the storage port returned
	// to the operation, per sample, at the median: what it cost the store
	// to answer, as far as the port can see.
	Read int64 `json:"records_read_p50"`
	// ReadMax is the most any one sample read.
	ReadMax int64  `json:"records_read_max"`
	Note    string `json:"note,omitempty"`
}

// scaleResult is what `tessera scale measure` prints.
type scaleResult struct {
	Database string    `json:"database"`
	Games    int       `json:"games_stored"`
	Ops      []scaleOp `json:"operations"`
	// Peak memory of `tessera check` and `tessera backup` (bbolt) run on
	// the database as child processes, in MB (maximum resident set).
	CheckPeakMB float64 `json:"check_peak_mb,omitempty"`
	// UpgradePeakMB and UpgradeSeconds are the first open for writing's
	// (nothing to do on a database already upgraded).
	UpgradePeakMB  float64 `json:"upgrade_peak_mb,omitempty"`
	UpgradeSeconds float64 `json:"upgrade_seconds,omitempty"`
	BackupPeakMB   float64 `json:"backup_peak_mb,omitempty"`
}

func runScaleMeasure(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scale measure", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "a database filled by tessera scale fill")
	samples := fs.Int("samples", 100, "samples of each operation")
	seed := fs.Uint64("seed", 7, "seed of the samples' choices")
	budget := fs.Duration("budget", time.Minute, "stop sampling an operation after this long (at least 3 samples), for the slow ones of an old build")
	tools := fs.Bool("tools", true, "also run tessera check and backup on it and report their peak memory")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *db == "" || fs.NArg() != 0 || *samples < 2 || *samples > 100_000 {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	var res scaleResult
	var err error
	// Opened once for writing first, so that an older database is
	// upgraded (its new indexes built, logged) before check and backup
	// look at it: with the tools, in a child process as they are (scale
	// upgrade), since a child's peak memory starts from its parent's.
	start := time.Now()
	if *tools {
		if res.UpgradePeakMB, err = childPeakMB([]string{"scale", "upgrade", "--db", *db}, nil); err != nil {
			fmt.Fprintln(stderr, "tessera scale measure: upgrade:", err)
			return 1
		}
	} else if code := runScaleUpgrade([]string{"--db", *db}, io.Discard, stderr); code != 0 {
		return code
	}
	res.UpgradeSeconds = time.Since(start).Seconds()
	// The tools run first, while this process is small: a child's peak
	// memory (ru_maxrss) starts from its parent's at the fork.
	if *tools {
		if res.CheckPeakMB, err = childPeakMB([]string{"check", "--db", *db}, nil); err != nil {
			fmt.Fprintln(stderr, "tessera scale measure: check:", err)
			return 1
		}
		if !database.IsPostgres(*db) {
			dir, err := os.MkdirTemp("", "tessera-scale-backup")
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			if res.BackupPeakMB, err = childPeakMB([]string{"backup", "--db", *db, filepath.Join(dir, "copy.db")}, nil); err != nil {
				fmt.Fprintln(stderr, "tessera scale measure: backup:", err)
				return 1
			}
		}
	}
	raw, err := database.Open(ctx, *db, storage.Options{})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	st := &countingStore{Store: raw}
	m := &scaleMeasurer{store: st, rng: rand.New(rand.NewPCG(*seed, 0x5ca1e)), samples: *samples, budget: *budget, log: stderr, run0: time.Now().UnixNano()}
	ops, games, err := m.run(ctx)
	raw.Close()
	if err != nil {
		fmt.Fprintln(stderr, "tessera scale measure:", err)
		return 1
	}
	res.Ops, res.Games = ops, games
	res.Database = "bbolt"
	if database.IsPostgres(*db) {
		res.Database = "postgres"
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// childPeakMB runs this program with args and returns its peak resident
// memory in MB.
func childPeakMB(args []string, env []string) (float64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	// A test binary given a subcommand would run its tests again, and
	// their children theirs: never start one.
	if strings.HasSuffix(filepath.Base(exe), ".test") {
		return 0, fmt.Errorf("%s is a test binary, not tessera: run %v with tessera itself", filepath.Base(exe), args)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%v: %w: %s", args, err, lastLines(out, 5))
	}
	kb, ok := maxRSSKB(cmd.ProcessState)
	if !ok {
		return 0, nil
	}
	return float64(kb) / 1024, nil
}

func lastLines(b []byte, n int) string {
	lines := slices.DeleteFunc(splitLines(string(b)), func(s string) bool { return s == "" })
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

// scaleMeasurer times the operations on a filled database.
type scaleMeasurer struct {
	store   *countingStore
	svc     *service.Service
	pages   http.Handler
	rng     *rand.Rand
	samples int
	budget  time.Duration
	log     io.Writer
	now     time.Time

	// run0 and interactions make interaction ids no other run used, so
	// that measuring the same database again plays its moves too.
	run0         int64
	interactions atomic.Int64

	// What the database holds, found by sampling ids (never by a walk).
	last     uint64
	finished []*tessera.Game
	playing  []*tessera.Game
}

func (m *scaleMeasurer) run(ctx context.Context) ([]scaleOp, int, error) {
	var res scaleResult
	m.now = scaleNow.Add(time.Minute)
	clock := func() time.Time { return m.now }
	secret := make([]byte, 32)
	m.svc = service.New(m.store, service.Config{Renderer: render.Renderer{}, Now: clock, Clock: "3d",
		Web: service.WebConfig{URL: "http://tessera.invalid", Secret: secret}})
	srv, err := web.New(web.Config{Service: m.svc, Store: m.store, SVG: svg.New(), Now: clock})
	if err != nil {
		return nil, 0, err
	}
	defer srv.Close()
	m.pages = srv.Handler()
	if err := m.survey(ctx); err != nil {
		return nil, 0, err
	}
	res.Games = int(m.last)
	if err := m.settle(ctx); err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(m.log, "tessera scale measure: %d games stored; sampling %d finished and %d in play\n", m.last, len(m.finished), len(m.playing))
	ops := []struct {
		name string
		run  func(ctx context.Context, i int) (string, error)
	}{
		{"tick, nothing due", m.tickIdle},
		{"move through the service", m.move},
		{"/move without game: in a channel", m.moveInChannel},
		{"chat line in a channel", m.chatLine},
		{"/profile", m.profile},
		{"/leaderboard", m.leaderboard},
		{"/history", m.history},
		{"/games", m.games},
		{"/challenges", m.challenges},
		{"web game page, first view", m.webGame},
		{"web player page", m.webPlayer},
		{"web leaderboard", m.webLeaderboard},
	}
	for _, op := range ops {
		r, err := m.time(ctx, op.name, op.run)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", op.name, err)
		}
		fmt.Fprintf(m.log, "  %-36s p50 %8.2f ms  p99 %8.2f ms  cpu p50 %8.2f ms  p99 %8.2f ms  read %d (max %d)\n", r.Name, r.P50ms, r.P99ms, r.CPUp50ms, r.CPUp99ms, r.Read, r.ReadMax)
		res.Ops = append(res.Ops, r)
	}
	due, err := m.tickDue(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("tick with games due: %w", err)
	}
	res.Ops = append(res.Ops, due)
	fmt.Fprintf(m.log, "  %-36s %8.2f ms  read %d  (%s)\n", due.Name, due.P50ms, due.Read, due.Note)
	return res.Ops, res.Games, nil
}

// survey finds the last game id and samples games of each kind by
// reading random ids.
func (m *scaleMeasurer) survey(ctx context.Context) error {
	// The last id: the ids are dense from 1, so search for the first
	// missing one.
	lo, hi := uint64(0), uint64(1)
	for {
		if _, err := m.store.Store.Game(ctx, hi); err != nil {
			break
		}
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if _, err := m.store.Store.Game(ctx, mid); err != nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	m.last = lo
	if m.last == 0 {
		return fmt.Errorf("the database holds no game: fill it with tessera scale fill")
	}
	want := m.samples * 2
	for tries := 0; (len(m.finished) < want || len(m.playing) < want) && tries < 200*want; tries++ {
		g, err := m.store.Store.Game(ctx, 1+m.rng.Uint64N(m.last))
		if err != nil {
			return err
		}
		switch g.Status {
		case tessera.StatusFinished:
			if len(m.finished) < want && service.Rated(g) {
				m.finished = append(m.finished, g)
			}
		case tessera.StatusPlaying:
			if len(m.playing) < want {
				m.playing = append(m.playing, g)
			}
		}
	}
	if len(m.finished) < m.samples || len(m.playing) < m.samples {
		return fmt.Errorf("found %d finished and %d games in play, need %d of each", len(m.finished), len(m.playing), m.samples)
	}
	return nil
}

// settle runs the ticks an upgrade owes before the measurements: games in
// play stored before reminders were indexed are each due once for a look
// (storage.UpgradeRemindAt), at most 500 a tick, and a tick with nothing
// due is what is measured.
func (m *scaleMeasurer) settle(ctx context.Context) error {
	start, ticks := time.Now(), 0
	for {
		due, err := m.store.Store.RemindersDue(ctx, m.now, 1)
		if err != nil || len(due) == 0 {
			if ticks > 0 {
				fmt.Fprintf(m.log, "tessera scale measure: %d ticks in %.1fs looked once at the games in play an upgrade left due\n", ticks, time.Since(start).Seconds())
			}
			return err
		}
		if _, err := m.svc.Tick(ctx); err != nil {
			return err
		}
		ticks++
	}
}

// time runs op samples times and returns its percentiles.
func (m *scaleMeasurer) time(ctx context.Context, name string, op func(ctx context.Context, i int) (string, error)) (scaleOp, error) {
	ds := make([]time.Duration, 0, m.samples)
	cpus := make([]time.Duration, 0, m.samples)
	reads := make([]int64, 0, m.samples)
	note := ""
	began := time.Now()
	for i := range m.samples {
		if i >= 3 && time.Since(began) > m.budget {
			break
		}
		before := m.store.read.Load()
		cpu0, _ := cputime.Process()
		start := time.Now()
		n, err := op(ctx, i)
		ds = append(ds, time.Since(start))
		cpu1, _ := cputime.Process()
		cpus = append(cpus, cpu1-cpu0)
		reads = append(reads, m.store.read.Load()-before)
		if err != nil {
			return scaleOp{}, err
		}
		if n != "" {
			note = n
		}
	}
	slices.Sort(ds)
	slices.Sort(cpus)
	slices.Sort(reads)
	pct := func(ds []time.Duration, p float64) float64 {
		i := int(p * float64(len(ds)-1))
		return float64(ds[i].Microseconds()) / 1000
	}
	return scaleOp{Name: name, Samples: len(ds), P50ms: pct(ds, 0.5), P99ms: pct(ds, 0.99), CPUp50ms: pct(cpus, 0.5), CPUp99ms: pct(cpus, 0.99), Read: reads[len(reads)/2], ReadMax: reads[len(reads)-1], Note: note}, nil
}

func (m *scaleMeasurer) req(u tessera.Player, guild, channel string) service.Request {
	return service.Request{User: service.User{ID: u.ID, Name: u.Name}, GuildID: guild, ChannelID: channel,
		InteractionID: fmt.Sprintf("M%d-%d", m.run0, m.interactions.Add(1))}.WithContext(context.Background())
}

func (m *scaleMeasurer) tickIdle(ctx context.Context, _ int) (string, error) {
	n, err := m.svc.Tick(ctx)
	if err != nil {
		return "", err
	}
	if n != 0 {
		return "", fmt.Errorf("a tick at the fill's time changed %d games: the fill should leave nothing due", n)
	}
	return "", nil
}

// tickDue moves the clock on until about a thousand reminders (or a
// tenth of the games in play) fall due, and times the one tick that
// writes them.
func (m *scaleMeasurer) tickDue(ctx context.Context) (scaleOp, error) {
	inPlay := int(m.last) / (scaleInPlayFraction + 1)
	target := max(1, min(1000, inPlay/10))
	// The turns began uniformly in the 20 hours before scaleNow, and a
	// reminder falls due 24 hours after: at scaleNow+4h+20h*f, a fraction f
	// of them is due.
	f := float64(target) / float64(max(1, inPlay))
	m.now = scaleNow.Add(4*time.Hour + time.Duration(f*float64(20*time.Hour)))
	before := m.store.read.Load()
	start := time.Now()
	n, err := m.svc.Tick(ctx)
	d := time.Since(start)
	if err != nil {
		return scaleOp{}, err
	}
	ms := float64(d.Microseconds()) / 1000
	note := fmt.Sprintf("%d reminders written", n)
	if n > 0 {
		note += fmt.Sprintf(", %.3f ms each", ms/float64(n))
	}
	return scaleOp{Name: "tick, reminders due", Samples: 1, P50ms: ms, P99ms: ms, Read: m.store.read.Load() - before, ReadMax: m.store.read.Load() - before, Note: note}, nil
}

// playable returns the i-th sampled game in play as it is now, with its
// position.
func (m *scaleMeasurer) playable(ctx context.Context, i int) (*tessera.Game, engine.State, error) {
	g, err := m.store.Store.Game(ctx, m.playing[i].ID)
	if err != nil {
		return nil, nil, err
	}
	pos, err := service.Replay(g)
	return g, pos, err
}

func (m *scaleMeasurer) move(ctx context.Context, i int) (string, error) {
	g, pos, err := m.playable(ctx, i)
	if err != nil || g.Status != tessera.StatusPlaying || pos.ToMove() < 0 {
		return "", err
	}
	legal := pos.Legal()
	mv := legal[m.rng.IntN(len(legal))]
	_, err = m.svc.Move(m.req(g.Players[pos.ToMove()], g.GuildID, g.Place()), fmt.Sprint(g.ID), mv.String())
	return "", err
}

// moveInChannel is /move typed in the game's channel (not its thread)
// without naming the game: the lookup by place, then the move or the
// question which game is meant.
func (m *scaleMeasurer) moveInChannel(ctx context.Context, i int) (string, error) {
	g, pos, err := m.playable(ctx, m.samples+i)
	if err != nil || g.Status != tessera.StatusPlaying || pos.ToMove() < 0 {
		return "", err
	}
	legal := pos.Legal()
	mv := legal[m.rng.IntN(len(legal))]
	_, err = m.svc.Move(m.req(g.Players[pos.ToMove()], g.GuildID, g.ChannelID), "", mv.String())
	if tessera.ErrorCode(err) != tessera.EINTERNAL {
		err = nil // a refusal (two games here) is an answer too
	}
	return "", err
}

func (m *scaleMeasurer) chatLine(ctx context.Context, i int) (string, error) {
	g := m.playing[i]
	if m.svc.PlainMove(m.req(g.Players[0], g.GuildID, g.ChannelID), fmt.Sprint("msg", i), "gg, well played") {
		return "", fmt.Errorf("a chat line was taken for a move")
	}
	return "", nil
}

func (m *scaleMeasurer) profile(ctx context.Context, i int) (string, error) {
	g := m.finished[i]
	u := g.Players[i%len(g.Players)]
	_, err := m.svc.Profile(m.req(u, g.GuildID, g.ChannelID), service.User{ID: u.ID, Name: u.Name})
	return "", err
}

func (m *scaleMeasurer) leaderboard(ctx context.Context, i int) (string, error) {
	g := m.finished[i]
	_, err := m.svc.Leaderboard(m.req(g.Players[0], g.GuildID, g.ChannelID), g.Setup.Game)
	return "", err
}

func (m *scaleMeasurer) history(ctx context.Context, i int) (string, error) {
	g := m.finished[i]
	u := g.Players[0]
	_, err := m.svc.History(m.req(u, g.GuildID, g.ChannelID), service.User{ID: u.ID, Name: u.Name}, "")
	return "", err
}

func (m *scaleMeasurer) games(ctx context.Context, i int) (string, error) {
	g := m.playing[i]
	_, err := m.svc.Games(m.req(g.Players[0], g.GuildID, g.ChannelID))
	return "", err
}

func (m *scaleMeasurer) challenges(ctx context.Context, i int) (string, error) {
	g := m.finished[i]
	_, err := m.svc.Challenges(m.req(g.Players[0], g.GuildID, g.ChannelID))
	return "", err
}

func (m *scaleMeasurer) get(path string) error {
	rec := httptest.NewRecorder()
	m.pages.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", path, rec.Code, firstLine(rec.Body.String()))
	}
	return nil
}

func firstLine(s string) string {
	if l := splitLines(s); len(l) > 0 {
		return l[0]
	}
	return ""
}

// webGame is a game page seen for the first time (each sample another
// game, finished and in play in turn, so no cache has it).
func (m *scaleMeasurer) webGame(ctx context.Context, i int) (string, error) {
	g := m.finished[m.samples+i]
	if i%2 == 1 {
		g = m.playing[m.samples+i]
	}
	return "", m.get("/g/" + m.svc.GameAddress(g.ID))
}

func (m *scaleMeasurer) webPlayer(ctx context.Context, i int) (string, error) {
	g := m.finished[i]
	return "", m.get("/s/" + m.svc.GuildAddress(g.GuildID) + "/players/" + g.Players[1].ID)
}

func (m *scaleMeasurer) webLeaderboard(ctx context.Context, i int) (string, error) {
	g := m.finished[i]
	return "", m.get("/s/" + m.svc.GuildAddress(g.GuildID) + "/leaderboard/" + g.Setup.Game)
}

// countingStore counts the records the port returns (games, ratings,
// ids), so that an operation's cost can be told from its answer's size:
// what grows with the games stored shows here whatever the machine.
type countingStore struct {
	storage.Store
	read atomic.Int64
}

func (c *countingStore) add(n int) { c.read.Add(int64(n)) }

func (c *countingStore) Game(ctx context.Context, id uint64) (*tessera.Game, error) {
	g, err := c.Store.Game(ctx, id)
	c.add(1)
	return g, err
}

func (c *countingStore) All(ctx context.Context, fn func(g *tessera.Game) error) error {
	return c.Store.All(ctx, func(g *tessera.Game) error {
		c.add(1)
		return fn(g)
	})
}

func (c *countingStore) ByPlayer(ctx context.Context, userID string) ([]*tessera.Game, error) {
	gs, err := c.Store.ByPlayer(ctx, userID)
	c.add(len(gs))
	return gs, err
}

func (c *countingStore) ByChannel(ctx context.Context, channelID string) ([]*tessera.Game, error) {
	gs, err := c.Store.ByChannel(ctx, channelID)
	c.add(len(gs))
	return gs, err
}

func (c *countingStore) Finished(ctx context.Context, playerID string, keep func(*tessera.Game) bool, skip, limit int) ([]*tessera.Game, bool, error) {
	var seen int
	counted := func(g *tessera.Game) bool {
		seen++
		return keep == nil || keep(g)
	}
	page, more, err := c.Store.Finished(ctx, playerID, counted, skip, limit)
	c.add(seen)
	return page, more, err
}

func (c *countingStore) OpenChallenges(ctx context.Context, guildID string) ([]*tessera.Game, error) {
	gs, err := c.Store.OpenChallenges(ctx, guildID)
	c.add(len(gs))
	return gs, err
}

func (c *countingStore) NewestChallenges(ctx context.Context, guildID string, max int) ([]*tessera.Game, int, error) {
	gs, total, err := c.Store.NewestChallenges(ctx, guildID, max)
	c.add(len(gs))
	return gs, total, err
}

func (c *countingStore) AllOpenChallenges(ctx context.Context) ([]*tessera.Game, error) {
	gs, err := c.Store.AllOpenChallenges(ctx)
	c.add(len(gs))
	return gs, err
}

func (c *countingStore) Due(ctx context.Context, now time.Time) ([]uint64, error) {
	ids, err := c.Store.Due(ctx, now)
	c.add(len(ids))
	return ids, err
}

func (c *countingStore) Ratings(ctx context.Context, guild, game string) ([]tessera.Rating, error) {
	rs, err := c.Store.Ratings(ctx, guild, game)
	c.add(len(rs))
	return rs, err
}

func (c *countingStore) PlayerRatings(ctx context.Context, guild, user string) ([]tessera.Rating, error) {
	rs, err := c.Store.PlayerRatings(ctx, guild, user)
	c.add(len(rs))
	return rs, err
}

func (c *countingStore) AllRatings(ctx context.Context) ([]tessera.Rating, error) {
	rs, err := c.Store.AllRatings(ctx)
	c.add(len(rs))
	return rs, err
}

func (c *countingStore) RemindersDue(ctx context.Context, now time.Time, max int) ([]uint64, error) {
	ids, err := c.Store.RemindersDue(ctx, now, max)
	c.add(len(ids))
	return ids, err
}

func (c *countingStore) ExpiredChallenges(ctx context.Context, cutoff time.Time, max int) ([]*tessera.Game, error) {
	gs, err := c.Store.ExpiredChallenges(ctx, cutoff, max)
	c.add(len(gs))
	return gs, err
}

func (c *countingStore) PlayerRating(ctx context.Context, guild, game, user string) (tessera.Rating, bool, error) {
	r, ok, err := c.Store.PlayerRating(ctx, guild, game, user)
	c.add(1)
	return r, ok, err
}

func (c *countingStore) RatingHistory(ctx context.Context, guild, game, user string) ([]tessera.RatingPoint, error) {
	h, err := c.Store.RatingHistory(ctx, guild, game, user)
	c.add(1) // one record, however long its history
	return h, err
}

func (c *countingStore) Leaders(ctx context.Context, guild, game string, skip, limit int) ([]tessera.Rating, int, error) {
	rs, rated, err := c.Store.Leaders(ctx, guild, game, skip, limit)
	c.add(len(rs))
	return rs, rated, err
}

// RatingRank returns one number, but walks the keys above the player
// (or below, whichever end is nearer on bbolt): counted as one record
// here, the walk is in docs/scaling.md.
func (c *countingStore) RatingRank(ctx context.Context, guild, game, user string) (int, int, error) {
	place, rated, err := c.Store.RatingRank(ctx, guild, game, user)
	c.add(1)
	return place, rated, err
}

func (c *countingStore) ByChannelPlayer(ctx context.Context, channelID, userID string) ([]*tessera.Game, error) {
	gs, err := c.Store.ByChannelPlayer(ctx, channelID, userID)
	c.add(len(gs))
	return gs, err
}
