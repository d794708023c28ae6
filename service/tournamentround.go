package service

// A tournament's life once it starts: seeding, pairing each round and
// making its games (in the transaction that writes the event), recording
// each game's result in the game's own transaction and pairing the next
// round there, knockout matches game by game, and players who leave.
//
// Lock order: a game's transaction locks the game, then its event
// (tx.Event). UpdateEvent locks the event and only creates games, which
// nobody else can hold yet. Resigning a withdrawn player's games goes
// through each game's own transaction, never inside UpdateEvent.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
	"tessera/tournament"
)

// startEvent starts an open event: it seeds the players, pairs round 1
// (a round robin: every round) and makes its games, all in one
// UpdateEvent. byClock: the scheduler at starts:, which calls an event
// with too few players off instead of refusing.
func (s *Service) startEvent(ctx context.Context, id uint64, interactionID string, byClock bool) (*tessera.Event, error) {
	e, err := s.store.Event(ctx, id)
	if err != nil {
		return nil, err
	}
	ratings, err := s.eventRatings(ctx, e)
	if err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		e, err = s.changeEvent(ctx, id, interactionID, func(e *tessera.Event, tx storage.Tx) error {
			if try < 10 && slices.ContainsFunc(e.Pairing.Players, func(p tournament.Player) bool { _, asked := ratings[p.ID]; return !asked }) {
				return errEntrantsChanged // someone joined since the ratings were read
			}
			return s.startChange(ctx, e, tx, ratings, byClock)
		})
		if !errors.Is(err, errEntrantsChanged) {
			break
		}
		if e, err = s.store.Event(ctx, id); err != nil {
			return nil, err
		}
		if ratings, err = s.eventRatings(ctx, e); err != nil {
			return nil, err
		}
	}
	if errors.Is(err, errSame) {
		return e, nil
	}
	if err != nil {
		return nil, err
	}
	s.poke()
	return e, nil
}

// errEntrantsChanged makes startEvent read the entrants' ratings again.
var errEntrantsChanged = errors.New("the entrants changed while their ratings were read")

// startChange is startEvent's change of the event, with the entrants'
// ratings.
func (s *Service) startChange(ctx context.Context, e *tessera.Event, tx storage.Tx, ratings map[string]int, byClock bool) error {
	now := s.now().UTC()
	switch {
	case e.Status != tessera.EventOpen && byClock:
		return errSame
	case e.Status != tessera.EventOpen:
		return errorf(tessera.EINVALID, "%s is %s already.", eventTitle(e), eventStatusWord(e))
	case len(e.Pairing.Players) < e.Min && byClock:
		e.Status, e.Updated = tessera.EventCancelled, now
		e.Note = fmt.Sprintf("only %d of the %d players needed had joined at its start", len(e.Pairing.Players), e.Min)
		return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
	case len(e.Pairing.Players) < e.Min:
		return errorf(tessera.EINVALID, "%s needs at least %s to start and has %d; wait for more to join.", eventTitle(e), plural(e.Min, "player"), len(e.Pairing.Players))
	}
	return s.launch(ctx, tx, e, ratings, now)
}

// eventRatings are the entrants' shown ratings for the event's game in
// its server (1000 for one without), one point read an entrant.
func (s *Service) eventRatings(ctx context.Context, e *tessera.Event) (map[string]int, error) {
	out := map[string]int{}
	for _, p := range e.Pairing.Players {
		r, ok, err := s.store.PlayerRating(ctx, e.GuildID, e.Game, p.ID)
		if err != nil {
			return nil, err
		}
		out[p.ID] = 1000
		if ok {
			out[p.ID] = DisplayRating(r)
		}
	}
	return out, nil
}

