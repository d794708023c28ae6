package service_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
	"tessera/tournament"
)

// enter makes each user join event id.
func (h *harness) enter(id uint64, us ...service.User) {
	h.t.Helper()
	for _, u := range us {
		h.ok(h.svc.Click(h.req(u), fmt.Sprintf("tjoin:%d", id)))
	}
}

// userOf is the harness user with id.
func userOf(e *tessera.Event, id string) service.User {
	for _, p := range e.Pairing.Players {
		if p.ID == id {
			return service.User{ID: p.ID, Name: p.Name}
		}
	}
	return service.User{ID: id}
}

// order decides a table's result: its seats from the last place to the
// first (each resigns in turn until one is left, who wins).
type order func(e *tessera.Event, r, t int, seats []string) []int

// playEvent plays every game of the event as they come, by resigning
// seats in the order decide gives, until no game is in play; it returns
// the event as it ends.
func (h *harness) playEvent(id uint64, decide order) *tessera.Event {
	h.t.Helper()
	for step := 0; step < 10000; step++ {
		e := h.event(id)
		if e.Status != tessera.EventRunning {
			return e
		}
		played := false
		for r, rd := range e.Pairing.Played {
			for t, table := range rd.Tables {
				if table.Played() {
					continue
				}
				gid := e.Games[r][t]
				g, err := h.svc.Store().Game(h.t.Context(), gid)
				if err != nil {
					h.t.Fatal(err)
				}
				h.checkGame(e, g, r, t)
				for _, seat := range decide(e, r, t, table.Seats)[:len(table.Seats)-1] {
					h.ok(h.svc.ResignConfirm(h.req(userOf(e, table.Seats[seat])), gid))
				}
				played = true
				break
			}
			if played {
				break
			}
		}
		if !played {
			h.t.Fatalf("event #%d is running with no game in play: %+v", id, e.Pairing.Played)
		}
	}
	h.t.Fatalf("event #%d never ended", id)
	return nil
}

// checkGame: a table's game is a game of the event in play at that
// table, its seats the table's players.
func (h *harness) checkGame(e *tessera.Event, g *tessera.Game, r, t int) {
	h.t.Helper()
	if g.Event != e.ID || g.EventRound != r || g.EventTable != t || g.Status != tessera.StatusPlaying || g.Clock.Kind == "none" {
		h.t.Fatalf("game #%d of round %d table %d: event %d round %d table %d, %s, clock %s", g.ID, r, t, g.Event, g.EventRound, g.EventTable, g.Status, g.Clock.Kind)
	}
	if !slices.Equal(engine.OptionWords(g.Setup.Options), e.Options) {
		h.t.Fatalf("game #%d options %v, the event's %v", g.ID, g.Setup.Options, e.Options)
	}
	for i, id := range e.Pairing.Played[r].Tables[t].Seats {
		if e.AI[id] == "" && g.Players[i].ID != id {
			h.t.Fatalf("game #%d seats %v, table %v", g.ID, g.Names(), e.Pairing.Played[r].Tables[t].Seats)
		}
	}
}

// checkRounds holds what every event keeps: each game belongs to exactly
// one table, and nobody sits twice in a round (byes included).
func checkRounds(t *testing.T, e *tessera.Event) {
	t.Helper()
	seen := map[uint64]bool{}
	for r, rd := range e.Pairing.Played {
		in := map[string]bool{}
		met := map[string]string{} // a knockout's match: the same two again
		for i, table := range rd.Tables {
			gid := e.Games[r][i]
			if gid == 0 || seen[gid] {
				t.Fatalf("round %d table %d: game %d (made twice, or not made)", r+1, i+1, gid)
			}
			seen[gid] = true
			for j, id := range table.Seats {
				other := table.Seats[1-j%2]
				if in[id] && (e.Pairing.Format != tournament.FormatKnockout || met[id] != other) {
					t.Fatalf("round %d seats %s twice: %+v", r+1, id, rd)
				}
				in[id], met[id] = true, other
			}
		}
		for _, id := range rd.Byes {
			if in[id] {
				t.Fatalf("round %d: %s has a bye and a table", r+1, id)
			}
			in[id] = true
		}
		if len(e.Games[r]) != len(rd.Tables) {
			t.Fatalf("round %d: %d games for %d tables", r+1, len(e.Games[r]), len(rd.Tables))
		}
	}
}

