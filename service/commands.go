package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/picture"
	"tessera/storage"
)

// Button ids: "<action>:<game id>" (the table: buttons.go).
const (
	actAccept   = "accept"
	actDecline  = "decline"
	actResign   = "resign"
	actCancel   = "cancel"
	actWithdraw = "withdraw"
)

// NewGameRequest is what /new asks for.
type NewGameRequest struct {
	Game      string // a game's id or full name
	Opponents []User // none: an open challenge (NewOpen)
	Options   string // "name=value" words
	Clock     string // a time control (ParseClock); "" is the default
	Level     string // the computer's level when it is an opponent
	Seats     int    // an open challenge's players (0: the game's fewest)
}

// NewGame posts a challenge: the game starts when every invited player
// has accepted. The bot itself may be an opponent: each
// time it is named it takes a seat played by the AI at r.Level (easy,
// normal or hard; "" is normal), which accepts at once. A game against
// the AI alone starts at once.
func (s *Service) NewGame(req Request, r NewGameRequest) (Reply, error) {
	gameID, opponents, options, clock, level := r.Game, r.Opponents, r.Options, r.Clock, r.Level
	ctx := req.Context()
	g, ok := engine.Lookup(gameID)
	if !ok {
		return Reply{}, noGame(gameID)
	}
	bot := s.Bot()
	players, err := s.seats(req, opponents, level)
	if err != nil {
		return Reply{}, err
	}
	if len(players) < 2 { // nobody named: an open challenge (open.go)
		return s.NewOpen(req, NewGameRequest{Game: gameID, Options: options, Clock: clock})
	}
	if n := nameAIs(players, bot.Name); n == 0 && strings.TrimSpace(level) != "" {
		return Reply{}, errorf(tessera.EINVALID, "level: is for games against me; name %s as an opponent, or leave level out.", s.mention(bot))
	}
	opts, err := s.options(g, options)
	if err != nil {
		return Reply{}, err
	}
	// The seed is drawn when the game begins (begin): a refused or
	// declined challenge draws none.
	setup := engine.Setup{Game: g.ID, Players: len(players), Options: opts}
	if _, err := engine.New(setup); err != nil { // check players and options now
		return Reply{}, err
	}
	clk, err := s.clockOf(clock)
	if err != nil {
		return Reply{}, err
	}
	now := s.now().UTC()
	rec := &tessera.Game{Status: tessera.StatusChallenge, Setup: setup, Players: players, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Created: now, Updated: now, Clock: clk, NoThread: s.cfg.NoThreads, Unrated: req.Unrated}
	// Against the AI alone nobody has to accept: the game begins in the
	// transaction that creates it.
	everyone := !slices.ContainsFunc(players, func(p tessera.Player) bool { return !p.Accepted })
	var begin func(g *tessera.Game, tx storage.Tx) error
	if everyone {
		begin = func(g *tessera.Game, tx storage.Tx) error { return s.begin(ctx, tx, g, now) }
	}
	if err := s.store.CreateWith(ctx, rec, req.InteractionID, begin); err != nil {
		return Reply{}, dup(err)
	}
	var names, mentions []string
	var ids []string
	for _, p := range players[1:] {
		if p.IsAI() {
			names = append(names, "**"+p.Name+"**")
			continue
		}
		names = append(names, s.mention(User{p.ID, p.Name}))
		ids = append(ids, p.ID)
	}
	mentions = ids
	if everyone {
		where := "in its own thread"
		if rec.NoThread {
			where = "here"
		}
		text := fmt.Sprintf("**%s** plays **%s** against %s (game #%d)%s, %s, %s. %s accepts: the game begins %s.",
			req.User.Name, g.Name, joinAnd(names), rec.ID, optionText(opts), ClockText(clk), ratedText(rec), bot.Name, where)
		// No poke: the courier makes the thread once the transport has
		// recorded this reply's message (ChallengeMessage), to start it there.
		return Reply{Text: text, Challenge: rec.ID}, nil
	}
	text := fmt.Sprintf("**%s** challenges %s to **%s** (game #%d)%s, %s, %s. Accept or decline below; the game starts when everyone has accepted.",
		req.User.Name, joinAnd(names), g.Name, rec.ID, optionText(opts), ClockText(clk), ratedText(rec))
	return Reply{Text: text, Mentions: mentions, Challenge: rec.ID, Buttons: []Button{
		{ID: buttonID(actAccept, rec.ID), Label: "Accept", Style: Success},
		{ID: buttonID(actDecline, rec.ID), Label: "Decline", Style: Danger},
		{ID: buttonID(actWithdraw, rec.ID), Label: "Withdraw", Style: Secondary},
	}}, nil
}