// launch seeds the event's players and pairs its first round, inside the
// transaction that writes the event: the players by rating (equal ratings
// in an order drawn by lot from the event's seed).
func (s *Service) launch(ctx context.Context, tx storage.Tx, e *tessera.Event, ratings map[string]int, now time.Time) error {
	byID := map[string]tournament.Player{}
	var ids []string
	for _, p := range e.Pairing.Players {
		p.Rating = 1000
		if r, ok := ratings[p.ID]; ok {
			p.Rating = r
		}
		byID[p.ID] = p
		ids = append(ids, p.ID)
	}
	var ps []tournament.Player
	for _, id := range tournament.Shuffle(ids, e.Pairing.Seed) {
		ps = append(ps, byID[id])
	}
	e.Pairing.Players = tournament.Seeded(ps)
	if f := e.Pairing.Format; e.Pairing.Rounds == 0 && (f == tournament.FormatSwiss || f == tournament.FormatTables) {
		e.Pairing.Rounds = defaultRounds(f, len(ps), e.Pairing.Seats)
	}
	if e.Pairing.Format == tournament.FormatRoundRobin && e.Pairing.Seats > 2 {
		// The series at one table: the table is everyone who entered.
		e.Pairing.Seats = len(ps)
	}
	e.Status, e.Updated = tessera.EventRunning, now
	if err := enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus}); err != nil {
		return err
	}
	if e.ThreadID == "" {
		if err := enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventThread}); err != nil {
			return err
		}
	}
	text, err := s.advance(ctx, tx, e, now)
	if err != nil {
		return err
	}
	return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventPost, Text: clipTo(
		fmt.Sprintf("%s begins with %s.\n%s", eventTitle(e), plural(len(ps), "player"), text), 1990), Board: true})
}

// advance carries the event on after a change (tournament.Next, which
// owns the formats): it makes the games of the tables Next added, and
// finishes the event when Next says it is over. It returns what the
// event's thread is told ("" when nothing was paired).
func (s *Service) advance(ctx context.Context, tx storage.Tx, e *tessera.Event, now time.Time) (string, error) {
	step, err := tournament.Next(&e.Pairing, e.BestOf)
	if err != nil {
		return "", err
	}
	for len(e.Games) < len(e.Pairing.Played) {
		e.Games = append(e.Games, nil)
	}
	for _, t := range step.New {
		if err := s.makeGame(ctx, tx, e, t.Round, t.Table, now); err != nil {
			return "", err
		}
		if s.cfg.PairHook != nil {
			s.cfg.PairHook(ctx, e.ID, t.Round, t.Table)
		}
	}
	var lines []string
	for _, r := range step.Rounds() {
		lines = append(lines, s.pairingsText(e, r, nil))
	}
	text := strings.Join(lines, "\n")
	if step.AtOnce {
		text = clipTo(fmt.Sprintf("Every game is played at once: %s.\n%s", plural(gamesOf(e), "game"), text), 1700)
	}
	if step.Over {
		end, err := s.finish(ctx, tx, e, now, step.Why)
		if err != nil {
			return "", err
		}
		text = strings.TrimPrefix(text+"\n"+end, "\n")
	}
	return text, nil
}

// makeGame makes and begins the game of round r's table t: its players
// have accepted by entering, the clock runs at once, the computer's entry
// plays an AI seat, and it is rated when the event is (never with the
// computer). Its thread is made in the event's channel, as any game's.
func (s *Service) makeGame(ctx context.Context, tx storage.Tx, e *tessera.Event, r, t int, now time.Time) error {
	table := e.Pairing.Played[r].Tables[t]
	opts, err := engine.ParseOptions(e.Options)
	if err != nil {
		return err
	}
	bot := s.Bot()
	names := entrantNamesByID(e)
	players := make([]tessera.Player, len(table.Seats))
	for i, id := range table.Seats {
		if lvl := e.AI[id]; lvl != "" {
			players[i] = tessera.Player{ID: bot.ID, AI: lvl, Accepted: true}
			continue
		}
		players[i] = tessera.Player{ID: id, Name: names[id], Accepted: true}
	}
	nameAIs(players, bot.Name)
	g := &tessera.Game{Status: tessera.StatusChallenge, Setup: engine.Setup{Game: e.Game, Players: len(players), Options: opts},
		Players: players, GuildID: e.GuildID, ChannelID: e.ChannelID, Created: now, Updated: now, Clock: e.Clock,
		NoThread: s.cfg.NoThreads, Unrated: !e.Rated, Event: e.ID, EventRound: r, EventTable: t, EventName: e.Pairing.Name}
	// One write: the game begins (its announcements need its id) before
	// it is stored.
	if err := tx.CreateGame(ctx, g, func(g *tessera.Game) error { return s.begin(ctx, tx, g, now) }); err != nil {
		return err
	}
	for len(e.Games[r]) <= t {
		e.Games[r] = append(e.Games[r], 0)
	}
	e.Games[r][t] = g.ID
	return nil
}