// byName decides by the players' names: beats[a] lists whom a beats.
func byName(beats map[string][]string) order {
	return func(e *tessera.Event, r, t int, seats []string) []int {
		a, b := userOf(e, seats[0]).Name, userOf(e, seats[1]).Name
		if slices.Contains(beats[a], b) {
			return []int{1, 0}
		}
		if !slices.Contains(beats[b], a) {
			panic(fmt.Sprintf("no result for %s v %s", a, b))
		}
		return []int{0, 1}
	}
}

// lowerSeedWins: the better seed (earlier in the seeded players) wins.
func lowerSeedWins(e *tessera.Event, r, t int, seats []string) []int {
	idx := func(id string) int {
		return slices.IndexFunc(e.Pairing.Players, func(p tournament.Player) bool { return p.ID == id })
	}
	out := make([]int, len(seats))
	for i := range out {
		out[i] = i
	}
	slices.SortFunc(out, func(a, b int) int { return idx(seats[b]) - idx(seats[a]) }) // worst first
	return out
}

// TestEventRoundRobinFive: five players, so a bye a round, ten games
// all made at the start; the results below give the standings worked by
// hand:
//
//	p1 beats p2, p3, p4 (loses to p5): 3 points
//	p2 beats p3, p4, p5:               3 points
//	p3 beats p4, p5:                   2 points
//	p4 beats p5:                       1 point
//	p5 beats p1:                       1 point
//
// Sonneborn-Berger is the sum of the totals of the players beaten: p1
// 3+2+1 = 6, p2 2+1+1 = 4, p3 1+1 = 2, p4 1, p5 3. So p1 is first over
// p2 (equal points, SB 6 against 4), and p5 is fourth over p4 (1 point
// each, SB 3 against 1). A bye scores nothing in a round robin; each
// player played 4 games.
func TestEventRoundRobinFive(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Name: "Club League", Game: "closure", Format: "round-robin"})
	ps := players(5)
	h.enter(id, ps...)
	h.ok(h.svc.Click(h.req(ana), fmt.Sprintf("tstart:%d", id)))
	e := h.event(id)
	if e.Status != tessera.EventRunning || len(e.Pairing.Played) != 5 || gamesIn(e) != 10 {
		t.Fatalf("a round robin of 5 makes 5 rounds, 10 games at once: %s, %d rounds, %d games", e.Status, len(e.Pairing.Played), gamesIn(e))
	}
	for r, rd := range e.Pairing.Played {
		if len(rd.Byes) != 1 || len(rd.Tables) != 2 {
			t.Fatalf("round %d: %+v", r+1, rd)
		}
	}
	g, _ := h.svc.Store().Game(t.Context(), e.Games[1][0])
	if name := service.ThreadName(g); !strings.HasPrefix(name, "Club League R2 #") {
		t.Fatalf("thread name %q", name)
	}
	e = h.playEvent(id, byName(map[string][]string{
		"p1": {"p2", "p3", "p4"}, "p2": {"p3", "p4", "p5"}, "p3": {"p4", "p5"}, "p4": {"p5"}, "p5": {"p1"},
	}))
	checkRounds(t, e)
	if e.Status != tessera.EventFinished {
		t.Fatalf("status %s", e.Status)
	}
	st, err := service.Standings(e)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name   string
		points float64
		sb     float64
	}{{"p1", 3, 6}, {"p2", 3, 4}, {"p3", 2, 2}, {"p5", 1, 3}, {"p4", 1, 1}}
	for i, w := range want {
		got := st[i]
		if userOf(e, got.ID).Name != w.name || got.Points != w.points || got.TieBreaks[0].Value != w.sb || got.Games != 4 || got.Rank != i+1 {
			t.Errorf("place %d: %s %v points SB %v, %d games; want %+v", i+1, userOf(e, got.ID).Name, got.Points, got.TieBreaks[0].Value, got.Games, w)
		}
	}
	r := h.ok(h.svc.EventStandings(h.req(bo), ""))
	if !strings.Contains(r.Text, "Winner: **p1**") || !strings.Contains(r.Text, "1. p1: 3 points (Sonneborn-Berger: 6") {
		t.Fatalf("standings %q", r.Text)
	}
	if post := h.svc.EventPostMessage(e); len(post.Buttons) != 0 || !strings.Contains(post.Text, "Winner: **p1**") {
		t.Fatalf("final post %q", post.Text)
	}
}