// seats are a new game's players: the challenger, then each opponent
// named, the bot itself as a seat the computer plays at level. Nobody may
// be named twice, and the computer does not challenge.
func (s *Service) seats(req Request, opponents []User, level string) ([]tessera.Player, error) {
	players := []tessera.Player{{ID: req.User.ID, Name: req.User.Name, Accepted: true}}
	bot := s.Bot()
	if bot.ID != "" && req.User.ID == bot.ID {
		return nil, errorf(tessera.EINVALID, "%s is the computer: it plays when challenged, it does not challenge.", bot.Name)
	}
	lvl, err := aiLevel(level)
	if err != nil {
		return nil, err
	}
	for _, o := range opponents {
		if o.ID == "" {
			continue
		}
		if bot.ID != "" && o.ID == bot.ID {
			players = append(players, tessera.Player{ID: bot.ID, AI: lvl.String(), Accepted: true})
			continue
		}
		for _, p := range players {
			if p.ID == o.ID {
				if o.ID == req.User.ID {
					return nil, errorf(tessera.EINVALID, "You cannot challenge yourself; name your opponents.")
				}
				return nil, errorf(tessera.EINVALID, "%s is named twice; name each opponent once.", o.Name)
			}
		}
		players = append(players, tessera.Player{ID: o.ID, Name: o.Name})
	}
	return players, nil
}

