// Package service holds Tessera's commands and their replies, free of any
// transport: the Discord adapter (bot), the local console and the tests
// all drive this same code. Players are identified by opaque ids; the
// transport says how to mention one.
package service

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"tessera"
	"tessera/ai"
	"tessera/engine"
	"tessera/render"
	"tessera/storage"
)

// User is a person on the transport.
type User struct {
	ID   string
	Name string
}

// Request is who asks, and where.
type Request struct {
	User          User
	GuildID       string
	ChannelID     string
	InteractionID string // repeated ids are applied once; "" for none
	// Unrated is /new's rated:false: the game it makes changes no rating.
	Unrated bool
	ctx     context.Context // see Context
}

// ButtonStyle is the look of a button.
type ButtonStyle int

// Button styles.
const (
	Primary ButtonStyle = iota
	Secondary
	Success
	Danger
)

// Button is a clickable action; ID is what the click sends back (at most
// 100 characters).
type Button struct {
	ID    string
	Label string
	Style ButtonStyle
}

// File is an attachment.
type File struct {
	Name string
	Data []byte
}

// Reply is what a command answers.
type Reply struct {
	Text      string
	Ephemeral bool // only the caller sees it
	Files     []File
	Buttons   []Button
	// Mentions are the user ids this reply pings; no one else is pinged.
	Mentions []string
	// Challenge is the game a challenge reply is for: the transport tells
	// ChallengeMessage the channel and id of the message it posted, which
	// the game's thread will start from (when it is in the game's channel)
	// and which is rewritten without its buttons once the challenge is
	// settled.
	Challenge uint64
	// Update replaces the message whose button was clicked (a page turn)
	// instead of answering with a new one.
	Update bool
}

// Choice is one autocomplete suggestion.
type Choice struct {
	Name  string
	Value string
}

// Config tunes a Service.
type Config struct {
	// Mention renders a mention of a user ("<@id>" on Discord). Default:
	// "@name".
	Mention func(u User) string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger (default slog.Default()).
	Logger *slog.Logger
	// Seed draws a game's seed (default crypto/rand).
	Seed func() uint64
	// Defaults are options applied to every new game of a kind (by game
	// id, "name=value" words) unless the challenger gives them.
	Defaults map[string]string

	// NoThreads keeps games in their channel instead of a thread each.
	NoThreads bool
	// Clock is the default time control of a new game ("3d", "none",
	// "bank=7d,inc=1d,cap=14d"); default none.
	Clock string
	// RemindAfter is how long a player may not move before a reminder
	// (default 24h; at most one reminder a day per game).
	RemindAfter time.Duration
	// VacationDays is the yearly vacation allowance (default 20).
	VacationDays int
	// AIWorkers is how many AI searches may run at once (setting
	// ai.workers, default 1): each uses both cores, and commands must stay
	// fast meanwhile.
	AIWorkers int
	// AIThink caps the hard level's thinking per move (setting ai.think,
	// default 5 s); easy and normal get a fifth and a half of it.
	AIThink time.Duration
	// AIHook, when set, is called as the AI starts thinking about a game
	// (tests block in it to stop the bot while the AI thinks).
	AIHook func(ctx context.Context, gameID uint64, moves int)
	// Link makes a link to a channel or thread (Discord: a jump URL).
	Link func(guildID, channelID string) string
	// Stamp writes a moment for a reader in loc (Discord: a <t:...> tag,
	// which every reader sees in their own time zone).
	Stamp func(t time.Time, loc *time.Location) string
	// RetryBase is the first wait before a failed delivery is retried; it
	// doubles on every try, up to 5 minutes (default 2 s).
	RetryBase time.Duration
	// Wording is how hints name the transport's own syntax.
	Wording Wording
	// ChallengeExpire is how long an open challenge waits for players
	// (default 7 days; open.go).
	ChallengeExpire time.Duration
	// ReplayMoves is how many moves one /replay may animate (default
	// DefaultReplayMoves; replay.go).
	ReplayMoves int
	// UploadLimit is the largest file the transport takes, in bytes
	// (default MaxUpload, Discord's 10 MiB per file; replay.go).
	UploadLimit int
	// Provisional is how many rated games a rating needs to lose its
	// provisional mark (0: Provisional).
	Provisional int
	// Courier is how announcements are delivered (package delivery;
	// courierconfig.go).
	Courier CourierConfig
}