func gamesIn(e *tessera.Event) int {
	n := 0
	for _, gs := range e.Games {
		n += len(gs)
	}
	return n
}

// TestEventSwissNine: nine players over four rounds: each round four
// tables and a bye, the next round paired by the game that ends the
// round (not before), no pairing repeated, nobody with two byes.
func TestEventSwissNine(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 4})
	h.enter(id, players(9)...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	e := h.event(id)
	if len(e.Pairing.Played) != 1 || len(e.Pairing.Played[0].Tables) != 4 || len(e.Pairing.Played[0].Byes) != 1 {
		t.Fatalf("round 1: %+v", e.Pairing.Played)
	}
	e = h.playEvent(id, lowerSeedWins)
	checkRounds(t, e)
	if e.Status != tessera.EventFinished || len(e.Pairing.Played) != 4 {
		t.Fatalf("%s after %d rounds", e.Status, len(e.Pairing.Played))
	}
	met, byes := map[[2]string]bool{}, map[string]int{}
	for _, rd := range e.Pairing.Played {
		if len(rd.Tables) != 4 || len(rd.Byes) != 1 {
			t.Fatalf("round %+v", rd)
		}
		byes[rd.Byes[0]]++
		for _, tb := range rd.Tables {
			k := [2]string{min(tb.Seats[0], tb.Seats[1]), max(tb.Seats[0], tb.Seats[1])}
			if met[k] {
				t.Fatalf("%v met twice", k)
			}
			met[k] = true
		}
	}
	for id, n := range byes {
		if n > 1 {
			t.Fatalf("%s had %d byes", id, n)
		}
	}
	// The best seed won every game: 4 points, first.
	st, _ := service.Standings(e)
	if st[0].ID != e.Pairing.Players[0].ID || st[0].Points != 4 {
		t.Fatalf("standings %+v", st[0])
	}
	p := h.ok(h.svc.EventPairings(h.req(bo), fmt.Sprint(id), 2))
	if !strings.Contains(p.Text, "**Round 2**") || strings.Count(p.Text, "Table ") != 4 || !strings.Contains(p.Text, "Bye") {
		t.Fatalf("pairings %q", p.Text)
	}
	h.refused(tessera.EINVALID, "give round: from 1 to 4")(h.svc.EventPairings(h.req(bo), fmt.Sprint(id), 9))
}