func optionText(opts map[string]string) string {
	if len(opts) == 0 {
		return ""
	}
	return " with " + strings.Join(engine.OptionWords(opts), ", ")
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// dup maps a repeated interaction to a quiet user error.
func dup(err error) error {
	if errors.Is(err, storage.ErrDuplicate) {
		return errorf(tessera.ECONFLICT, "That was already done.")
	}
	return err
}

// challenge loads a challenge for one of its players.
func (s *Service) challenge(req Request, id uint64) (*tessera.Game, int, error) {
	g, err := s.gameByID(req, id)
	if err != nil {
		return nil, 0, err
	}
	seat := g.Seat(req.User.ID)
	switch {
	case seat < 0:
		return nil, 0, errorf(tessera.EFORBIDDEN, "This challenge is not for you; start your own with /new.")
	case g.Status != tessera.StatusChallenge:
		return nil, 0, errorf(tessera.EINVALID, "Game #%d is no longer waiting for players (%s).", id, g.Status)
	}
	return g, seat, nil
}

// Accept accepts a challenge; the last acceptance starts the game.
func (s *Service) Accept(req Request, id uint64) (Reply, error) {
	ctx := req.Context()
	g, seat, err := s.challenge(req, id)
	if err != nil {
		return Reply{}, err
	}
	if g.Players[seat].Accepted {
		return Reply{}, errorf(tessera.EINVALID, "You have already accepted game #%d; waiting for the others.", id)
	}
	now := s.now().UTC()
	g, err = s.store.Update(ctx, id, g.Version, req.InteractionID, func(g *tessera.Game, tx storage.Tx) error {
		g.Players[seat].Accepted = true
		g.Updated = now
		for _, p := range g.Players {
			if !p.Accepted {
				return nil
			}
		}
		if err := s.begin(ctx, tx, g, now); err != nil { // everyone accepted
			return err
		}
		return s.settle(ctx, tx, g, s.begunText(g))
	})
	if err != nil {
		return Reply{}, dup(err)
	}
	if g.Status != tessera.StatusPlaying {
		var waiting []string
		for _, p := range g.Players {
			if !p.Accepted {
				waiting = append(waiting, p.Name)
			}
		}
		return Reply{Text: fmt.Sprintf("%s accepted game #%d; waiting for %s.", req.User.Name, id, joinAnd(waiting))}, nil
	}
	s.poke()
	where := "in its own thread"
	if g.NoThread {
		where = "here"
	}
	return Reply{Text: fmt.Sprintf("%s accepted: **%s**, game #%d, begins %s.", req.User.Name, gameName(g.Setup.Game), g.ID, where)}, nil
}

// begin starts a game whose players have all accepted, inside the store
// transaction: the clocks, the first turn, the game's place and the
// start post.
func (s *Service) begin(ctx context.Context, tx storage.Tx, g *tessera.Game, now time.Time) error {
	g.Status = tessera.StatusPlaying
	g.Updated = now
	// Only a game that begins draws a seed, so that a console's --seed
	// deals the same games whatever was refused or declined before.
	g.Setup.Seed = s.seed()
	st, err := Replay(g)
	if err != nil {
		return err
	}
	if g.Clock.Kind == tessera.ClockBank {
		g.Banks = make([]time.Duration, len(g.Players))
		for i := range g.Banks {
			g.Banks[i] = g.Clock.Bank
		}
	}
	anns, err := s.turnPassed(ctx, tx, g, st, -1, now, []tessera.Announcement{
		{Kind: tessera.AnnounceThread},
		s.startPost(g, st),
	})
	if err != nil {
		return err
	}
	return enqueue(ctx, tx, anns)
}

// startPost announces the start of a game: seats, the starting draw, whose
// turn, the board.
func (s *Service) startPost(g *tessera.Game, st engine.State) tessera.Announcement {
	var seats []string
	for i, pl := range g.Players {
		seats = append(seats, fmt.Sprintf("%s (seat %d)", pl.Name, i+1))
	}
	lines := []string{fmt.Sprintf("**%s**, game #%d, begins: %s. Clock: %s.", gameName(g.Setup.Game), g.ID, strings.Join(seats, ", "), ClockText(g.Clock))}
	if solo(g) {
		lines[0] = fmt.Sprintf("**%s**, game #%d%s, for %s alone: no clock, take your time.", gameName(g.Setup.Game), g.ID, optionText(g.Setup.Options), g.Players[0].Name)
	}
	if g.Event != 0 && g.EventName != "" {
		lines[0] += fmt.Sprintf(" A game of the tournament **%s** (#%d), round %d.", g.EventName, g.Event, g.EventRound+1)
	}
	if st, ok := st.(engine.Starter); ok {
		lines = append(lines, eventLines(g, st.StartEvents())...)
	}
	var r Reply
	lines = append(lines, s.turnLine(g, st, &r))
	lines = append(lines, fmt.Sprintf("Move with /move (%s lists your legal moves); see your pieces with /hand.", neutralWording.MoveList))
	return tessera.Announcement{Kind: tessera.AnnouncePost, Text: strings.Join(lines, "\n"), Board: true, Ping: r.Mentions}
}

// turnPassed finishes a change of position inside the store transaction:
// it charges the clock of the seat that moved (moved < 0: none), ends the
// game (gameOver) or gives the next player the turn with their deadline
// (nextTurn), and returns the step's announcements (stepAnnouncements):
// those given, the status edit and the turn notice. The caller enqueues
// them (enqueue), in the same transaction.
func (s *Service) turnPassed(ctx context.Context, tx storage.Tx, g *tessera.Game, st engine.State, moved int, now time.Time, posts []tessera.Announcement) ([]tessera.Announcement, error) {
	if moved >= 0 && !g.Players[moved].IsAI() {
		endTurn(g, moved, now)
	}
	aiNext := !st.Over() && aiToMove(g, st)
	g.AITurn = aiNext        // the store's index of the AI's pending moves
	g.RemindAt = time.Time{} // the next player's, below: none when the game is over or the AI is to move
	line := ""
	if st.Over() {
		var err error
		if line, err = s.gameOver(ctx, tx, g, st, now); err != nil {
			return nil, err
		}
	} else if err := s.nextTurn(ctx, tx, g, st, aiNext, now); err != nil {
		return nil, err
	}
	return stepAnnouncements(g, st, aiNext, posts, line), nil
}

// gameOver ends g: finished, rated (its rating line is returned, for the
// post that ends it), and its result counted in its tournament.
func (s *Service) gameOver(ctx context.Context, tx storage.Tx, g *tessera.Game, st engine.State, now time.Time) (string, error) {
	g.Status = tessera.StatusFinished
	g.Deadline = time.Time{}
	line, err := s.rateGame(ctx, tx, g, st) // ratings.go
	if err != nil {
		return "", err
	}
	if g.Event != 0 { // its result counts in its tournament (tournamentround.go)
		if err := s.eventGameOver(ctx, tx, g, st, now); err != nil {
			return "", err
		}
	}
	return line, nil
}

// nextTurn starts the turn of the seat to move: the AI's has no deadline;
// a person's gets their deadline and reminder (away on vacation or not).
func (s *Service) nextTurn(ctx context.Context, tx storage.Tx, g *tessera.Game, st engine.State, aiNext bool, now time.Time) error {
	if aiNext {
		// The AI never times out: its turn has no deadline.
		g.TurnStart, g.Paused, g.Reminded, g.Deadline = now, 0, time.Time{}, time.Time{}
		return nil
	}
	next := int(st.ToMove())
	u, err := tx.User(ctx, g.Players[next].ID)
	if err != nil {
		return err
	}
	startTurn(g, next, now, u.VacationUntil)
	g.RemindAt = s.nextReminder(g, u.VacationUntil) // scheduler.go
	return nil
}

// stepAnnouncements are the announcements of one step of g, now at st:
// posts (the rating line, when the game ended, added to the post that
// ends it), the status edit after them unless a thread is made (a game's
// place, made by its first announcement, posts the status message
// itself), and the notice of the next player's turn. Each carries the
// game and its move count; the post that ends a game offers a rematch.
// It reads nothing and changes nothing (step_internal_test.go).
func stepAnnouncements(g *tessera.Game, st engine.State, aiNext bool, posts []tessera.Announcement, line string) []tessera.Announcement {
	out := slices.Clone(posts)
	if i := lastPost(out); st.Over() && line != "" && i >= 0 {
		out[i].Text += "\n" + line
	}
	if !slices.ContainsFunc(out, func(a tessera.Announcement) bool { return a.Kind == tessera.AnnounceThread }) {
		out = append(out, tessera.Announcement{Kind: tessera.AnnounceStatus})
	}
	// The AI gets no turn notices, nor does a player alone (nobody else
	// moves in between: they know it is their turn).
	if !st.Over() && !aiNext && !solo(g) {
		out = append(out, tessera.Announcement{Kind: tessera.AnnounceTurn, UserID: g.Players[st.ToMove()].ID, Board: true})
	}
	for i := range out {
		out[i].GameID, out[i].Moves = g.ID, len(g.Moves)
		// The post that ends a game offers its players a rematch.
		// (Alone, /puzzle starts another.)
		out[i].Rematch = out[i].Rematch || st.Over() && out[i].Kind == tessera.AnnouncePost && !solo(g)
	}
	return out
}

// enqueue puts a step's announcements in the outbox, in tx.
func enqueue(ctx context.Context, tx storage.Tx, anns []tessera.Announcement) error {
	for _, a := range anns {
		if err := tx.Enqueue(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

func lastPost(posts []tessera.Announcement) int {
	for i := len(posts) - 1; i >= 0; i-- {
		if posts[i].Kind == tessera.AnnouncePost {
			return i
		}
	}
	return -1
}

// poke wakes the courier, and the AI worker: a change that wakes one may
// have given an AI seat the turn.
func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.pokeAI()
}

// Wake is signalled when the outbox has something new.
func (s *Service) Wake() <-chan struct{} { return s.wake }

// turnLine says whose turn it is, pinging them, or who won.
func (s *Service) turnLine(g *tessera.Game, st engine.State, r *Reply) string {
	if solo(g) {
		return s.soloTurnLine(g, st)
	}
	if st.Over() {
		var win []string
		for _, w := range st.Winners() {
			if p := g.Players[w]; p.IsAI() { // named (the line is bold already), not pinged
				win = append(win, p.Name)
				continue
			}
			u := s.user(g, int(w))
			win = append(win, s.mention(u))
			r.Mentions = append(r.Mentions, u.ID)
		}
		switch len(win) {
		case 0:
			return "**Game over.**"
		case 1:
			return fmt.Sprintf("**Game over: %s wins!**", win[0])
		}
		return fmt.Sprintf("**Game over: %s share the win!**", joinAnd(win))
	}
	if aiToMove(g, st) {
		return fmt.Sprintf("**%s** is thinking.", g.Players[st.ToMove()].Name)
	}
	u := s.user(g, int(st.ToMove()))
	r.Mentions = append(r.Mentions, u.ID)
	return fmt.Sprintf("%s, your turn.", s.mention(u))
}

// Decline turns a challenge down; the challenger's Decline withdraws it.
func (s *Service) Decline(req Request, id uint64) (Reply, error) {
	g, seat, err := s.challenge(req, id)
	if err != nil {
		return Reply{}, err
	}
	if seat == g.ChallengerSeat() {
		return s.Withdraw(req, id)
	}
	if g.Open {
		return s.leaveOpen(req, g, seat)
	}
	return s.endChallenge(req, g, tessera.StatusDeclined, "declined")
}

// Withdraw calls a challenge off: only its challenger may.
func (s *Service) Withdraw(req Request, id uint64) (Reply, error) {
	g, seat, err := s.challenge(req, id)
	if err != nil {
		return Reply{}, err
	}
	if seat != g.ChallengerSeat() {
		return Reply{}, errorf(tessera.EFORBIDDEN, "Only %s, who made the challenge, can withdraw it; to turn it down, use Decline.", g.Players[g.ChallengerSeat()].Name)
	}
	return s.endChallenge(req, g, tessera.StatusWithdrawn, "withdrew")
}

func (s *Service) endChallenge(req Request, g *tessera.Game, status tessera.Status, verb string) (Reply, error) {
	ctx := req.Context()
	if _, err := s.store.Update(ctx, g.ID, g.Version, req.InteractionID, func(g *tessera.Game, tx storage.Tx) error {
		g.Status = status
		g.Updated = s.now().UTC()
		return s.settle(ctx, tx, g, endedChallengeText(g, fmt.Sprintf("%s %s the challenge", req.User.Name, verb)))
	}); err != nil {
		return Reply{}, dup(err)
	}
	s.poke() // the challenge's message is rewritten
	return Reply{Text: fmt.Sprintf("%s %s the challenge to game #%d.", req.User.Name, verb, g.ID), Ephemeral: elsewhere(g, req)}, nil
}

// playable loads the game for a command of a player in it.
func (s *Service) playable(req Request, ref string, forMove bool) (*tessera.Game, *position, int, error) {
	which := inPlay
	if forMove {
		which = toMove
	}
	g, err := s.findGame(req, ref, which)
	if err != nil {
		return nil, nil, 0, err
	}
	seat := g.Seat(req.User.ID)
	if seat < 0 {
		return nil, nil, 0, errorf(tessera.EFORBIDDEN, "You are not playing in game #%d.", g.ID)
	}
	// The move is committed with g.Version (commit's Update checks it),
	// so the position checked here is the one it is played on.
	if req.Seen != 0 && g.Version != req.Seen {
		return nil, nil, 0, errorf(tessera.ECONFLICT, "Game #%d has changed since you chose that move, so it was not played (a move you had already sent was played once). Look at the position now and choose again.", g.ID)
	}
	switch g.Status {
	case tessera.StatusChallenge:
		return nil, nil, 0, errorf(tessera.EINVALID, "Game #%d has not started: everyone must accept the challenge first.", g.ID)
	case tessera.StatusDeclined, tessera.StatusWithdrawn, tessera.StatusExpired:
		return nil, nil, 0, errorf(tessera.EINVALID, "Game #%d never started: the challenge was %s.", g.ID, g.Status)
	case tessera.StatusAborted:
		return nil, nil, 0, errorf(tessera.EINVALID, "Game #%d was aborted, without result.", g.ID)
	case tessera.StatusFinished:
		return nil, nil, 0, errorf(tessera.EINVALID, "Game #%d is over.", g.ID)
	}
	p, err := s.state(g)
	if err != nil {
		return nil, nil, 0, err
	}
	return g, p, seat, nil
}

// Move plays a move in notation.
func (s *Service) Move(req Request, ref, text string) (Reply, error) {
	req, ref, text = cleanRequest(req), CleanInput(ref), CleanInput(text) // input.go
	g, p, seat, err := s.playable(req, ref, true)
	if err != nil {
		return Reply{}, err
	}
	if resigned(p.state, seat) {
		return Reply{}, alreadyResigned(g)
	}
	if to := p.state.ToMove(); int(to) != seat {
		if aiToMove(g, p.state) {
			return Reply{}, errorf(tessera.EFORBIDDEN, "%s is thinking about its move in game #%d; its move is posted when it has chosen.", g.Players[to].Name, g.ID)
		}
		return Reply{}, errorf(tessera.EFORBIDDEN, "It is %s's turn in game #%d, not yours.", g.Players[to].Name, g.ID)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return Reply{}, errorf(tessera.EINVALID, "Type a move, or pick one from the %s list.", neutralWording.MoveList)
	}
	if len(text) > 200 {
		return Reply{}, errorf(tessera.EINVALID, "That move is too long; pick one from the %s list.", neutralWording.MoveList)
	}
	if strings.EqualFold(text, string(tessera.EndResign)) {
		return s.Resign(req, strconv.FormatUint(g.ID, 10))
	}
	o, err := s.play(req, g, p, seat, text)
	if err != nil {
		return Reply{}, err
	}
	text = fmt.Sprintf("You played `%s`", o.Move)
	if len(o.Deltas) > 0 {
		text += ": " + deltaText(g, o)
	}
	where := "in the game's thread"
	if g.NoThread || req.ChannelID == g.Place() {
		where = "here"
	}
	return Reply{Text: text + ". The board is posted " + where + ".", Ephemeral: true}, nil
}

// play plays seat's move, given in notation, on the position p of g and
// commits it with g's version: a person's /move and the AI worker both
// move through it, so both are refused alike when the game changed.
func (s *Service) play(req Request, g *tessera.Game, p *position, seat int, text string) (engine.Outcome, error) {
	st := p.state.Clone()
	m, err := st.Parse(text)
	if err != nil {
		return engine.Outcome{}, err
	}
	o, err := st.Apply(m)
	if err != nil {
		return engine.Outcome{}, err
	}
	if _, err := s.commit(req, g, st, seat, m.String(), o, nil); err != nil {
		return engine.Outcome{}, err
	}
	if tessera.EndOf(m.String()) != tessera.EndResign {
		s.cfg.Meter.Moved(g.Setup.Game)
	}
	return o, nil
}

// commit stores a record entry and what it caused, in one transaction: the
// move, the clocks, the public post, the status edit and the next turn's
// notice (plus extra announcements).
func (s *Service) commit(req Request, g *tessera.Game, st engine.State, seat int, entry string, o engine.Outcome, extra []tessera.Announcement) (*tessera.Game, error) {
	ctx := req.Context()
	now := s.now().UTC()
	g, err := s.store.Update(ctx, g.ID, g.Version, req.InteractionID, func(g *tessera.Game, tx storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: seat, Text: entry, At: now})
		g.Updated = now
		moved := seat
		if tessera.EndOf(entry) == tessera.EndResign {
			moved = -1 // a resignation charges no clock
		}
		anns, err := s.turnPassed(ctx, tx, g, st, moved, now, append(extra, s.movePost(g, st, o)))
		if err != nil {
			return err
		}
		return enqueue(ctx, tx, anns)
	})
	if err != nil {
		return nil, dup(err)
	}
	s.remember(g, st)
	s.poke()
	return g, nil
}

// remember caches a position just written.
func (s *Service) remember(g *tessera.Game, st engine.State) {
	s.mu.Lock()
	s.cache[g.ID] = &position{version: g.Version, state: st}
	s.mu.Unlock()
}

// movePost is the public post after a move: the move and its points,
// what else happened, the scores, whose turn (pinged), and the board.
func (s *Service) movePost(g *tessera.Game, st engine.State, o engine.Outcome) tessera.Announcement {
	mover := g.Players[o.Seat].Name
	var lines []string
	switch tessera.EndOf(o.Move) {
	case tessera.EndResign:
		lines = append(lines, fmt.Sprintf("**%s** resigns game #%d.", mover, g.ID))
	case tessera.EndTimeout:
		lines = append(lines, fmt.Sprintf("**%s** ran out of time in game #%d.", mover, g.ID))
	default:
		line := fmt.Sprintf("**%s** played `%s`", mover, o.Move)
		if len(o.Deltas) > 0 {
			line += ": " + deltaText(g, o)
		}
		lines = append(lines, line+".")
	}
	for _, e := range eventLines(g, o.Events) {
		if e == mover+" resigns" {
			continue
		}
		lines = append(lines, e)
	}
	lines = append(lines, scoreLine(g, st))
	var r Reply
	lines = append(lines, s.turnLine(g, st, &r))
	return tessera.Announcement{Kind: tessera.AnnouncePost, Text: strings.Join(lines, "\n"), Board: true, Ping: r.Mentions}
}

// Resign asks the caller to confirm resigning.
func (s *Service) Resign(req Request, ref string) (Reply, error) {
	g, p, seat, err := s.playable(req, ref, false)
	if err != nil {
		return Reply{}, err
	}
	if resigned(p.state, seat) {
		return Reply{}, alreadyResigned(g)
	}
	return Reply{
		Text:      fmt.Sprintf("Resign game #%d (%s)? This cannot be undone.", g.ID, gameName(g.Setup.Game)),
		Ephemeral: true,
		Buttons: []Button{
			{ID: buttonID(actResign, g.ID), Label: "Resign", Style: Danger},
			{ID: buttonID(actCancel, g.ID), Label: "Keep playing", Style: Secondary},
		},
	}, nil
}

// ResignConfirm resigns the caller from a game.
func (s *Service) ResignConfirm(req Request, id uint64) (Reply, error) {
	g, p, seat, err := s.playable(req, strconv.FormatUint(id, 10), false)
	if err != nil {
		return Reply{}, err
	}
	// A second resignation would be stored and posted again, and would
	// count as a move that blocks /abort for the others.
	if resigned(p.state, seat) {
		return Reply{}, alreadyResigned(g)
	}
	st := p.state.Clone()
	o := st.Resign(engine.Seat(seat))
	if _, err := s.commit(req, g, st, seat, string(tessera.EndResign), o, nil); err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("You resigned game #%d.", g.ID), Ephemeral: true}, nil
}

