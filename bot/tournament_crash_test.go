package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot/fakediscord"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// pairStallEnv makes the crash test's bot process stop for good in the
// middle of pairing a round: inside the transaction, after the round's
// first game is made and before its second. It prints PAIRING and waits
// to be killed.
const pairStallEnv = "TESSERA_CRASH_PAIR_STALL"

func stallPairing(_ context.Context, event uint64, round, table int) {
	if table > 0 {
		return
	}
	fmt.Printf("PAIRING %d %d\n", event, round)
	select {} // the parent kills the process
}

// TestTournamentKilledWhilePairing: a Swiss event's round 1 ends when its
// last game's clock runs out, and the process that times it out is killed
// with SIGKILL in the middle of pairing round 2 (round 2's first game made
// in the transaction, its second not yet). Nothing of it is kept: the
// game is still in play and round 2 unpaired. The next process times the
// game out again and pairs round 2 once: two games, each with one thread
// and one first post, one time-out post, and round 2's pairings posted
// once in the event's thread.
func TestTournamentKilledWhilePairing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	srv := fakediscord.New(t)
	db := filepath.Join(t.TempDir(), "crash.db")
	w := &world{srv: srv}
	ana := srv.User
	p := startChild(t, srv, db, childOptions{})

	// Ana posts the event; four players join and she starts it.
	r := w.respond(t, srv.Slash("tournament", fakediscord.Sub("new", fakediscord.Str("game", "closure"), fakediscord.Str("format", "swiss"),
		fakediscord.Str("name", "Crash Cup"), fakediscord.Int("rounds", 2), fakediscord.Str("clock", "1d"))).By(ana))
	post := final(r).ID
	var entrants []*discordgo.User
	for _, name := range []string{"bo", "cy", "di", "ed"} {
		u := srv.AddUser(name)
		if r := w.respond(t, srv.Button("tjoin:1").OnMessage(post).By(u)); !strings.Contains(text(r), "You joined") {
			t.Fatalf("%s joins: %q", name, text(r))
		}
		entrants = append(entrants, u)
	}
	if r := w.respond(t, srv.Button("tstart:1").OnMessage(post).By(ana)); !strings.Contains(text(r), "has started") {
		t.Fatalf("Start: %q", text(r))
	}
	// Round 1 is games #1 and #2. Game #1's loser resigns; game #2 stays
	// in play, its clock running.
	resigned := false
	for _, u := range entrants {
		r := w.respond(t, srv.Slash("resign", fakediscord.Str("game", "1")).By(u))
		if len(buttons(r)) == 0 {
			continue // not a player of game #1
		}
		r = w.respond(t, srv.Button("resign:1").OnMessage(final(r).ID).By(u))
		if !strings.Contains(text(r), "You resigned game #1") {
			t.Fatalf("%s resigns: %q", u.Username, text(r))
		}
		resigned = true
		break
	}
	if !resigned {
		t.Fatal("nobody could resign game #1")
	}
	p.drain(t)
	p.kill9(t)

	// Two days on: game #2's clock ran out. The process that times it out
	// is killed in the middle of pairing round 2.
	later := 48 * time.Hour
	srv.Advance(later)
	p = startChild(t, srv, db, childOptions{later: later, stall: pairStallEnv, early: true})
	if l := p.waitLine(t, "PAIRING"); l != "PAIRING 1 1" {
		t.Fatalf("stalled at %q, want event 1's round 2 (index 1)", l)
	}
	p.kill9(t)
	e, games := readBack(t, db)
	if len(e.Pairing.Played) != 1 || e.Pairing.Played[0].Tables[1].Played() || games[2].Status != tessera.StatusPlaying || len(games) != 2 {
		t.Fatalf("after the kill: %d rounds, game #2 %s, %d games stored; want 1 round, game #2 in play, 2 games",
			len(e.Pairing.Played), games[2].Status, len(games))
	}

	// The next process times game #2 out again and pairs round 2, once.
	p = startChild(t, srv, db, childOptions{later: later})
	// The time-out is committed (its post arrives) with round 2's games
	// and announcements, in one transaction; then they are all delivered.
	srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Method == "POST" && strings.Contains(string(q.Body), "ran out of time in game #2")
	}, patience)
	p.drain(t)
	p.kill9(t)
	e, games = readBack(t, db)
	if len(e.Pairing.Played) != 2 || len(e.Games[1]) != 2 || len(games) != 4 || games[2].Status != tessera.StatusFinished {
		t.Fatalf("after the restart: %d rounds, round 2's games %v, %d games stored, game #2 %s; want 2 rounds, 2 new games, 4 games, game #2 finished",
			len(e.Pairing.Played), e.Games, len(games), games[2].Status)
	}
	threads := map[string]string{} // name → id, of each thread made
	for _, q := range srv.Requests() {
		if q.Method != "POST" || !strings.HasSuffix(q.Path, "/threads") || q.Status != 201 {
			continue
		}
		var th struct{ ID, Name string }
		json.Unmarshal(q.Response, &th)
		if _, dup := threads[th.Name]; dup {
			t.Fatalf("thread %q made twice", th.Name)
		}
		threads[th.Name] = th.ID
	}
	count := func(prefix, what string) int {
		n := 0
		for name, id := range threads {
			if strings.HasPrefix(name, prefix) {
				for _, m := range srv.Messages(id) {
					if strings.Contains(m.Content, what) {
						n++
					}
				}
			}
		}
		return n
	}
	for _, id := range e.Games[1] {
		if n := count(fmt.Sprintf("Crash Cup R2 #%d:", id), fmt.Sprintf("game #%d, begins", id)); n != 1 {
			t.Errorf("game #%d: %d threads with its first post, want 1 (threads %v)", id, n, threads)
		}
	}
	if n := count("Crash Cup R1 #2:", "ran out of time in game #2"); n != 1 {
		t.Errorf("game #2's time-out posted %d times, want once", n)
	}
	if n := count("🏆 Crash Cup", "**Round 2**"); n != 1 {
		t.Errorf("round 2's pairings posted %d times in the event's thread, want once (threads %v)", n, threads)
	}
}

// readBack reads the event and every game from the database a killed
// process left.
func readBack(t *testing.T, db string) (*tessera.Event, map[uint64]*tessera.Game) {
	t.Helper()
	st, err := boltdb.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := st.Event(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	games := map[uint64]*tessera.Game{}
	err = st.All(t.Context(), func(g *tessera.Game) error { games[g.ID] = g; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return e, games
}