// Wording is how hints name what the caller types, which differs by
// transport; an empty field is Discord's wording.
type Wording struct {
	// PickGame ends "say which with …": how to name one of several games
	// (Discord: "the game: option"; the console: "#id after the command").
	PickGame string
	// MoveList is what lists the legal moves, in "pick one from the … list"
	// and "(… lists your legal moves)" (Discord: "autocomplete").
	MoveList string
	// Channel is where a command was typed, in "no game in play in …"
	// (Discord: "this channel"; the console: "the console").
	Channel string
	// Server is the community ratings and challenges belong to, in
	// "leaderboard of …" (Discord: "this server"; the console: "the
	// console").
	Server string
}

// capital is text with its first letter in upper case.
func capital(text string) string {
	if text == "" {
		return ""
	}
	return strings.ToUpper(text[:1]) + text[1:]
}

// Service runs the commands on a store.
type Service struct {
	store   storage.Store
	mention func(u User) string
	now     func() time.Time
	log     *slog.Logger
	seed    func() uint64
	defs    map[string]string
	cfg     Config
	clock   tessera.Clock

	deliverMu sync.Mutex    // one courier at a time
	wake      chan struct{} // the outbox has something new
	aiWake    chan struct{} // an AI seat may have the turn

	mu    sync.Mutex
	bot   User // the bot itself (SetBot)
	cache map[uint64]*position
	pics  map[picKey]File // recent pictures by game, position, deadline and status

	replays *replayGate // bounds the replays drawn at once (replaylimit.go)
}