// TestEventKnockoutEight: eight players, matches best of 3. In each
// match the better seed wins the first game and loses the second, so
// every match needs its third game, the decider, seated by lot (the
// event's seed, the round and the match: tournament.MatchLot); the best
// seed wins the event after three rounds.
func TestEventKnockoutEight(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "glorieta", Format: "knockout", BestOf: 3})
	h.enter(id, players(8)...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	e := h.event(id)
	if len(e.Pairing.Played) != 1 || len(e.Pairing.Played[0].Tables) != 4 {
		t.Fatalf("round 1 starts with the first game of 4 matches: %+v", e.Pairing.Played)
	}
	seed := func(e *tessera.Event, id string) int {
		return slices.IndexFunc(e.Pairing.Players, func(p tournament.Player) bool { return p.ID == id })
	}
	e = h.playEvent(id, func(e *tessera.Event, r, t int, seats []string) []int {
		// The how-manieth game of this match is this table?
		k := 0
		for _, tb := range e.Pairing.Played[r].Tables[:t] {
			if slices.Contains(tb.Seats, seats[0]) {
				k++
			}
		}
		better := 0
		if seed(e, seats[1]) < seed(e, seats[0]) {
			better = 1
		}
		if k == 1 { // the second game: the worse seed wins it
			return []int{better, 1 - better}
		}
		return []int{1 - better, better}
	})
	checkRounds(t, e)
	if e.Status != tessera.EventFinished || len(e.Pairing.Played) != 3 {
		t.Fatalf("%s after %d rounds", e.Status, len(e.Pairing.Played))
	}
	for r, want := range []int{12, 6, 3} {
		if n := len(e.Pairing.Played[r].Tables); n != want {
			t.Fatalf("round %d: %d games, want %d (3 a match)", r+1, n, want)
		}
	}
	// The deciders' seats are drawn: the first two games alternate.
	rd := e.Pairing.Played[0]
	if rd.Tables[0].Seats[0] != rd.Tables[4].Seats[1] {
		t.Fatalf("the second game swaps the seats: %v %v", rd.Tables[0].Seats, rd.Tables[4].Seats)
	}
	if !strings.Contains(h.svc.EventPostMessage(e).Text, "Winner: **"+e.Pairing.Players[0].Name+"**") {
		t.Fatalf("final %q", h.svc.EventPostMessage(e).Text)
	}
	// A match's several games a round are read by the standings (text
	// and picture) as they are by the pairing.
	st := h.ok(h.svc.EventStandings(h.req(bo), ""))
	if !strings.Contains(st.Text, "1. "+e.Pairing.Players[0].Name+": 6 points") {
		t.Fatalf("standings %q", st.Text)
	}
	if _, err := h.svc.EventAnnouncement(e, tessera.Announcement{Kind: tessera.AnnounceEventPost, EventID: e.ID, Text: "x", Board: true}); err != nil {
		t.Fatal(err)
	}
	// And so does FIDE's report file, a match's games a round each.
	var trf strings.Builder
	if err := tournament.WriteTRF(&trf, service.LibraryView(e)); err != nil || !strings.Contains(trf.String(), "001") {
		t.Fatalf("TRF: %v\n%s", err, trf.String())
	}
}

