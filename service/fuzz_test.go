package service

// Fuzz targets for what players type: button ids, the autocomplete
// filters, /settings, /vacation days and plain-text moves. Each checks a
// property that can fail, not only that nothing panics.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"tessera"
	_ "tessera/engine/games"
	"tessera/render"
	"tessera/storage"
	"tessera/storage/boltdb"
)

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

var fuzzUsers = []User{{"1", "Ana"}, {"2", "Bo"}, {"3", "Cy"}, {"4", "Dee"}}

// fuzzWorld is a service with five games: #1 a challenge from Ana to Bo
// in server g, #2 Ana against Bo in play in server g (Ana to move), #3
// Ana, Bo and Cy in play in server h, #4 Cy's open challenge for three in
// server g that Bo joined, #5 Ana against Bo finished in server g (Bo
// resigned). Dee plays in none. A fuzz input that
// legitimately changes a game makes the next input start from a fresh
// world, so every input meets the same games.
type fuzzWorld struct {
	mu    sync.Mutex
	dir   string
	n     int
	st    storage.Store
	svc   *Service
	now   time.Time
	place [4]string // the channels of the four "where" choices
}

func newFuzzWorld(f *testing.F) *fuzzWorld {
	w := &fuzzWorld{dir: f.TempDir(), now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	if err := w.build(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { w.st.Close() })
	return w
}

func (w *fuzzWorld) build() error {
	if w.st != nil {
		w.st.Close()
	}
	w.n++
	st, err := boltdb.Open(filepath.Join(w.dir, fmt.Sprintf("w%d.db", w.n)), storage.Options{NoSync: true})
	if err != nil {
		return err
	}
	w.st = st
	w.svc = New(st, Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return w.now }, Logger: discard()})
	ana, bo, cy := fuzzUsers[0], fuzzUsers[1], fuzzUsers[2]
	in := func(u User, guild, channel string) Request {
		w.n++
		return Request{User: u, GuildID: guild, ChannelID: channel, InteractionID: fmt.Sprint("setup", w.n)}
	}
	steps := []func() (Reply, error){
		func() (Reply, error) {
			return w.svc.NewGame(in(ana, "g", "c"), NewGameRequest{Game: "elemental", Opponents: []User{bo}, Options: "borders=RBGY", Clock: ""})
		},
		func() (Reply, error) {
			return w.svc.NewGame(in(ana, "g", "c"), NewGameRequest{Game: "elemental", Opponents: []User{bo}, Options: "borders=RBGY", Clock: "3d"})
		},
		func() (Reply, error) { return w.svc.Click(in(bo, "g", "c"), "accept:2") },
		func() (Reply, error) {
			return w.svc.NewGame(in(ana, "h", "c3"), NewGameRequest{Game: "elemental", Opponents: []User{bo, cy}, Options: "", Clock: ""})
		},
		func() (Reply, error) { return w.svc.Click(in(bo, "h", "c3"), "accept:3") },
		func() (Reply, error) { return w.svc.Click(in(cy, "h", "c3"), "accept:3") },
		func() (Reply, error) {
			return w.svc.NewOpen(in(cy, "g", "c"), NewGameRequest{Game: "tilingking", Seats: 3, Options: "", Clock: ""})
		},
		func() (Reply, error) { return w.svc.Click(in(bo, "g", "c"), "join:4") },
		func() (Reply, error) {
			return w.svc.NewGame(in(ana, "g", "c"), NewGameRequest{Game: "glorieta", Opponents: []User{bo}, Options: "", Clock: ""})
		},
		func() (Reply, error) { return w.svc.Click(in(bo, "g", "c"), "accept:5") },
		func() (Reply, error) { return w.svc.ResignConfirm(in(bo, "g", "c"), 5) },
	}
	for _, step := range steps {
		if _, err := step(); err != nil {
			return err
		}
	}
	// The games' threads, as the courier would make them (without
	// drawing the pictures it would post: the worlds are rebuilt often).
	for id, thread := range map[uint64]string{2: "th2", 3: "th3"} {
		if _, err := st.Modify(context.Background(), id, func(g *tessera.Game, _ storage.Tx) error { g.ThreadID = thread; return nil }); err != nil {
			return err
		}
	}
	w.place = [4]string{"c", "th2", "th3", "elsewhere"}
	return nil
}

// req is who asks from where: 0 the channel of #1 and #2, 1 the thread of
// #2, 2 the thread of #3 (server h), 3 a channel of another server.
func (w *fuzzWorld) req(who, where uint8) Request {
	w.n++
	guild := []string{"g", "g", "h", "other"}[where%4]
	return Request{User: fuzzUsers[int(who)%len(fuzzUsers)], GuildID: guild, ChannelID: w.place[where%4], InteractionID: fmt.Sprint("fuzz", w.n)}
}