// New returns a Service on an open store.
func New(store storage.Store, cfg Config) *Service {
	s := &Service{store: store, mention: cfg.Mention, now: cfg.Now, log: cfg.Logger, seed: cfg.Seed, defs: cfg.Defaults, cfg: cfg,
		cache: map[uint64]*position{}, pics: map[picKey]File{}, replays: newReplayGate(0), wake: make(chan struct{}, 1), aiWake: make(chan struct{}, 1)}
	if c, err := ParseClock(cfg.Clock); err == nil {
		s.clock = c
	} else {
		s.clock = tessera.Clock{Kind: "none"}
	}
	if s.cfg.RemindAfter <= 0 { // Validate refuses negative values
		s.cfg.RemindAfter = 24 * time.Hour
	}
	if s.cfg.AIWorkers <= 0 || s.cfg.AIWorkers > MaxAIWorkers {
		s.cfg.AIWorkers = 1
	}
	if s.cfg.AIThink <= 0 || s.cfg.AIThink > MaxAIThink {
		s.cfg.AIThink = ai.DefaultThink
	}
	if s.cfg.Courier.Owner == "" { // names this process's leases: the outbox's, the AI turns'
		s.cfg.Courier.Owner = newOwner()
	}
	if s.cfg.RetryBase <= 0 || s.cfg.RetryBase > MaxRetryBase {
		s.cfg.RetryBase = 2 * time.Second
	}
	if s.cfg.VacationDays <= 0 || s.cfg.VacationDays > MaxVacationDays { // Validate refuses these
		s.cfg.VacationDays = 20
	}
	if s.cfg.Wording.PickGame == "" {
		s.cfg.Wording.PickGame = "the game: option"
	}
	if s.cfg.Wording.MoveList == "" {
		s.cfg.Wording.MoveList = "autocomplete"
	}
	if s.cfg.Wording.Channel == "" {
		s.cfg.Wording.Channel = "this channel"
	}
	if s.cfg.Wording.Server == "" {
		s.cfg.Wording.Server = "this server"
	}
	if s.cfg.Link == nil {
		s.cfg.Link = func(guildID, channelID string) string { return "#" + channelID }
	}
	if s.cfg.Stamp == nil {
		s.cfg.Stamp = func(t time.Time, loc *time.Location) string { return t.In(loc).Format("Mon 2 Jan 15:04 MST") }
	}
	if s.mention == nil {
		s.mention = func(u User) string { return "@" + u.Name }
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.seed == nil {
		s.seed = func() uint64 {
			var b [8]byte
			rand.Read(b[:])
			return binary.LittleEndian.Uint64(b[:])
		}
	}
	return s
}

// Store is the service's store.
func (s *Service) Store() storage.Store { return s.store }

// position is a game's derived position, cached by version.
type position struct {
	version uint64
	state   engine.State
	once    sync.Once
	legal   []legalMove // built on first autocomplete
}

type legalMove struct {
	move   engine.Move
	text   string // canonical notation
	points int    // what the move scores now (Previewer), or its Gain's rank
	gain   string // what the move gains, in words
}

const cacheSize = 512

// state returns the position of a stored game, replaying its record (or
// from the cache when the version has not changed). Callers must not
// change the returned state: Clone it first.
func (s *Service) state(g *tessera.Game) (*position, error) {
	s.mu.Lock()
	p := s.cache[g.ID]
	s.mu.Unlock()
	if p != nil && p.version == g.Version {
		return p, nil
	}
	st, err := Replay(g)
	if err != nil {
		return nil, err
	}
	p = &position{version: g.Version, state: st}
	s.mu.Lock()
	if len(s.cache) >= cacheSize {
		for k := range s.cache { // evict an arbitrary entry
			delete(s.cache, k)
			break
		}
	}
	s.cache[g.ID] = p
	s.mu.Unlock()
	return p, nil
}

// Replay derives a game's position from its record.
func Replay(g *tessera.Game) (engine.State, error) { return ReplayN(g, len(g.Moves)) }

// timeout applies the platform's rule for a player whose time ran out: in a
// 2-player game they lose (as if resigned); with more players their turn
// is passed when the game has a pass, else they leave the game as if
// resigned.
func timeout(st engine.State, seat engine.Seat) engine.Outcome {
	active := 0
	for _, v := range st.View(engine.NoSeat).Seats {
		if !v.Resigned {
			active++
		}
	}
	if active > 2 && st.ToMove() == seat {
		if m, err := st.Parse("pass"); err == nil {
			if o, err := st.Apply(m); err == nil {
				o.Move = "timeout"
				return o
			}
		}
	}
	o := st.Resign(seat)
	o.Move = "timeout"
	return o
}

// ReplayN derives the position after the first n entries of the record.
func ReplayN(g *tessera.Game, n int) (engine.State, error) {
	st, err := engine.New(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("game %d: setup: %w", g.ID, err)
	}
	for i, m := range g.Moves[:min(n, len(g.Moves))] {
		switch m.Text {
		case "resign":
			st.Resign(engine.Seat(m.Seat))
			continue
		case "timeout":
			timeout(st, engine.Seat(m.Seat))
			continue
		}
		if int(st.ToMove()) != m.Seat {
			return nil, fmt.Errorf("game %d: move %d %q: seat %d to move, not %d", g.ID, i+1, m.Text, st.ToMove(), m.Seat)
		}
		mv, err := st.Parse(m.Text)
		if err == nil {
			_, err = st.Apply(mv)
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: move %d %q: %w", g.ID, i+1, m.Text, err)
		}
	}
	return st, nil
}

func (s *Service) user(g *tessera.Game, seat int) User {
	p := g.Players[seat]
	return User{ID: p.ID, Name: p.Name}
}

func gameName(id string) string {
	if g, ok := engine.Lookup(id); ok {
		return g.Name
	}
	return id
}

// picture renders the board of a game with its panel. The move post, the
// status edit and the turn notice of one position share one rendering.
func (s *Service) picture(g *tessera.Game, st engine.State) (File, error) {
	return s.pictureOf(g, st, len(g.Moves))
}

// picKey names a picture: the status is part of it because an aborted
// game's last position is drawn again, saying it was aborted.
type picKey struct {
	game, moves uint64
	deadline    int64
	status      tessera.Status
}

func (s *Service) pictureOf(g *tessera.Game, st engine.State, n int) (File, error) {
	key := picKey{g.ID, uint64(n), g.Deadline.Unix(), g.Status}
	s.mu.Lock()
	f, ok := s.pics[key]
	s.mu.Unlock()
	if ok {
		return f, nil
	}
	var png []byte
	var err error
	if base, ok := baseScene(g); ok {
		png, err = render.BoardOn(base, st.Board(), panelOf(g, st, n))
	} else {
		png, err = render.Board(st.Board(), panelOf(g, st, n))
	}
	if err != nil {
		return File{}, err
	}
	f = File{Name: fmt.Sprintf("game-%d-move-%d.png", g.ID, n), Data: png}
	s.mu.Lock()
	if len(s.pics) >= 64 {
		clear(s.pics)
	}
	s.pics[key] = f
	s.mu.Unlock()
	return f, nil
}

// panelOf is the panel under the board after the first n record entries:
// the title, the status line (whose turn, who won, or that the game was
// aborted), the seats and the clock.
func panelOf(g *tessera.Game, st engine.State, n int) render.Panel {
	title := fmt.Sprintf("%s · game #%d", gameName(g.Setup.Game), g.ID)
	panel := render.NewPanel(title, st.View(engine.NoSeat), g.Names())
	if g.Status == tessera.StatusAborted && n == len(g.Moves) {
		// The position still has a player to move; the game has none.
		panel.Status = "Aborted: no result"
		for i := range panel.Seats {
			panel.Seats[i].ToMove = false
		}
		return panel
	}
	if g.Status == tessera.StatusPlaying && n == len(g.Moves) && aiToMove(g, st) {
		panel.Status = g.Players[st.ToMove()].Name + " is thinking"
	}
	if line := clockLine(g, st, n); line != "" {
		panel.Legend = append([]string{line}, panel.Legend...)
	}
	return panel
}

// scoreLine is "Ana 12 · Bo 9".
func scoreLine(g *tessera.Game, st engine.State) string {
	if solo(g) { // alone, the score means little: the puzzle's progress
		if v := st.View(engine.NoSeat).Status; v != "" {
			return v
		}
	}
	var parts []string
	sc := st.Scores()
	for i, p := range g.Players {
		parts = append(parts, fmt.Sprintf("%s %d", p.Name, sc[i]))
	}
	return "Scores: " + strings.Join(parts, " · ")
}

// eventLines writes the engine's events with the players' names.
func eventLines(g *tessera.Game, evs []engine.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Seat == engine.NoSeat || int(e.Seat) >= len(g.Players) {
			out = append(out, e.Text)
		} else {
			out = append(out, g.Players[e.Seat].Name+" "+e.Text)
		}
	}
	return out
}

