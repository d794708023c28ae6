package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/tournament"
)

// eventsDB makes a database with three tournaments played to the end
// through the service, and closes it: #1 a round robin of Closure for
// three (byes), #2 a knockout of Glorieta for two, best of three, and #3
// Swiss tables of TilingKing for three, in server g; the players of the
// last seats resign every game.
func eventsDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "e.db")
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0).UTC()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }})
	users := map[string]service.User{}
	for _, n := range []string{"ana", "bo", "cy"} {
		users[n] = service.User{ID: n, Name: strings.ToUpper(n[:1]) + n[1:]}
	}
	n := 0
	req := func(u service.User) service.Request {
		n++
		now = now.Add(time.Minute)
		return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("i", n)}
	}
	must := func(r service.Reply, err error) service.Reply {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, r := range []service.NewEventRequest{
		{Name: "Autumn league", Game: "closure", Format: "round-robin"},
		{Name: "Cup", Game: "glorieta", Format: "knockout", BestOf: 3},
		{Name: "Tables", Game: "tilingking", Format: "swiss-tables", Seats: 3, Rounds: 1},
	} {
		id := must(svc.NewEvent(req(users["ana"]), r)).Event
		entrants := []string{"ana", "bo", "cy"}
		if r.Format == "knockout" {
			entrants = entrants[:2]
		}
		for _, u := range entrants {
			must(svc.Click(req(users[u]), fmt.Sprintf("tjoin:%d", id)))
		}
		must(svc.StartEvent(req(users["ana"]), id))
		for range 20 {
			e, err := st.Event(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if e.Status == tessera.EventFinished {
				break
			}
			for _, round := range e.Games {
				for _, gid := range round {
					g, err := st.Game(t.Context(), gid)
					if err != nil || g.Status != tessera.StatusPlaying {
						continue
					}
					// The last seats resign until one player is left
					// (at a table of three the others play on).
					for seat := len(g.Players) - 1; seat > 0 && g.Status == tessera.StatusPlaying; seat-- {
						svc.ResignConfirm(req(users[g.Players[seat].ID]), gid) // refused when already resigned
						if g, err = st.Game(t.Context(), gid); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
		if e, _ := st.Event(t.Context(), id); e.Status != tessera.EventFinished {
			t.Fatalf("event %d: %s after 20 rounds of resignations", id, e.Status)
		}
	}
	st.Close()
	return db
}

// TestTournamentList: every tournament of the database, one row each,
// or one server's.
func TestTournamentList(t *testing.T) {
	db := eventsDB(t)
	code, out, errs := runCmd(t, "", "tournament", "list", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"ID  SERVER  NAME",
		"1   g       Autumn league  closure     round-robin  finished  3",
		"2   g       Cup            glorieta    knockout     finished  2",
		"3   g       Tables         tilingking  tables       finished  3",
		"3 tournaments",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the list lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runCmd(t, "", "tournament", "list", "--db", db, "--guild", "other"); code != 0 || !strings.HasSuffix(out, "0 tournaments\n") {
		t.Errorf("another server's: exit %d\n%s", code, out)
	}
}

// TestTournamentTRF: a round robin's TRF reads back (tournament.ReadTRF)
// to the same players and results as stored; a knockout's matches are
// written a game a round; tables have no TRF, and a wrong id is refused
// with what to do.
func TestTournamentTRF(t *testing.T) {
	db := eventsDB(t)
	st, err := boltdb.Open(db, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	league, _ := st.Event(t.Context(), 1)
	st.Close()

	code, out, errs := runCmd(t, "", "tournament", "trf", "1", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "012 Autumn league\n092 round-robin\n") {
		t.Fatalf("TRF:\n%s", out)
	}
	back, err := tournament.ReadTRF(strings.NewReader(out))
	if err != nil {
		t.Fatalf("the TRF does not read back: %v\n%s", err, out)
	}
	want, _ := tournament.Standings(league.Pairing)
	got, _ := tournament.Standings(back)
	if len(back.Players) != 3 || len(back.Played) != len(league.Pairing.Played) || fmt.Sprint(points(back, got)) != fmt.Sprint(points(league.Pairing, want)) {
		t.Fatalf("read back %d players, %d rounds, points %v; stored %v\n%s", len(back.Players), len(back.Played), points(back, got), points(league.Pairing, want), out)
	}

	// TRF-2026 holds the same event and reads back to the same points.
	code, out26, errs := runCmd(t, "", "tournament", "trf", "1", "--format", "2026", "--db", db)
	if code != 0 {
		t.Fatalf("--format 2026: exit %d: %s", code, errs)
	}
	back26, err := tournament.ReadTRF(strings.NewReader(out26))
	if err != nil {
		t.Fatalf("the TRF-2026 does not read back: %v\n%s", err, out26)
	}
	if got26, _ := tournament.Standings(back26); out26 == out || fmt.Sprint(points(back26, got26)) != fmt.Sprint(points(league.Pairing, want)) {
		t.Fatalf("TRF-2026 read back points %v, stored %v (the same text as TRF-16: %v)\n%s", points(back26, got26), points(league.Pairing, want), out26 == out, out26)
	}

	// The id may follow the flags too. A knockout's match of best of
	// three, where the second seat resigns each game (seats alternate:
	// 1-0, 0-1, then a decider), is three rounds of one game.
	code, out, errs = runCmd(t, "", "tournament", "trf", "--db", db, "#2")
	if code != 0 || !strings.Contains(out, "XXR 3\n") || !strings.Contains(out, "2 w 1     2 b 0") {
		t.Fatalf("the knockout: exit %d %s\n%s", code, errs, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"trf", "3", "--db", db}, 1, "played at tables of 3; a TRF holds two-player events only"},
		{[]string{"trf", "9", "--db", db}, 1, "there is no tournament #9"},
		{[]string{"trf", "--db", db}, 2, "needs one tournament id"},
		{[]string{"trf", "x", "--db", db}, 2, "needs one tournament id"},
		{[]string{"trf", "1", "2", "--db", db}, 2, "needs one tournament id"},
		{[]string{"trf", "1", "--format", "17", "--db", db}, 2, "--format is 16 or 2026"},
		{[]string{"frob"}, 2, `unknown subcommand "frob"`},
		{nil, 2, "usage: tessera tournament list"},
		{[]string{"-h"}, 0, "usage: tessera tournament list"},
		{[]string{"list", "-h"}, 0, "-guild"},
		{[]string{"trf", "-h"}, 0, "-db"},
	} {
		code, _, errs := runCmd(t, "", append([]string{"tournament"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("tessera tournament %s: exit %d, %q; want %d and %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.want)
		}
	}
}

// points are the standings' points and tie-breaks by player name (a TRF
// numbers the players).
func points(e tournament.Event, st []tournament.Standing) map[string]string {
	name := map[string]string{}
	for _, p := range e.Players {
		name[p.ID] = p.Name
	}
	out := map[string]string{}
	for _, s := range st {
		out[name[s.ID]] = fmt.Sprint(s.Points, s.TieBreaks)
	}
	return out
}
