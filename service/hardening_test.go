package service_test

// Tests for what careless and hostile players broke (issue 12, items 1-6):
// a leaked hand, a clock that overflows, a game shown in another server,
// repeated resignations, aborted games that read as in play, and a
// challenge its challenger could not withdraw.

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
)

// threadOf is game id's place after the courier made it.
func threadOf(t *testing.T, h *harness, id uint64) string {
	t.Helper()
	g, err := h.svc.Store().Game(t.Context(), id)
	if err != nil || g.ThreadID == "" {
		t.Fatalf("game %d has no place yet (%v)", id, err)
	}
	return g.ThreadID
}

// notHeld finds an Elemental tile Ana does not hold, which /move refuses
// privately by naming her hand.
func notHeld(t *testing.T, h *harness) (move, detail string) {
	t.Helper()
	for _, tile := range []string{"RRRR", "GGGG", "BBBB", "YYYY", "RRGG", "BBYY", "RGRG", "BYBY"} {
		_, err := h.svc.Move(h.req(ana), "", "d5 "+tile)
		if err != nil && strings.Contains(tessera.ErrorMessage(err), "you hold") {
			return "d5 " + tile, tessera.ErrorMessage(err)
		}
	}
	t.Fatal("Ana holds every candidate tile")
	return "", ""
}

// Item 1: a plain-text move's refusal is answered in the thread, which
// everyone reads, so it never names the mover's hand.
func TestPlainMoveRefusalHidesTheHand(t *testing.T) {
	h := newHarness(t)
	h.start()
	hand := handOf(t, h, ana)
	move, detail := notHeld(t, h)
	thread := threadOf(t, h, 1)
	req := h.req(ana)
	req.ChannelID = thread
	if !h.svc.PlainMove(req, "msg1", move) {
		t.Fatalf("%q by the player to move was ignored", move)
	}
	log := h.deliver()
	var replies []sent
	for _, p := range of(log, "post") {
		if p.Msg.ReplyTo == "msg1" {
			replies = append(replies, p)
		}
	}
	if len(replies) != 1 || replies[0].Channel != thread {
		t.Fatalf("want one public answer to the message in the thread: %s", texts(log))
	}
	public := replies[0].Msg.Text
	for _, tile := range hand {
		if strings.Contains(public, tile) {
			t.Fatalf("the public answer %q names %s from Ana's hand (the private reason is %q)", public, tile, detail)
		}
	}
	if strings.Contains(public, "hold") || !strings.Contains(public, "/move") {
		t.Fatalf("public answer %q: want no hand, and a pointer to /move", public)
	}
	if g, _ := h.svc.Store().Game(t.Context(), 1); len(g.Moves) != 0 {
		t.Fatal("a refused plain-text move was stored")
	}
}