// deltaText is "+4 (2 connections +3, border +1)" for one seat, plus lines
// for other seats' changes.
func deltaText(g *tessera.Game, o engine.Outcome) string {
	bySeat := map[engine.Seat][]string{}
	var order []engine.Seat
	for _, d := range o.Deltas {
		if _, ok := bySeat[d.Seat]; !ok {
			order = append(order, d.Seat)
		}
		bySeat[d.Seat] = append(bySeat[d.Seat], fmt.Sprintf("%s %+d", d.Reason, d.Points))
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i] == o.Seat && order[j] != o.Seat })
	var parts []string
	for _, s := range order {
		who := g.Players[s].Name
		parts = append(parts, fmt.Sprintf("%s %+d (%s)", who, o.Points(s), strings.Join(bySeat[s], ", ")))
	}
	return strings.Join(parts, "; ")
}

// errorf is a user-safe error.
func errorf(code, format string, args ...any) error { return tessera.Errorf(code, format, args...) }

// Fail turns an error into the one-line ephemeral reply a player sees.
// Internal errors are logged with their details and shown generically.
func (s *Service) Fail(err error) Reply {
	if tessera.ErrorCode(err) == tessera.EINTERNAL {
		s.log.Error("internal error", "err", err)
	}
	return Reply{Text: clipQuoted(tessera.ErrorMessage(err)), Ephemeral: true}
}