func gamesOf(e *tessera.Event) int {
	n := 0
	for _, rd := range e.Pairing.Played {
		n += len(rd.Tables)
	}
	return n
}

// finish ends the event: its standings are final. why, when set, says
// why it ended before its planned rounds.
func (s *Service) finish(ctx context.Context, tx storage.Tx, e *tessera.Event, now time.Time, why string) (string, error) {
	e.Status, e.Updated, e.Note = tessera.EventFinished, now, why
	if err := enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus}); err != nil {
		return "", err
	}
	lines, err := standingsLines(e)
	if err != nil {
		return "", err
	}
	head := fmt.Sprintf("%s is over. %s", eventTitle(e), s.winnerLine(e))
	if why != "" {
		head = fmt.Sprintf("%s is over (%s). %s", eventTitle(e), why, s.winnerLine(e))
	}
	return head + "\nFinal places:\n" + strings.Join(lines, "\n"), nil
}

// eventGameOver records a finished game's result in its event, in the
// game's own transaction (called from turnPassed), and carries the event
// on: the next round, a match's next game, or the event's end. Each
// result posts the standings in the event's thread.
func (s *Service) eventGameOver(ctx context.Context, tx storage.Tx, g *tessera.Game, st engine.State, now time.Time) error {
	e, err := tx.Event(ctx, g.Event)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // the event is gone: the game was an ordinary one after all
	}
	if err != nil {
		return err
	}
	r, t := g.EventRound, g.EventTable
	if !e.Active() || r >= len(e.Games) || t >= len(e.Games[r]) || e.Games[r][t] != g.ID || e.Pairing.Played[r].Tables[t].Played() {
		return nil // cancelled, or already recorded
	}
	table := &e.Pairing.Played[r].Tables[t]
	places := Places(g, st)
	table.Places = make([]int, len(places))
	for i, pl := range places {
		table.Places[i] = pl + 1
	}
	table.Forfeited = forfeits(g, st)
	text := s.resultLine(e, r, t)
	more, err := s.advance(ctx, tx, e, now)
	if err != nil {
		return err
	}
	if more != "" {
		text += "\n" + more
	}
	e.Updated = now
	if err := enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventPost, Text: clipTo(text, 1990), Board: true}); err != nil {
		return err
	}
	return tx.PutEvent(ctx, e)
}

// forfeits marks, by seat, the players of a two-player game who lost it
// on time without having made a move: they did not appear, so the game
// is a forfeit (issue #48): it scores as the result says, but is no
// meeting for the pairing, and the tie-breaks count it as unplayed
// (docs/tournaments.md). nil when both played. At tables of three or
// four a player who runs out of time first passes, and the game goes on
// among the others: it stays a game.
func forfeits(g *tessera.Game, st engine.State) []bool {
	if len(g.Players) != 2 {
		return nil
	}
	seats := st.View(engine.NoSeat).Seats
	out := make([]bool, 2)
	some := false
	for s := range out {
		moved, timedOut := false, false
		for _, m := range g.Moves {
			switch {
			case m.Seat != s:
			case m.End() == tessera.EndTimeout:
				timedOut = true
			case m.End() != tessera.EndResign:
				moved = true
			}
		}
		if timedOut && !moved && s < len(seats) && seats[s].Resigned {
			out[s], some = true, true
		}
	}
	if !some {
		return nil
	}
	return out
}