// TestEventSwissTablesNine: nine players of a game for three: three full
// tables a round, nobody twice in a round, points by place (2, 1, 0).
func TestEventSwissTablesNine(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss-tables", Rounds: 3})
	h.enter(id, players(9)...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	e := h.playEvent(id, lowerSeedWins)
	checkRounds(t, e)
	if e.Status != tessera.EventFinished || len(e.Pairing.Played) != 3 {
		t.Fatalf("%s after %d rounds", e.Status, len(e.Pairing.Played))
	}
	for _, rd := range e.Pairing.Played {
		if len(rd.Tables) != 3 || len(rd.Byes) != 0 {
			t.Fatalf("round %+v", rd)
		}
		for _, tb := range rd.Tables {
			if len(tb.Seats) != 3 || !slices.Equal(tournament.Points(tb), pointsOfOrder(e, tb)) {
				t.Fatalf("table %+v points %v", tb, tournament.Points(tb))
			}
		}
	}
	st, _ := service.Standings(e)
	if st[0].Points != 6 || st[0].ID != e.Pairing.Players[0].ID {
		t.Fatalf("the best seed won its three tables: %+v", st[0])
	}
}

// pointsOfOrder are a table's points when the better seed always places
// higher: 2, 1, 0 by seed.
func pointsOfOrder(e *tessera.Event, tb tournament.Table) []float64 {
	out := make([]float64, len(tb.Seats))
	for i, id := range tb.Seats {
		for _, other := range tb.Seats {
			if seedOf(e, id) < seedOf(e, other) {
				out[i]++
			}
		}
	}
	return out
}

func seedOf(e *tessera.Event, id string) int {
	return slices.IndexFunc(e.Pairing.Players, func(p tournament.Player) bool { return p.ID == id })
}

// TestEventLeaveMidway: a player who leaves a running Swiss event after a
// confirm has their game in play resigned (its result recorded) and is
// paired no more; Stay changes nothing.
func TestEventLeaveMidway(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 3})
	ps := players(6)
	h.enter(id, ps...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	leaver := ps[2]
	r := h.ok(h.svc.LeaveEvent(h.req(leaver), id))
	if !r.Ephemeral || len(r.Buttons) != 2 || r.Buttons[0].ID != fmt.Sprintf("tquit:%d", id) {
		t.Fatalf("leaving a running event asks to confirm: %+v", r)
	}
	h.ok(h.svc.Click(h.req(leaver), fmt.Sprintf("tkeep:%d", id)))
	if e := h.event(id); e.Pairing.Players[seedOf(e, leaver.ID)].Withdrawn {
		t.Fatal("Stay withdrew the player")
	}
	// Bo may not remove anyone; the organiser may (after a confirm).
	h.refused(tessera.EFORBIDDEN, "organiser")(h.svc.RemoveFromEvent(h.req(bo), fmt.Sprint(id), ps[3]))
	h.ok(h.svc.Click(h.req(leaver), fmt.Sprintf("tquit:%d", id)))
	e := h.event(id)
	if !e.Pairing.Players[seedOf(e, leaver.ID)].Withdrawn {
		t.Fatal("not withdrawn")
	}
	// Their round-1 game was resigned: its result is in.
	for t2, tb := range e.Pairing.Played[0].Tables {
		if i := slices.Index(tb.Seats, leaver.ID); i >= 0 {
			if !tb.Played() || tb.Places[i] == 1 {
				t.Fatalf("the leaver's game %d: %+v", e.Games[0][t2], tb)
			}
		}
	}
	h.refused(tessera.EINVALID, "already left")(h.svc.LeaveEvent(h.req(leaver), id))
	e = h.playEvent(id, lowerSeedWins)
	checkRounds(t, e)
	for r, rd := range e.Pairing.Played[1:] {
		for _, tb := range rd.Tables {
			if slices.Contains(tb.Seats, leaver.ID) {
				t.Fatalf("round %d pairs the player who left", r+2)
			}
		}
		if slices.Contains(rd.Byes, leaver.ID) {
			t.Fatalf("round %d gives the player who left a bye", r+2)
		}
	}
	if e.Status != tessera.EventFinished {
		t.Fatalf("status %s", e.Status)
	}
}

// TestEventStartOnce: Start clicked twice, or by two at once, pairs the
// first round once: the second is told it has started.
func TestEventStartOnce(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 3})
	h.enter(id, players(4)...)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	reqs := make([]service.Request, 4)
	for i := range reqs {
		reqs[i] = h.req(ana)
	}
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = h.svc.Click(reqs[i], fmt.Sprintf("tstart:%d", id))
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !strings.Contains(h.svc.Fail(err).Text, "running already"):
			t.Fatalf("the second Start: %v", err)
		}
	}
	e := h.event(id)
	if ok != 1 || len(e.Pairing.Played) != 1 || gamesIn(e) != 2 {
		t.Fatalf("%d starts succeeded; %d rounds, %d games", ok, len(e.Pairing.Played), gamesIn(e))
	}
	all, err := h.svc.Store().ByPlayer(t.Context(), "101")
	if err != nil || len(all) != 1 {
		t.Fatalf("p1 has %d games (%v)", len(all), err)
	}
}

// TestEventStartsByClock: at starts: the scheduler starts an event with
// enough players, and calls off one without, saying why.
func TestEventStartsByClock(t *testing.T) {
	h := newHarness(t)
	full := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Starts: "2d"})
	short := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Starts: "1d", Min: 4})
	h.enter(full, players(3)...)
	h.enter(short, players(3)...)
	if _, err := h.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	if e := h.event(full); e.Status != tessera.EventOpen {
		t.Fatalf("started early: %s", e.Status)
	}
	h.now = h.now.Add(49 * 60 * 60e9)
	if _, err := h.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	if e := h.event(full); e.Status != tessera.EventRunning || len(e.Pairing.Played) != 1 {
		t.Fatalf("not started at its time: %s", e.Status)
	}
	e := h.event(short)
	if e.Status != tessera.EventCancelled || !strings.Contains(h.svc.EventPostMessage(e).Text, "only 3 of the 4 players") {
		t.Fatalf("short event: %s %q", e.Status, h.svc.EventPostMessage(e).Text)
	}
}