func parseGameRef(ref string) (uint64, bool) {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "#")
	if ref == "" {
		return 0, false
	}
	// Autocomplete values are the number; a typed "12 elemental" works too.
	if i := strings.IndexAny(ref, " :"); i > 0 {
		ref = ref[:i]
	}
	id, err := strconv.ParseUint(ref, 10, 64)
	return id, err == nil
}

// visible reports whether req may see game g: in its own server (guild),
// or anywhere by its players. A game is never shown to a stranger in
// another server, which would post its board and players' names there.
func visible(g *tessera.Game, req Request) bool {
	return g.GuildID == req.GuildID || g.Seat(req.User.ID) >= 0
}

// elsewhere reports whether req comes from outside g's server: a player
// may see the game there, but only privately.
func elsewhere(g *tessera.Game, req Request) bool { return g.GuildID != req.GuildID }

// lookup says which games a command without a game: option considers.
type lookup int

const (
	inPlay        lookup = iota // games in play in the channel
	toMove                      // the same, preferring the one where it is the caller's turn
	orChallenging               // also the caller's challenges (for /abort)
)

// gameByID loads a game the caller named. A game the caller may not see
// gets the same answer as one that does not exist, so a stranger learns
// nothing, not even that it exists.
func (s *Service) gameByID(req Request, id uint64) (*tessera.Game, error) {
	ctx := req.Context()
	g, err := s.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !visible(g, req) {
		return nil, errorf(tessera.ENOTFOUND, "There is no game #%d.", id)
	}
	return g, err
}