// resigned reports whether seat has left the game (a resignation, or a
// time-out with three or more players).
func resigned(st engine.State, seat int) bool {
	v := st.View(engine.NoSeat).Seats
	return seat >= 0 && seat < len(v) && v[seat].Resigned
}

func alreadyResigned(g *tessera.Game) error {
	return errorf(tessera.EINVALID, "You have already left game #%d (you resigned or ran out of time); the others play on without you.", g.ID)
}

// Hand shows the caller their hand, to them only.
func (s *Service) Hand(req Request, ref string) (Reply, error) {
	g, p, seat, err := s.playable(req, ref, false)
	if err != nil {
		return Reply{}, err
	}
	v := p.state.View(engine.Seat(seat))
	png, err := s.renderer.Scene(p.state.HandScene(engine.Seat(seat)))
	if err != nil {
		return Reply{}, err
	}
	text := fmt.Sprintf("Your hand in game #%d: %s", g.ID, strings.Join(v.Seats[seat].Hand, ", "))
	if len(v.Seats[seat].Hand) == 0 {
		text = fmt.Sprintf("Your pieces in game #%d:", g.ID)
	}
	return Reply{Text: text, Ephemeral: true, Files: []File{{Name: fmt.Sprintf("hand-%d.png", g.ID), Data: png}}}, nil
}