// TestEventAbortRefused: a tournament game cannot be aborted (its round
// would wait for ever); the player is told to resign.
func TestEventAbortRefused(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "knockout"})
	ps := players(2)
	h.enter(id, ps...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	e := h.event(id)
	h.refused(tessera.EINVALID, "resign")(h.svc.Abort(h.req(ps[0]), fmt.Sprint(e.Games[0][0])))
}

// TestEventsRandom: random events (every format, 2 to 12 players) played
// with random results always finish, every game at exactly one table and
// nobody twice in a round.
func TestEventsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 5))
	formats := []service.NewEventRequest{
		{Game: "closure", Format: "round-robin"},
		{Game: "closure", Format: "double-round-robin"},
		{Game: "closure", Format: "swiss"},
		{Game: "glorieta", Format: "knockout", BestOf: 3},
		{Game: "closure", Format: "swiss-tables"},
		{Game: "tilingking", Format: "swiss-tables", Seats: 4},
		{Game: "closure", Format: "round-robin", Seats: 3},
		{Game: "elemental", Format: "swiss", Options: "borders=RBGY"},
	}
	for i := 0; i < 2*len(formats); i++ {
		r := formats[i%len(formats)]
		n := 2 + rng.IntN(9)
		switch {
		case r.Format == "swiss-tables":
			n = r.Seats + rng.IntN(8)
			if r.Seats == 0 {
				n = 3 + rng.IntN(8)
			}
		case r.Seats == 3:
			n = 2 + rng.IntN(2)
		case r.Format == "double-round-robin":
			n = 2 + rng.IntN(4)
		}
		t.Run(fmt.Sprintf("%s-%d", r.Format, n), func(t *testing.T) {
			h := newHarness(t)
			id := h.newEvent(r)
			h.enter(id, players(n)...)
			h.ok(h.svc.StartEvent(h.req(ana), id))
			e := h.playEvent(id, func(e *tessera.Event, r, t int, seats []string) []int {
				return rng.Perm(len(seats))
			})
			checkRounds(t, e)
			if e.Status != tessera.EventFinished || !strings.Contains(h.svc.EventPostMessage(e).Text, "Winner") {
				t.Fatalf("%s: %q", e.Status, h.svc.EventPostMessage(e).Text)
			}
		})
	}
}

// TestEventHouseAI: ai: enters the computer as a player: its games seat
// an AI seat at that level (unrated, as every game against it), which the
// AI worker moves; games between people are rated; removing the bot
// removes its entry.
func TestEventHouseAI(t *testing.T) {
	h := newAIHarness(t, "")
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "round-robin", AI: "easy"})
	ps := players(2)
	h.enter(id, ps...)
	e := h.event(id)
	if len(e.Pairing.Players) != 3 || e.AI["ai-easy"] != "easy" || !strings.Contains(h.svc.EventPostMessage(e).Text, "Tessera (easy)") {
		t.Fatalf("the computer's entry: %+v", e.Pairing.Players)
	}
	h.ok(h.svc.StartEvent(h.req(ana), id))
	e = h.event(id)
	humans := 0
	for r, rd := range e.Pairing.Played {
		for tb, table := range rd.Tables {
			g := h.game(e.Games[r][tb])
			i := slices.Index(table.Seats, "ai-easy")
			switch {
			case i >= 0 && (g.Players[i].AI != "easy" || g.Players[i].ID != botUser.ID || service.Rated(&tessera.Game{Status: tessera.StatusFinished, Players: g.Players})):
				t.Fatalf("the computer's game #%d: %+v", g.ID, g.Players)
			case i < 0:
				humans++
				if g.Unrated {
					t.Fatalf("game #%d between people is unrated in a rated event", g.ID)
				}
			}
		}
	}
	if humans != 1 {
		t.Fatalf("%d games between people, want 1", humans)
	}
	if h.playAI() == 0 {
		t.Fatal("the computer made no move where it sits first")
	}
	// The organiser removes the computer: its games are resigned.
	r := h.ok(h.svc.RemoveFromEvent(h.req(ana), fmt.Sprint(id), botUser))
	if len(r.Buttons) != 2 || r.Buttons[0].ID != fmt.Sprintf("tkick:%d:ai-easy", id) {
		t.Fatalf("remove asks to confirm: %+v", r)
	}
	h.ok(h.svc.Click(h.req(ana), r.Buttons[0].ID))
	e = h.playEvent(id, lowerSeedWins)
	if e.Status != tessera.EventFinished {
		t.Fatalf("status %s", e.Status)
	}
	for _, rd := range e.Pairing.Played {
		for _, table := range rd.Tables {
			if i := slices.Index(table.Seats, "ai-easy"); i >= 0 && table.Places[i] == 1 {
				t.Fatalf("the computer, removed, won a game: %+v", table)
			}
		}
	}
}

