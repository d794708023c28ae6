package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot/fakediscord"
	"tessera/storage"
)

// leaveStallEnv makes the crash test's bot process stop for good at its
// first game update: in the leave, after the withdrawal is committed and
// before the leaver's game is resigned. It prints LEAVING and waits to
// be killed.
const leaveStallEnv = "TESSERA_CRASH_LEAVE_STALL"

// stallResign is the store of a process that dies before it resigns.
type stallResign struct{ storage.Store }

func (s stallResign) Update(ctx context.Context, id, version uint64, interactionID string, change func(*tessera.Game, storage.Tx) error) (*tessera.Game, error) {
	fmt.Printf("LEAVING %d\n", id)
	select {} // the parent kills the process
}

// TestTournamentLeaveKilled (issue #48, part 5): a player of a Swiss
// event's last game in play leaves, and the process is killed with
// SIGKILL between the leave's steps (the withdrawal committed, the game
// not yet resigned). The next process's first tick resigns the game, so
// round 2 is paired at once, without the leaver, rather than when the
// game's clock runs out a day later.
func TestTournamentLeaveKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	srv := fakediscord.New(t)
	db := filepath.Join(t.TempDir(), "leave.db")
	w := &world{srv: srv}
	ana := srv.User
	p := startChild(t, srv, db, childOptions{})

	r := w.respond(t, srv.Slash("tournament", fakediscord.Sub("new", fakediscord.Str("game", "closure"), fakediscord.Str("format", "swiss"),
		fakediscord.Str("name", "Leave Cup"), fakediscord.Int("rounds", 2), fakediscord.Str("clock", "1d"))).By(ana))
	post := final(r).ID
	users := map[string]*discordgo.User{}
	for _, name := range []string{"bo", "cy", "di", "ed"} {
		u := srv.AddUser(name)
		w.respond(t, srv.Button("tjoin:1").OnMessage(post).By(u))
		users[u.ID] = u
	}
	if r := w.respond(t, srv.Button("tstart:1").OnMessage(post).By(ana)); !strings.Contains(text(r), "has started") {
		t.Fatalf("Start: %q", text(r))
	}
	p.drain(t)
	p.kill9(t)
	e, _ := readBack(t, db)
	// Game #1 ends (its second seat resigns); the first seat of game #2
	// is the leaver.
	p = startChild(t, srv, db, childOptions{})
	loser := users[e.Pairing.Played[0].Tables[0].Seats[1]]
	r = w.respond(t, srv.Slash("resign", fakediscord.Str("game", "1")).By(loser))
	if r = w.respond(t, srv.Button("resign:1").OnMessage(final(r).ID).By(loser)); !strings.Contains(text(r), "You resigned game #1") {
		t.Fatalf("resign: %q", text(r))
	}
	p.drain(t)
	p.kill9(t)

	leaver := users[e.Pairing.Played[0].Tables[1].Seats[0]]
	p = startChild(t, srv, db, childOptions{stall: leaveStallEnv})
	r = w.respond(t, srv.Slash("tournament", fakediscord.Sub("leave")).By(leaver))
	if !strings.Contains(text(r), "Leave **Leave Cup**") {
		t.Fatalf("leave: %q", text(r))
	}
	srv.Button("tquit:1").OnMessage(final(r).ID).By(leaver).Send(t)
	if l := p.waitLine(t, "LEAVING"); l != "LEAVING 2" {
		t.Fatalf("stalled at %q, want game #2's resignation", l)
	}
	p.kill9(t)
	e, games := readBack(t, db)
	if i := indexOf(e, leaver.ID); i < 0 || !e.Pairing.Players[i].Withdrawn || games[2].Status != tessera.StatusPlaying || len(e.Pairing.Played) != 1 {
		t.Fatalf("after the kill: withdrawn %v, game #2 %s, %d rounds; want withdrawn, in play, 1 round", i >= 0 && e.Pairing.Players[i].Withdrawn, games[2].Status, len(e.Pairing.Played))
	}

	// An hour on (the game's clock has 23 left), the next process.
	later := time.Hour
	srv.Advance(later)
	p = startChild(t, srv, db, childOptions{later: later})
	srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Method == "POST" && strings.Contains(string(q.Body), "Round 2")
	}, patience)
	p.drain(t)
	p.kill9(t)
	e, games = readBack(t, db)
	if games[2].Status != tessera.StatusFinished || len(e.Pairing.Played) != 2 || len(e.Games[1]) != 1 || len(e.Pairing.Played[1].Byes) != 1 {
		t.Fatalf("after the restart: game #2 %s, %d rounds, round 2 %+v; want game #2 finished, round 2 of one game and a bye", games[2].Status, len(e.Pairing.Played), e.Pairing.Played)
	}
	for _, tb := range e.Pairing.Played[1].Tables {
		for _, id := range tb.Seats {
			if id == leaver.ID {
				t.Fatalf("the leaver is paired in round 2: %+v", e.Pairing.Played[1])
			}
		}
	}
}

func indexOf(e *tessera.Event, id string) int {
	for i, p := range e.Pairing.Players {
		if p.ID == id {
			return i
		}
	}
	return -1
}