// HandWords is the caller's hand in g in words, without its picture (a
// mail's notice shows the board's picture and names the hand).
func (s *Service) HandWords(req Request, ref string) (string, error) {
	_, p, seat, err := s.playable(req, ref, false)
	if err != nil {
		return "", err
	}
	return strings.Join(p.state.View(engine.Seat(seat)).Seats[seat].Hand, ", "), nil
}

// Board reposts a game's current picture: publicly in the game's own
// server, privately to a player asking from elsewhere.
func (s *Service) Board(req Request, ref string) (Reply, error) {
	g, err := s.findGame(req, ref, inPlay)
	if err != nil {
		return Reply{}, err
	}
	switch g.Status {
	case tessera.StatusChallenge:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d has not started: everyone must accept the challenge first.", g.ID)
	case tessera.StatusDeclined, tessera.StatusWithdrawn, tessera.StatusExpired:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d never started: the challenge was %s.", g.ID, g.Status)
	}
	p, err := s.state(g)
	if err != nil {
		return Reply{}, err
	}
	pic, err := s.picture(g, p.state)
	if err != nil {
		return Reply{}, err
	}
	lines := []string{fmt.Sprintf("**%s**, game #%d, after %s.", gameName(g.Setup.Game), g.ID, plural(len(g.Moves), "move")), scoreLine(g, p.state)}
	if g.Status == tessera.StatusAborted {
		lines[0] = fmt.Sprintf("**%s**, game #%d, aborted after %s: no result.", gameName(g.Setup.Game), g.ID, plural(len(g.Moves), "move"))
	} else if g.Status == tessera.StatusPlaying && aiToMove(g, p.state) {
		lines = append(lines, g.Players[p.state.ToMove()].Name+" is thinking")
	} else {
		lines = append(lines, picture.Status(picture.NewPanel("", p.state.View(engine.NoSeat), g.Names()).Seats))
	}
	// /board does not ping anyone: it is asked for, not a turn notice.
	return Reply{Text: strings.Join(lines, "\n"), Files: []File{pic}, Ephemeral: elsewhere(g, req)}, nil
}