// Item 2: every duration is bounded, in whole units, before arithmetic;
// the refusal states the bounds.
func TestDurationsAreBounded(t *testing.T) {
	for spec, want := range map[string]string{
		"bank=1d,inc=200000d":        "365d",
		"bank=1d,inc=9999999999999d": "365d",
		"bank=400d":                  "365d",
		"bank=1d,cap=366d":           "365d",
		"99d":                        "60d",
		"30m":                        "1h",
		"bank=30m":                   "1h",
		"bank=1d,inc=-1d":            "bank=7d",
		"153722867280912930d":        "60d",
		"bank=1d,bank=2d":            "twice",
	} {
		_, err := service.ParseClock(spec)
		if err == nil || tessera.ErrorCode(err) != tessera.EINVALID || !strings.Contains(tessera.ErrorMessage(err), want) {
			t.Errorf("clock %q: %v, want a refusal naming %q", spec, err, want)
		}
	}
	c, err := service.ParseClock("bank=365d,inc=365d,cap=365d")
	if err != nil || c.Inc != 365*24*time.Hour {
		t.Fatalf("the largest clock: %+v %v", c, err)
	}
	if c, err := service.ParseClock("bank=1d,inc=0d"); err != nil || c.Inc != 0 {
		t.Fatalf("no increment: %+v %v", c, err)
	}

	h := newHarness(t)
	for _, days := range []int{0, -1, -9223372036854775808, 21, 367, 1 << 40} {
		h.refused(tessera.EINVALID, "from 1 to 20")(h.svc.Vacation(h.req(ana), days))
	}
	if u, _ := h.svc.Store().User(t.Context(), ana.ID); !u.VacationUntil.IsZero() {
		t.Fatal("a refused vacation was stored")
	}

	good := service.Config{Renderer: render.Renderer{}, Clock: "3d", RemindAfter: 24 * time.Hour, VacationDays: 20}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	if err := (service.Config{Renderer: render.Renderer{}}).Validate(); err != nil {
		t.Fatalf("the defaults refused: %v", err)
	}
	for _, bad := range []service.Config{
		{Clock: "bank=1d,inc=200000d"},
		{RemindAfter: -time.Hour},
		{RemindAfter: time.Minute},
		{RemindAfter: 400 * 24 * time.Hour},
		{VacationDays: -1},
		{VacationDays: 367},
		{RetryBase: -time.Second},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}

// Item 3: a game is shown only in its own server, or to its players.
func TestGameShownOnlyInItsServer(t *testing.T) {
	h := newHarness(t)
	h.start()
	elsewhere := func(u service.User) service.Request {
		r := h.req(u)
		r.GuildID, r.ChannelID = "other", "c2"
		return r
	}
	// Cy, in another server, learns nothing about game #1, not even that
	// it exists: the answer is the one for a game that does not exist.
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Board(elsewhere(cy), "1"))
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Hand(elsewhere(cy), "1"))
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Move(elsewhere(cy), "1", "d5 RGBY"))
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Resign(elsewhere(cy), "1"))
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Abort(elsewhere(cy), "1"))
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Click(elsewhere(cy), "accept:1"))
	h.refused(tessera.ENOTFOUND, "There is no game #1.")(h.svc.Click(elsewhere(cy), "resign:1"))
	if cs := h.svc.MoveChoices(elsewhere(cy), "1", ""); len(cs) != 1 || strings.Contains(cs[0].Name, "Ana") {
		t.Fatalf("autocomplete for a stranger elsewhere: %+v", cs)
	}
	if cs := h.svc.GameChoices(elsewhere(cy), ""); len(cs) != 0 {
		t.Fatalf("game choices of a stranger: %+v", cs)
	}
	// In the game's own server anyone may look at the board.
	if r := h.ok(h.svc.Board(h.req(cy), "1")); r.Ephemeral || len(r.Files) != 1 {
		t.Fatalf("board in its own server: %+v", r)
	}
	// A player elsewhere sees it, but only they do: nothing is posted for
	// the other server to read.
	r := h.ok(h.svc.Board(elsewhere(bo), "1"))
	if !r.Ephemeral || len(r.Files) != 1 {
		t.Fatalf("board for a player in another server must be private: ephemeral %v, %d files", r.Ephemeral, len(r.Files))
	}
}

// Item 4: a resigned player cannot resign again.
func TestResignOnlyOnce(t *testing.T) {
	h := newHarness(t)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo, cy}, Options: "", Clock: ""}))
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	h.ok(h.svc.Click(h.req(cy), "accept:1"))
	h.deliver()
	h.ok(h.svc.Click(h.req(bo), "resign:1"))
	h.refused(tessera.EINVALID, "already left")(h.svc.Resign(h.req(bo), "1"))
	h.refused(tessera.EINVALID, "already left")(h.svc.Click(h.req(bo), "resign:1"))
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if len(g.Moves) != 1 || g.Status != tessera.StatusPlaying {
		t.Fatalf("record %+v, status %s: want one resignation, game on", g.Moves, g.Status)
	}
	// So the others may still abort the game before its second move.
	h.ok(h.svc.Abort(h.req(ana), "1"))
}

// Item 4: records stored before the fix may hold a resignation twice; they
// replay to the position they reached when played, which is the position
// without the repetition.
func TestRepeatedResignationsReplay(t *testing.T) {
	for _, id := range []string{"elemental", "closure", "tilingking"} {
		t.Run(id, func(t *testing.T) {
			setup := engine.Setup{Game: id, Players: 3, Seed: 11, Options: map[string]string{}}
			st, err := engine.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			// Bo (seat 1) resigns while Ana is to move, then four moves are
			// played, each the first legal one.
			clean := []tessera.MoveEntry{{Seat: 1, Text: "resign"}}
			st.Resign(1)
			for i := 0; i < 4 && !st.Over(); i++ {
				seat := int(st.ToMove())
				m := st.Legal()[0]
				if _, err := st.Apply(m); err != nil {
					t.Fatal(err)
				}
				clean = append(clean, tessera.MoveEntry{Seat: seat, Text: m.String()})
			}
			// The same record with Bo's resignation stored three times, once
			// between the moves.
			dup := append([]tessera.MoveEntry{clean[0], clean[0], clean[1]}, clean[0])
			dup = append(dup, clean[2:]...)
			want, err := service.Replay(&tessera.Game{Setup: setup, Moves: clean})
			if err != nil {
				t.Fatal(err)
			}
			got, err := service.Replay(&tessera.Game{Setup: setup, Moves: dup})
			if err != nil {
				t.Fatalf("the record with repeated resignations does not replay: %v", err)
			}
			samePosition(t, want, got, 3)
		})
	}
}