// resultLine says a table's result: "Round 2, table 1 (game #12): Ana 1,
// Bo 0.", and a forfeit's: "... Ana 1, Bo 0 (a forfeit: Bo never moved)."
func (s *Service) resultLine(e *tessera.Event, r, t int) string {
	names := entrantNamesByID(e)
	table := e.Pairing.Played[r].Tables[t]
	pts := tournament.Points(table)
	var parts []string
	for i, id := range table.Seats {
		parts = append(parts, fmt.Sprintf("%s %s", names[id], pointsText(pts[i])))
	}
	why := ""
	for i, id := range table.Seats {
		if i < len(table.Forfeited) && table.Forfeited[i] {
			why = fmt.Sprintf(" (a forfeit: %s never moved)", names[id])
		}
	}
	return fmt.Sprintf("Round %d, table %d (game #%d): %s%s.", r+1, t+1, e.Games[r][t], strings.Join(parts, ", "), why)
}

// withdrawConfirmed withdraws a player from a running event (their Leave
// confirmed, or their removal): they are no longer paired, and each of
// their games in play is resigned through the game's own transaction.
//
// The withdrawal is committed first and is itself the record of what is
// owed: a running event never keeps a withdrawn player's game in play.
// Should the process die before every resignation is committed, the
// next process's first tick finds the games left (completeLeaves) and
// resigns them, so a crash at any point leaves either no withdrawal or
// one that is completed when a process starts again, never a round
// waiting on a game nobody will play.
func (s *Service) withdrawConfirmed(req Request, id uint64, userID string) (Reply, error) {
	ctx := req.Context()
	var name string
	e, err := s.changeEvent(ctx, id, req.InteractionID, func(e *tessera.Event, tx storage.Tx) error {
		if e.GuildID != req.GuildID {
			return errorf(tessera.ENOTFOUND, "There is no tournament #%d in this server; /tournament list shows them.", id)
		}
		i := entrantIndex(e, userID)
		switch {
		case i < 0:
			return errorf(tessera.EINVALID, "That player is not entered in %s.", eventTitle(e))
		case e.Pairing.Players[i].Withdrawn && e.Status == tessera.EventRunning:
			// Left already: a click again (after a store error, say)
			// resigns what is still in play.
			name = e.Pairing.Players[i].Name
			return errSame
		case e.Pairing.Players[i].Withdrawn:
			return errorf(tessera.EINVALID, "%s has already left %s.", e.Pairing.Players[i].Name, eventTitle(e))
		case e.Status == tessera.EventOpen:
			e.Pairing.Players = slices.Delete(e.Pairing.Players, i, i+1)
			return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
		case !e.Active():
			return errorf(tessera.EINVALID, "%s is %s; nobody leaves it now.", eventTitle(e), eventStatusWord(e))
		}
		name = e.Pairing.Players[i].Name
		if err := e.Pairing.Withdraw(userID); err != nil {
			return err
		}
		e.Updated = s.now().UTC()
		how := "left"
		if userID != req.User.ID {
			how = "was removed by " + req.User.Name
		}
		if err := enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventPost,
			Text: fmt.Sprintf("%s %s: no longer paired; their games in play are resigned.", name, how)}); err != nil {
			return err
		}
		return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
	})
	if errors.Is(err, errSame) {
		e, err = s.eventByID(req, id)
	}
	if err != nil {
		return Reply{}, s.eventErr(req, id, err)
	}
	s.poke()
	if name == "" { // it had not started
		return Reply{Text: fmt.Sprintf("Taken out of %s.", eventTitle(e)), Ephemeral: true}, nil
	}
	n, err := s.resignEntrant(ctx, e, userID)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: fmt.Sprintf("%s has left %s; %s resigned.", name, eventTitle(e), plural(n, "game")), Ephemeral: true}, nil
}