// Plural is "1 move", "3 moves", for the commands' texts.
func Plural(n int, noun string) string { return plural(n, noun) }

// plural is "1 move", "3 moves".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// recentlyEnded is how long /games lists a game that ended, and how many.
const (
	recentlyEnded  = 7 * day
	recentEndedMax = 5
)

// Games lists the caller's games in play and challenges, then the games
// that ended in the last week (aborted, finished, declined, withdrawn), so
// a game that just ended reads as ended.
func (s *Service) Games(req Request) (Reply, error) {
	ctx := req.Context()
	games, err := s.store.ByPlayer(ctx, req.User.ID)
	if err != nil {
		return Reply{}, err
	}
	var lines, ended []string
	head := func(g *tessera.Game) string {
		return fmt.Sprintf("#%d %s: ", g.ID, vsText(g, req.User.ID))
	}
	for i := len(games) - 1; i >= 0 && len(ended) < recentEndedMax; i-- { // newest first
		if g := games[i]; !g.Active() && s.now().Sub(g.Updated) < recentlyEnded {
			ended = append(ended, head(g)+s.endedText(g))
		}
	}
	for _, g := range games {
		if !g.Active() {
			continue
		}
		seat := g.Seat(req.User.ID)
		state := "waiting for players to accept"
		if g.Status == tessera.StatusPlaying {
			p, err := s.state(g)
			if err != nil {
				return Reply{}, err
			}
			if to := p.state.ToMove(); int(to) == seat {
				state = "**your turn**"
			} else if aiToMove(g, p.state) {
				state = g.Players[to].Name + " is thinking"
			} else if to >= 0 {
				state = g.Players[to].Name + "'s turn"
			}
		}
		if left, ok := timeLeft(g, s.now()); ok {
			state += ", " + Span(left) + " left"
		}
		line := head(g) + state
		if g.Status == tessera.StatusPlaying && g.Place() != "" {
			line += " · " + LinkToken(g.GuildID, g.Place())
		}
		lines = append(lines, line)
	}
	text := "Your games:\n" + strings.Join(lines, "\n")
	if len(lines) == 0 {
		text = "You have no games in play. Start one with /new."
	}
	if len(ended) > 0 {
		text += "\nEnded this week:\n" + strings.Join(ended, "\n")
	}
	return Reply{Text: text, Ephemeral: true}, nil
}