func samePosition(t *testing.T, want, got engine.State, seats int) {
	t.Helper()
	if want.ToMove() != got.ToMove() || want.Over() != got.Over() || !reflect.DeepEqual(want.Scores(), got.Scores()) {
		t.Fatalf("to move %d/%d, over %v/%v, scores %v/%v", want.ToMove(), got.ToMove(), want.Over(), got.Over(), want.Scores(), got.Scores())
	}
	for s := -1; s < seats; s++ {
		if !reflect.DeepEqual(want.View(engine.Seat(s)), got.View(engine.Seat(s))) {
			t.Fatalf("seat %d sees different positions", s)
		}
	}
	var a, b []string
	for _, m := range want.Legal() {
		a = append(a, m.String())
	}
	for _, m := range got.Legal() {
		b = append(b, m.String())
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("different legal moves")
	}
}

// Item 5: an aborted game reads as aborted in /board and /games.
func TestAbortedGameReadsAsAborted(t *testing.T) {
	h := newHarness(t)
	h.start()
	cs := h.svc.MoveChoices(h.req(ana), "", "")
	h.ok(h.svc.Move(h.req(ana), "", cs[0].Value))
	h.ok(h.svc.Abort(h.req(bo), ""))
	h.deliver()
	r := h.ok(h.svc.Board(h.req(cy), "1"))
	if !strings.Contains(r.Text, "aborted") || strings.Contains(r.Text, "to move") {
		t.Fatalf("/board of an aborted game: %q", r.Text)
	}
	r = h.ok(h.svc.Games(h.req(ana)))
	if !strings.Contains(r.Text, "#1") || !strings.Contains(r.Text, "aborted") {
		t.Fatalf("/games after an abort: %q", r.Text)
	}
}

// Item 6: the challenger withdraws a challenge with /abort or the
// Withdraw button; the invited players cannot.
func TestChallengerWithdraws(t *testing.T) {
	h := newHarness(t)
	r := h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	var ids []string
	for _, b := range r.Buttons {
		ids = append(ids, b.ID+" "+b.Label)
	}
	if strings.Join(ids, ", ") != "accept:1 Accept, decline:1 Decline, withdraw:1 Withdraw" {
		t.Fatalf("challenge buttons: %v", ids)
	}
	h.refused(tessera.EFORBIDDEN, "Only Ana")(h.svc.Click(h.req(bo), "withdraw:1"))
	h.refused(tessera.EFORBIDDEN, "not for you")(h.svc.Click(h.req(cy), "withdraw:1"))
	// The challenger's /abort in the channel finds the challenge.
	r = h.ok(h.svc.Abort(h.req(ana), ""))
	if !strings.Contains(r.Text, "withdrew") || r.Ephemeral {
		t.Fatalf("/abort of a challenge: %+v", r)
	}
	g, _ := h.svc.Store().Game(t.Context(), 1)
	if g.Status != tessera.StatusWithdrawn {
		t.Fatalf("status %s", g.Status)
	}
	h.refused(tessera.EINVALID, "withdrawn")(h.svc.Click(h.req(bo), "accept:1"))

	// The button does the same.
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	r = h.ok(h.svc.Click(h.req(ana), "withdraw:2"))
	if !strings.Contains(r.Text, "withdrew") {
		t.Fatalf("withdraw button: %q", r.Text)
	}
	// An invited player's /abort of a challenge declines it.
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "", Clock: ""}))
	r = h.ok(h.svc.Abort(h.req(bo), "3"))
	if g, _ := h.svc.Store().Game(t.Context(), 3); g.Status != tessera.StatusDeclined || !strings.Contains(r.Text, "declined") {
		t.Fatalf("an invited player's /abort: %s %q", g.Status, r.Text)
	}
}