// findGame resolves which game a command is about: the game: option when
// given (and visible to the caller), else the caller's only game in this
// channel (for a move, the only one where it is their turn).
func (s *Service) findGame(req Request, ref string, which lookup) (*tessera.Game, error) {
	ctx := req.Context()
	forMove := which == toMove
	if strings.TrimSpace(ref) != "" {
		id, ok := parseGameRef(ref)
		if !ok {
			return nil, errorf(tessera.EINVALID, "%s is not a game number; pick one of your games from the list.", typed(ref))
		}
		return s.gameByID(req, id)
	}
	games, err := s.store.ByChannel(ctx, req.ChannelID)
	if err != nil {
		return nil, err
	}
	var here, mine, myTurn []*tessera.Game
	var ended *tessera.Game // a finished game whose own thread this is
	for _, g := range games {
		if !visible(g, req) {
			continue // a channel is in one server; this is only a guard
		}
		if g.Status == tessera.StatusChallenge && which == orChallenging && g.Seat(req.User.ID) >= 0 {
			here = append(here, g)
			mine = append(mine, g)
			continue
		}
		if g.Status != tessera.StatusPlaying {
			if g.ThreadID == req.ChannelID && g.ThreadID != g.ChannelID {
				ended = g
			}
			continue
		}
		here = append(here, g)
		if seat := g.Seat(req.User.ID); seat >= 0 {
			mine = append(mine, g)
			if p, err := s.state(g); err == nil && int(p.state.ToMove()) == seat {
				myTurn = append(myTurn, g)
			}
		}
	}
	switch {
	case len(mine) == 1:
		return mine[0], nil
	case forMove && len(myTurn) == 1:
		return myTurn[0], nil
	case len(mine) == 0 && len(here) == 1 && !forMove:
		return here[0], nil
	case len(here) == 0 && ended != nil:
		return ended, nil // the command says the game is over, or shows it
	case len(mine) == 0 && len(here) == 0:
		return nil, errorf(tessera.ENOTFOUND, "There is no game in play in %s. Start one with /new.", s.cfg.Wording.Channel)
	case len(mine) == 0 && forMove:
		return nil, errorf(tessera.EFORBIDDEN, "You are not playing in any game in %s.", s.cfg.Wording.Channel)
	}
	var ids []string
	list := mine
	if len(list) == 0 {
		list = here
	}
	for _, g := range list {
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	return nil, errorf(tessera.EINVALID, "%s has several games (%s): say which with %s.", capital(s.cfg.Wording.Channel), strings.Join(ids, ", "), s.cfg.Wording.PickGame)
}

// storageTx keeps the store's transaction type short in signatures.
type storageTx = storage.Tx

// clockLine says on the picture until when the player to move has (in
// UTC: a picture cannot show each reader's own time), and the banks.
func clockLine(g *tessera.Game, st engine.State, n int) string {
	if g.Clock.Kind == "none" || g.Clock.Kind == "" || st.Over() || n != len(g.Moves) || g.Deadline.IsZero() {
		return ""
	}
	line := fmt.Sprintf("Clock: %s to move by %s", g.Players[st.ToMove()].Name, g.Deadline.UTC().Format("Mon 2 Jan 15:04 UTC"))
	if g.Clock.Kind == "bank" {
		var banks []string
		for i, b := range g.Banks {
			banks = append(banks, fmt.Sprintf("%s %s", g.Players[i].Name, Span(b)))
		}
		line += " · banks: " + strings.Join(banks, ", ")
	}
	return line
}

// Bounds of the configuration's numbers (zero means the default).
const (
	MinRemindAfter  = time.Hour
	MaxRemindAfter  = 30 * day
	MaxVacationDays = 366
	MaxRetryBase    = 5 * time.Minute
	MaxAIWorkers    = 16
	MaxAIThink      = 10 * time.Minute
)

// Validate checks the settings a person writes (the configuration file):
// the default clock as ParseClock reads it, and every duration and day
// count within its bounds, which the message states. Zero means the
// default. The configuration loader calls it, so a bad value is found at
// start-up and not by the players.
func (c Config) Validate() error {
	if strings.TrimSpace(c.Clock) != "" {
		if _, err := ParseClock(c.Clock); err != nil {
			return fmt.Errorf("defaults.clock: %w", err)
		}
	}
	if c.RemindAfter != 0 && (c.RemindAfter < MinRemindAfter || c.RemindAfter > MaxRemindAfter) {
		return fmt.Errorf("reminders.after %s: give from 1h to 30 days (720h)", c.RemindAfter)
	}
	if c.VacationDays < 0 || c.VacationDays > MaxVacationDays {
		return fmt.Errorf("vacation.days %d: give from 1 to %d days a year (0 for the default, 20)", c.VacationDays, MaxVacationDays)
	}
	if c.AIWorkers < 0 || c.AIWorkers > MaxAIWorkers {
		return fmt.Errorf("ai.workers %d: give from 1 to %d searches at once", c.AIWorkers, MaxAIWorkers)
	}
	if c.AIThink < 0 || c.AIThink > MaxAIThink {
		return fmt.Errorf("ai.think %s: give from 1ms to 10m", c.AIThink)
	}
	if c.Provisional < 0 || c.Provisional > MaxProvisional {
		return fmt.Errorf("ratings.provisional %d: give a number of games from 1 to %d", c.Provisional, MaxProvisional)
	}
	if c.ChallengeExpire != 0 && (c.ChallengeExpire < MinChallengeExpire || c.ChallengeExpire > MaxChallengeExpire) {
		return fmt.Errorf("challenges.expire %s: give from 1h to 90 days (90d)", FormatSpan(c.ChallengeExpire))
	}
	if c.ReplayMoves < 0 || c.ReplayMoves > MaxReplayMoves {
		return fmt.Errorf("replay.max_moves %d: give from 1 to %d moves", c.ReplayMoves, MaxReplayMoves)
	}
	if c.RetryBase < 0 || c.RetryBase > MaxRetryBase {
		return fmt.Errorf("retry base %s: give from 1ms to 5m", c.RetryBase)
	}
	return nil
}