// endedText says how a game ended.
func (s *Service) endedText(g *tessera.Game) string {
	switch g.Status {
	case tessera.StatusAborted:
		return "aborted, no result"
	case tessera.StatusDeclined:
		return "challenge declined"
	case tessera.StatusWithdrawn:
		return "challenge withdrawn"
	case tessera.StatusExpired:
		return "open challenge expired"
	}
	p, err := s.state(g)
	if err != nil {
		return "over"
	}
	if solo(g) {
		return strings.ToLower(scoreLine(g, p.state)) // "easy puzzle solved! …"
	}
	// "Game over: Ana wins" reads "game over: Ana wins" after the colon.
	st := picture.Status(picture.NewPanel("", p.state.View(engine.NoSeat), g.Names()).Seats)
	return strings.ToLower(st[:1]) + st[1:]
}

// Rules gives a game's rules summary and notation.
func (s *Service) Rules(gameID string) (Reply, error) {
	g, ok := engine.Lookup(gameID)
	if !ok {
		return Reply{}, noGame(gameID)
	}
	text := g.Summary
	if len(g.Options) > 0 {
		var opts []string
		for _, o := range g.Options {
			opts = append(opts, fmt.Sprintf("`%s`: %s", o.Name, o.Help))
		}
		text += "\n**Options** (in /new options:): " + strings.Join(opts, "; ")
	}
	if len(text) > 1990 {
		text = text[:1985] + "…"
	}
	return Reply{Text: text, Ephemeral: true}, nil
}

// ChallengeMessage records the message that carries a game's challenge,
// posted in channelID (the game's channel, or the thread of the game a
// rematch was asked for in). A game against the AI alone has begun
// already and waits for it to make its thread there: the courier is woken
// now.
func (s *Service) ChallengeMessage(ctx context.Context, gameID uint64, channelID, messageID string) error {
	_, err := s.store.Modify(ctx, gameID, func(g *tessera.Game, tx storage.Tx) error {
		if g.MessageID != "" {
			return nil
		}
		g.MessageID = messageID
		if channelID != "" && channelID != g.ChannelID {
			g.MessageChannel = channelID
		}
		if text := s.settledText(g); text != "" && hadButtons(g) {
			// Settled already (a click came before the id): the rewrite
			// found no message, so it is made now.
			return s.settle(ctx, tx, g, text)
		}
		return nil
	})
	s.poke()
	return err
}