// resignEntrant resigns every game in play of an entrant who left, each
// in its own transaction (a move meanwhile is a conflict: read again and
// resign then). It returns how many it resigned.
func (s *Service) resignEntrant(ctx context.Context, e *tessera.Event, entrant string) (int, error) {
	n := 0
	for r, rd := range e.Pairing.Played {
		for t, table := range rd.Tables {
			seat := slices.Index(table.Seats, entrant)
			if seat < 0 || table.Played() || r >= len(e.Games) || t >= len(e.Games[r]) || e.Games[r][t] == 0 {
				continue
			}
			done, err := s.resignSeat(ctx, e.Games[r][t], seat)
			if err != nil {
				return n, err
			}
			if done {
				n++
			}
		}
	}
	return n, nil
}

// resignSeat resigns one seat of a game in play, as its player's own
// resignation would; false when the game is over or the seat has left.
func (s *Service) resignSeat(ctx context.Context, gameID uint64, seat int) (bool, error) {
	for try := 0; ; try++ {
		g, err := s.store.Game(ctx, gameID)
		if err != nil {
			return false, err
		}
		if g.Status != tessera.StatusPlaying || seat >= len(g.Players) {
			return false, nil
		}
		p, err := s.state(g)
		if err != nil {
			return false, err
		}
		if resigned(p.state, seat) || p.state.Over() {
			return false, nil
		}
		st := p.state.Clone()
		o := st.Resign(engine.Seat(seat))
		_, err = s.commit(Request{}.WithContext(ctx), g, st, seat, string(tessera.EndResign), o, nil)
		if tessera.ErrorCode(err) == tessera.ECONFLICT && try < 20 {
			continue
		}
		return err == nil, err
	}
}

// startDueEvents is the tournaments' part of the scheduler's tick: at
// the process's first tick it completes the leaves a crash interrupted
// (completeLeaves), then starts the open events whose starts: has come,
// calling off those with too few players.
func (s *Service) startDueEvents(ctx context.Context, now time.Time) (int, error) {
	var n int
	if !s.leavesCompleted.Load() {
		var err error
		if n, err = s.completeLeaves(ctx, now); err != nil {
			s.log.Error("tournament: cannot complete the leaves owed", "err", err)
		} else {
			s.leavesCompleted.Store(true)
		}
	}
	due, err := s.store.EventsDue(ctx, now)
	if err != nil {
		return n, err
	}
	for _, id := range due {
		if _, err := s.startEvent(ctx, id, "", true); err != nil {
			s.log.Error("tournament: cannot start an event at its time", "event", id, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

// inPlayHorizon reaches past any deadline a clock sets, so that
// Due(now+inPlayHorizon) lists every game in play with a clock (every
// tournament game has one: clock:none is refused at new).
const inPlayHorizon = 100 * 365 * 24 * time.Hour

// completeLeaves resigns every game in play of a player who has left a
// running event: the games a leave did not get to before its process
// died. A leave is cut short only by its process's death, so the
// process that starts next completes it at its first tick, once: it
// reads every game in play (the clocks' index), which a tick every 30 s
// must not (issue 44), their events once each, and resigns
// through resignSeat, which does nothing to a game already over, so two
// processes' ticks, or a tick and the leave itself, resign a game once.
// It returns how many games it resigned.
func (s *Service) completeLeaves(ctx context.Context, now time.Time) (int, error) {
	ids, err := s.store.Due(ctx, now.Add(inPlayHorizon))
	if err != nil {
		return 0, err
	}
	var events []uint64
	seen := map[uint64]bool{}
	for _, id := range ids {
		g, err := s.store.Game(ctx, id)
		if err != nil {
			return 0, err
		}
		if g.Event != 0 && g.Status == tessera.StatusPlaying && !seen[g.Event] {
			seen[g.Event] = true
			events = append(events, g.Event)
		}
	}
	slices.Sort(events)
	n := 0
	for _, id := range events {
		e, err := s.store.Event(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return n, err
		}
		if e.Status != tessera.EventRunning {
			continue
		}
		for _, p := range e.Pairing.Players {
			if !p.Withdrawn {
				continue
			}
			k, err := s.resignEntrant(ctx, e, p.ID)
			n += k
			if err != nil {
				return n, err
			}
			if k > 0 {
				s.log.Info("tournament: resigned the games of a player who left", "event", e.ID, "player", p.ID, "games", k)
			}
		}
	}
	return n, nil
}