// snapshot is every game by id.
func (w *fuzzWorld) snapshot(t *testing.T) map[uint64]*tessera.Game {
	out := map[uint64]*tessera.Game{}
	if err := w.st.All(t.Context(), func(g *tessera.Game) error { out[g.ID] = g; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// userSafe checks an error a player sees: a user error (never "our
// fault", which would mean the input broke something), on one line.
func userSafe(t *testing.T, what string, err error) {
	t.Helper()
	msg := tessera.ErrorMessage(err)
	if tessera.ErrorCode(err) == tessera.EINTERNAL || msg == "" || strings.Contains(msg, "\n") {
		t.Fatalf("%s: %v (code %s) is not a one-line user error", what, err, tessera.ErrorCode(err))
	}
}

// validButton reports whether id is a button that may change game g (as
// it was before the click) when u presses it: Accept by an invited player
// who has not accepted, Decline by a player, Withdraw by the challenger,
// all on a challenge; Resign by a player still in a game in play; Join
// of an open challenge with a free seat by someone of its server not in
// it; Rematch of a finished game, once, by one of its players.
func validButton(id string, g *tessera.Game, u User, guild string) bool {
	action, num, _ := strings.Cut(id, ":")
	n, err := strconv.ParseUint(num, 10, 64)
	seat := g.Seat(u.ID)
	challenge := g.Status == tessera.StatusChallenge
	if action == actJoin && err == nil && n == g.ID {
		return g.Open && challenge && seat < 0 && g.GuildID == guild && len(g.Players) < g.Setup.Players
	}
	if err != nil || n != g.ID || seat < 0 {
		return false
	}
	switch action {
	case actRematch:
		return g.Status == tessera.StatusFinished && g.Rematch == 0
	case actAccept:
		return challenge && !g.Players[seat].Accepted
	case actDecline:
		return challenge
	case actWithdraw:
		return challenge && seat == g.ChallengerSeat()
	case actResign:
		st, err := Replay(g)
		return err == nil && g.Status == tessera.StatusPlaying && !resigned(st, seat)
	}
	return false
}

// FuzzClick: a button id, whatever it is and whoever presses it from
// wherever, changes no game unless it is a valid button of that game
// pressed by one of its players, changes at most one game, and a refusal
// is a one-line user error.
func FuzzClick(f *testing.F) {
	for _, s := range []string{"accept:1", "decline:1", "withdraw:1", "resign:2", "resign:3", "cancel:2", "accept:01", "accept:1:2",
		"resign:18446744073709551615", "resign:-1", "accept:", ":", "", "withdraw:3", "resign:+2", "RESIGN:2", "accept:2",
		"join:4", "join:1", "join:2", "decline:4", "withdraw:4", "rematch:5", "rematch:2", "rematch:05", "history:0::1", "history:1:closure:2",
		"history:-1::1", "history:0:nope:1", "history:0::", "history:99999999999999999999::1", "join:5"} {
		for who := range uint8(4) {
			f.Add(s, who, uint8(0))
			f.Add(s, who, uint8(3))
		}
	}
	w := newFuzzWorld(f)
	f.Fuzz(func(t *testing.T, id string, who, where uint8) {
		w.mu.Lock()
		defer w.mu.Unlock()
		req := w.req(who, where)
		before := w.snapshot(t)
		r, err := w.svc.Click(req, id)
		if err != nil {
			userSafe(t, fmt.Sprintf("%s clicks %q", req.User.Name, id), err)
		} else if r.Text == "" {
			t.Fatalf("%q: an empty answer", id)
		}
		changed := 0
		for gid, g := range w.snapshot(t) {
			if before[gid] == nil { // a new game: only a rematch makes one
				action, num, _ := strings.Cut(id, ":")
				n, _ := strconv.ParseUint(num, 10, 64)
				if action != actRematch || before[n] == nil || !validButton(id, before[n], req.User, req.GuildID) {
					t.Fatalf("%s clicking %q made game #%d", req.User.Name, id, gid)
				}
				changed++
				continue
			}
			if g.Version == before[gid].Version {
				continue
			}
			changed++
			if !validButton(id, before[gid], req.User, req.GuildID) {
				t.Fatalf("%s clicking %q from %s changed game #%d (%s -> %s)", req.User.Name, id, req.GuildID, gid, before[gid].Status, g.Status)
			}
		}
		if changed > 1 {
			t.Fatalf("%q changed %d games", id, changed)
		}
		if changed > 0 {
			if err := w.build(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzChoices: the autocomplete lists for the notation and the game:
// option never list more than 25 choices, each within Discord's limits;
// every suggested move is legal for the caller, whose turn it is, and fits
// what they typed; every suggested game is one of the caller's games in
// play; and autocomplete changes nothing.
func FuzzChoices(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"2", ""}, {"2", "d5"}, {"", "d5 r"}, {"#3", "a1"}, {"1", "x"}, {"3", ""}, {"99", "pass"}, {"2 elemental", "e4 gy"}, {"", "ana"}} {
		for who := range uint8(4) {
			for where := range uint8(4) {
				f.Add(s[0], s[1], who, where)
			}
		}
	}
	w := newFuzzWorld(f)
	f.Fuzz(func(t *testing.T, ref, typed string, who, where uint8) {
		w.mu.Lock()
		defer w.mu.Unlock()
		req := w.req(who, where)
		before := w.snapshot(t)
		within := func(cs []Choice) {
			if len(cs) > MaxChoices {
				t.Fatalf("%d choices", len(cs))
			}
			for _, c := range cs {
				for _, s := range []string{c.Name, c.Value} {
					if n := utf8.RuneCountInString(s); n < 1 || n > 100 || !utf8.ValidString(s) { // Discord counts characters
						t.Fatalf("choice %+v is outside Discord's limits", c)
					}
				}
			}
		}
		cs := w.svc.MoveChoices(req, ref, typed)
		within(cs)
		if !(len(cs) == 1 && cs[0].Value == "?") && len(cs) > 0 {
			g, p, seat, err := w.svc.playable(req, ref, true)
			if err != nil || int(p.state.ToMove()) != seat {
				t.Fatalf("%s got moves for %q without being the player to move (%v)", req.User.Name, ref, err)
			}
			tw := words(typed)
			for _, c := range cs {
				st := p.state.Clone()
				m, err := st.Parse(c.Value)
				if err == nil {
					_, err = st.Apply(m)
				}
				if err != nil || !matches(c.Value, tw) {
					t.Fatalf("game #%d: suggested %q for %q is illegal (%v) or does not fit", g.ID, c.Value, typed, err)
				}
			}
		}
		gs := w.svc.GameChoices(req, typed)
		within(gs)
		want := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(typed)), "#")
		for _, c := range gs {
			id, err := strconv.ParseUint(c.Value, 10, 64)
			g := before[id]
			if err != nil || g == nil || g.Seat(req.User.ID) < 0 || g.Status != tessera.StatusPlaying || !strings.Contains(strings.ToLower(c.Name), want) {
				t.Fatalf("%s was offered game %q (%q) for %q", req.User.Name, c.Value, c.Name, typed)
			}
		}
		for gid, g := range w.snapshot(t) {
			if g.Version != before[gid].Version {
				t.Fatalf("autocomplete changed game #%d", gid)
			}
		}
	})
}

// FuzzSettings: /settings stores a time zone only when it is one the
// service can load (and never the server's "Local"), and notify only as on
// or off; a refusal is a one-line user error and changes nothing.
func FuzzSettings(f *testing.F) {
	for _, s := range [][2]string{{"off", "Europe/Paris"}, {"", "UTC"}, {"on", "Local"}, {"maybe", ""}, {"", "../../etc/passwd"}, {"", "/etc/localtime"},
		{"", "America/New_York"}, {"", "europe/paris"}, {"", " Asia/Tokyo "}, {"", "Etc/GMT+5"}, {"", strings.Repeat("A/", 80)}} {
		f.Add(s[0], s[1])
	}
	w := newFuzzWorld(f)
	f.Fuzz(func(t *testing.T, notify, zone string) {
		w.mu.Lock()
		defer w.mu.Unlock()
		req := w.req(3, 0) // Dee
		before, err := w.st.User(t.Context(), req.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, err = w.svc.Settings(req, notify, zone)
		after, _ := w.st.User(t.Context(), req.User.ID)
		if err != nil {
			userSafe(t, fmt.Sprintf("settings %q %q", notify, zone), err)
			if after.TimeZone != before.TimeZone || after.NotifyOff != before.NotifyOff {
				t.Fatalf("a refused /settings %q %q changed %+v to %+v", notify, zone, before, after)
			}
			return
		}
		switch n := strings.ToLower(strings.TrimSpace(notify)); n {
		case "", "on", "off":
			if n != "" && after.NotifyOff != (n == "off") {
				t.Fatalf("notify %q stored as off=%v", notify, after.NotifyOff)
			}
		default:
			t.Fatalf("notify %q accepted", notify)
		}
		if z := strings.TrimSpace(zone); z != "" {
			if _, err := time.LoadLocation(after.TimeZone); after.TimeZone != z || err != nil || strings.EqualFold(z, "local") {
				t.Fatalf("time zone %q stored as %q (%v)", zone, after.TimeZone, err)
			}
		} else if after.TimeZone != before.TimeZone {
			t.Fatalf("an empty time zone changed %q to %q", before.TimeZone, after.TimeZone)
		}
	})
}

// FuzzVacation: /vacation days is taken exactly when it is from 1 to the
// yearly allowance (20 here), pausing the clocks for exactly that many
// days; any other number is refused with one line and changes nothing.
func FuzzVacation(f *testing.F) {
	for _, d := range []int{0, 1, 5, 20, 21, 366, -1, 1 << 31, -1 << 63, 1<<63 - 1, 106752} {
		f.Add(d)
	}
	w := newFuzzWorld(f)
	f.Fuzz(func(t *testing.T, days int) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.n++
		// A new player each time, with the whole allowance.
		req := Request{User: User{ID: fmt.Sprint("v", w.n), Name: "Vi"}, GuildID: "g", ChannelID: "c", InteractionID: fmt.Sprint("vac", w.n)}
		_, err := w.svc.Vacation(req, days)
		u, _ := w.st.User(t.Context(), req.User.ID)
		if days < 1 || days > 20 {
			if err == nil {
				t.Fatalf("%d vacation days accepted", days)
			}
			userSafe(t, fmt.Sprintf("vacation %d", days), err)
			if !u.VacationUntil.IsZero() || len(u.VacationUsed) != 0 {
				t.Fatalf("a refused vacation of %d days was stored: %+v", days, u)
			}
			return
		}
		if err != nil {
			t.Fatalf("%d vacation days refused: %v", days, err)
		}
		if got := u.VacationUntil.Sub(w.now); got != time.Duration(days)*day || u.VacationUsed[w.now.Year()] != days {
			t.Fatalf("%d days: away for %v, %d days counted", days, got, u.VacationUsed[w.now.Year()])
		}
	})
}

// FuzzPlainMove: a plain message is taken as a move only when it reads
// like one (chatter is never taken), only from the player to move in the
// game's own place; a message not taken changes nothing; one taken either
// plays exactly that move or is answered with the public refusal, which
// names nothing hidden.
func FuzzPlainMove(f *testing.F) {
	for _, s := range []string{"d5 RGBY", "d5 RRRR", "d5 GYGY", "d9 RGBY", "good move!", "gg", "pass", "d5", "a1 BBBY", "lol 5", "/move d5", "17 m13 90", "resign"} {
		for who := range uint8(4) {
			f.Add(s, who, uint8(1))
		}
		f.Add(s, uint8(0), uint8(0))
		f.Add(s, uint8(1), uint8(2))
	}
	w := newFuzzWorld(f)
	f.Fuzz(func(t *testing.T, text string, who, where uint8) {
		w.mu.Lock()
		defer w.mu.Unlock()
		req := w.req(who, where)
		before := w.snapshot(t)
		queued, _ := w.st.Outbox(t.Context())
		taken := w.svc.PlainMove(req, "msg"+req.InteractionID, text)
		after := w.snapshot(t)
		queuedAfter, _ := w.st.Outbox(t.Context())
		if taken && !looksLikeMove(strings.TrimSpace(text)) {
			t.Fatalf("chatter %q was taken as a move", text)
		}
		moved := 0
		for gid, g := range after {
			switch b := before[gid]; {
			case len(g.Moves) == len(b.Moves):
			case len(g.Moves) == len(b.Moves)+1 && taken:
				moved++
				seat := g.Seat(req.User.ID)
				st, err := Replay(b)
				if err != nil {
					t.Fatal(err)
				}
				m, err := st.Parse(strings.TrimSpace(text))
				if err != nil || g.Place() != req.ChannelID || int(st.ToMove()) != seat || g.Moves[len(b.Moves)].Text != m.String() {
					t.Fatalf("%s's %q in %s was stored as %+v in game #%d", req.User.Name, text, req.ChannelID, g.Moves[len(b.Moves)], gid)
				}
			default:
				t.Fatalf("%q by %s changed game #%d's record from %d to %d entries", text, req.User.Name, gid, len(b.Moves), len(g.Moves))
			}
		}
		switch {
		case !taken && queuedAfter != queued:
			t.Fatalf("%q was not taken but %d announcements were queued", text, queuedAfter-queued)
		case taken && moved == 0:
			// Refused: one public answer, the fixed one.
			pending, err := w.st.Pending(t.Context(), w.now.Add(time.Hour), 1000)
			if err != nil {
				t.Fatal(err)
			}
			replies := 0
			for _, a := range pending {
				if a.Kind == tessera.AnnounceReply && a.Target == "msg"+req.InteractionID {
					replies++
					if a.Text != PlainMoveRefused {
						t.Fatalf("the public answer to %q is %q", text, a.Text)
					}
				}
			}
			if replies != 1 {
				t.Fatalf("%q refused with %d answers", text, replies)
			}
		}
		if moved > 0 || queuedAfter > 200 {
			if err := w.build(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