// eventOutbox are the event's announcements waiting in the outbox, by
// kind, and takes them out.
func (h *harness) eventOutbox(id uint64) map[string][]tessera.Announcement {
	h.t.Helper()
	ctx := h.t.Context()
	all, err := h.svc.Store().Pending(ctx, h.now.Add(365*24*60*60e9), 10000)
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string][]tessera.Announcement{}
	var seqs []uint64
	for _, a := range all {
		if a.EventID == id {
			if a.GameID != 0 {
				h.t.Fatalf("an event announcement with game %d", a.GameID)
			}
			out[a.Kind] = append(out[a.Kind], a)
		}
		seqs = append(seqs, a.Seq)
	}
	if err := h.svc.Store().Delivered(ctx, seqs...); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// TestEventAnnouncements: each change of an event writes what its
// channel is owed in the same transaction: the post's edit for every
// entry, at the start the thread, the edit without buttons and the
// round's pairings with the standings picture; after each game the
// result with the standings; at the end the final places.
func TestEventAnnouncements(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Name: "Cup", Game: "glorieta", Format: "knockout"})
	if err := h.svc.EventMessage(t.Context(), id, "c", "m1"); err != nil {
		t.Fatal(err)
	}
	if e := h.event(id); e.MessageID != "m1" {
		t.Fatalf("post recorded as %q", e.MessageID)
	}
	ps := players(2)
	h.enter(id, ps...)
	if out := h.eventOutbox(id); len(out[tessera.AnnounceEventStatus]) != 3 || len(out) != 1 {
		t.Fatalf("the post is edited after its id and each entry: %v", out)
	}
	h.ok(h.svc.StartEvent(h.req(ana), id))
	out := h.eventOutbox(id)
	posts := out[tessera.AnnounceEventPost]
	if len(out[tessera.AnnounceEventThread]) != 1 || len(out[tessera.AnnounceEventStatus]) != 1 || len(posts) != 1 ||
		!posts[0].Board || !strings.Contains(posts[0].Text, "**Round 1**") || !strings.Contains(posts[0].Text, "p1 v p2") {
		t.Fatalf("at the start: %+v", out)
	}
	e := h.event(id)
	m, err := h.svc.EventAnnouncement(e, posts[0])
	if err != nil || m.Text != posts[0].Text {
		t.Fatalf("the post's message: %+v %v", m, err)
	}
	if name := h.svc.EventThreadName(e); !strings.Contains(name, "Cup") {
		t.Fatalf("thread %q", name)
	}
	h.ok(h.svc.ResignConfirm(h.req(ps[1]), e.Games[0][0]))
	out = h.eventOutbox(id)
	posts = out[tessera.AnnounceEventPost]
	if len(posts) != 1 || !posts[0].Board || !strings.Contains(posts[0].Text, "p1 1, p2 0") || !strings.Contains(posts[0].Text, "is over. Winner: **p1**") ||
		len(out[tessera.AnnounceEventStatus]) != 1 {
		t.Fatalf("after the final: %+v", out)
	}
	if e := h.event(id); e.Status != tessera.EventFinished || len(h.svc.EventPostMessage(e).Buttons) != 0 {
		t.Fatalf("finished: %s", e.Status)
	}
}

// harnessesOn are n services on one new database of adapter a (on
// PostgreSQL n processes), sharing the harness's clock.
func harnessesOn(t *testing.T, a adapter, n int) []*harness {
	stores := a.Open(t, n)
	out := make([]*harness, n)
	for i, st := range stores {
		h := &harness{t: t, sink: newSink(), now: time.Unix(1700000000, 0).UTC(), n: 1000 * i}
		h.svc = service.New(st, service.Config{Renderer: render.Renderer{},
			Seed: func() uint64 { return 7 },
			Now:  func() time.Time { return h.now },
		})
		out[i] = h
	}
	return out
}

// TestEventRoundOnceAcrossProcesses: on both stores, two processes
// pressing Start at once pair round 1 once, and the two games that end
// round 1 at once (each in its own process) pair round 2 once: the game
// that ends second sees the first's result in the event it locks.
func TestEventRoundOnceAcrossProcesses(t *testing.T) {
	eachAdapter(t, func(t *testing.T, a adapter) {
		hs := harnessesOn(t, a, 2)
		h := hs[0]
		id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss", Rounds: 2})
		ps := players(4)
		h.enter(id, ps...)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		reqs := []service.Request{hs[0].req(ana), hs[1].req(ana)}
		for i := range hs {
			wg.Add(1)
			go func() { defer wg.Done(); _, errs[i] = hs[i].svc.StartEvent(reqs[i], id) }()
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("two Starts: %v, %v; want exactly one to start it", errs[0], errs[1])
		}
		e := h.event(id)
		if len(e.Pairing.Played) != 1 || gamesIn(e) != 2 {
			t.Fatalf("round 1: %d rounds, %d games", len(e.Pairing.Played), gamesIn(e))
		}
		// Seat 2 of each table resigns, in two processes at once.
		for i := range hs {
			table := e.Pairing.Played[0].Tables[i]
			req := hs[i].req(userOf(e, table.Seats[1]))
			gid := e.Games[0][i]
			wg.Add(1)
			go func() { defer wg.Done(); _, errs[i] = hs[i].svc.ResignConfirm(req, gid) }()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("resigning: %v, %v", errs[0], errs[1])
		}
		e = h.event(id)
		checkRounds(t, e)
		if len(e.Pairing.Played) != 2 || gamesIn(e) != 4 || !roundPlayed(e, 0) {
			t.Fatalf("round 2 paired %d times: %+v", len(e.Pairing.Played)-1, e.Pairing.Played)
		}
		if n := countGames(t, h); n != 4 {
			t.Fatalf("%d games stored, want 4", n)
		}
	})
}

func roundPlayed(e *tessera.Event, r int) bool {
	for _, tb := range e.Pairing.Played[r].Tables {
		if !tb.Played() {
			return false
		}
	}
	return true
}

func countGames(t *testing.T, h *harness) int {
	n := 0
	if err := h.svc.Store().All(t.Context(), func(*tessera.Game) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEventTimeout: a game of the event whose clock runs out ends by the
// scheduler's tick like any game, and its result counts: the event's
// games are in the store's deadline index from the moment they are made.
func TestEventTimeout(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "glorieta", Format: "knockout", Clock: "1d"})
	h.enter(id, players(2)...)
	h.ok(h.svc.StartEvent(h.req(ana), id))
	h.now = h.now.Add(25 * 60 * 60e9)
	if n, err := h.svc.Tick(t.Context()); err != nil || n == 0 {
		t.Fatalf("tick: %d, %v", n, err)
	}
	e := h.event(id)
	if e.Status != tessera.EventFinished || !e.Pairing.Played[0].Tables[0].Played() {
		t.Fatalf("after the time-out: %s %+v", e.Status, e.Pairing.Played)
	}
}
