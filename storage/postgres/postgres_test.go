package postgres

// What only a shared server can show: several stores (processes) on one
// database. The behaviour every adapter shares is storagetest's
// conformance suite (conformance_test.go).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
	"tessera/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// open opens a store on url, closed when the test ends.
func open(t *testing.T, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newGame stores a game in play between two players.
func newGame(t *testing.T, s *Store, channel string) *tessera.Game {
	t.Helper()
	g := &tessera.Game{Status: tessera.StatusPlaying, ChannelID: channel, Created: time.Now(),
		Players: []tessera.Player{{ID: "ana", Accepted: true}, {ID: "ben", Accepted: true}}}
	if err := s.Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	return g
}

// move appends a move and enqueues its post, from version.
func move(s *Store, id, version uint64, interaction string) (*tessera.Game, error) {
	return s.Update(context.Background(), id, version, interaction, func(g *tessera.Game, tx storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Seat: len(g.Moves) % 2, Text: fmt.Sprint(len(g.Moves)), At: time.Now()})
		return tx.Enqueue(context.Background(), tessera.Announcement{Kind: tessera.AnnouncePost, GameID: g.ID, Moves: len(g.Moves)})
	})
}

func TestMigrationsNumbered(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || SchemaVersion() != len(ms) {
		t.Fatalf("%d migrations, schema version %d", len(ms), SchemaVersion())
	}
}

// TestAISeatsIndexedAgain: migration 3 puts back the AI seats that every
// change of a game against the computer used to drop from game_players
// (issue #24 item 11), and leaves the other rows as they are.
func TestAISeatsIndexedAgain(t *testing.T) {
	s := open(t, pgtest.Database(t))
	g := newGame(t, s, "c")
	g.Players[1] = tessera.Player{ID: "bot", AI: "easy", Accepted: true}
	if _, err := s.Modify(t.Context(), g.ID, func(r *tessera.Game, _ storage.Tx) error { r.Players = g.Players; return nil }); err != nil {
		t.Fatal(err)
	}
	// As the old code left it: ben's seat is the bot's now, and the bot's
	// row is missing.
	if _, err := s.pool.Exec(t.Context(), "DELETE FROM game_players WHERE player_id = 'bot'"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(t.Context(), "DELETE FROM game_players WHERE player_id = 'ben'"); err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil || len(ms) < 3 || ms[2].version != 3 {
		t.Fatalf("migrations %v %v", ms, err)
	}
	if _, err := s.pool.Exec(t.Context(), ms[2].sql); err != nil {
		t.Fatal(err)
	}
	for who, want := range map[string]int{"ana": 1, "bot": 1, "ben": 0} {
		if gs, err := s.ByPlayer(t.Context(), who); err != nil || len(gs) != want {
			t.Errorf("games of %s after the migration: %d %v, want %d", who, len(gs), err, want)
		}
	}
}

// TestMigrateOnce: three processes starting together on an empty database
// apply each migration once; one of them made the schema; a later open
// changes nothing.
func TestMigrateOnce(t *testing.T) {
	url := pgtest.Database(t)
	var wg sync.WaitGroup
	stores := make([]*Store, 3)
	errs := make([]error, 3)
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = Open(context.Background(), url, storage.Options{})
		}()
	}
	wg.Wait()
	created := 0
	for i, s := range stores {
		if errs[i] != nil {
			t.Fatalf("open %d: %v", i, errs[i])
		}
		defer s.Close()
		if s.Created() {
			created++
		}
	}
	if created != 1 {
		t.Errorf("%d of 3 opens say they made the schema, want 1", created)
	}
	var n, v int
	if err := stores[0].pool.QueryRow(t.Context(), "SELECT count(*), max(version) FROM schema_migrations").Scan(&n, &v); err != nil {
		t.Fatal(err)
	}
	if n != SchemaVersion() || v != SchemaVersion() {
		t.Errorf("schema_migrations has %d rows up to %d, want %d", n, v, SchemaVersion())
	}
	again := open(t, url)
	if again.Created() {
		t.Error("a reopen says it made the schema")
	}
}

// TestNewerSchemaRefused: a database migrated by a newer tessera is not
// opened by this one.
func TestNewerSchemaRefused(t *testing.T) {
	url := pgtest.Database(t)
	s := open(t, url)
	if _, err := s.pool.Exec(t.Context(), "INSERT INTO schema_migrations (version, name) VALUES ($1, 'future.sql')", SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	if s2, err := Open(t.Context(), url, storage.Options{}); err == nil {
		s2.Close()
		t.Fatal("a database of a newer schema opened")
	}
	if s2, err := Open(t.Context(), url, storage.Options{ReadOnly: true}); err == nil {
		s2.Close()
		t.Fatal("a database of a newer schema opened read-only")
	}
}

// TestReadOnly: a read-only open of an empty database is a NotFoundError
// and creates nothing; of a tessera database it reads but cannot write.
func TestReadOnly(t *testing.T) {
	url := pgtest.Database(t)
	_, err := Open(t.Context(), url, storage.Options{ReadOnly: true})
	var nf *storage.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("read-only open of an empty database: %v, want a NotFoundError", err)
	}
	w := open(t, url)
	g := newGame(t, w, "c")
	r, err := Open(t.Context(), url, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := r.Game(t.Context(), g.ID); err != nil || got.ChannelID != "c" {
		t.Fatalf("read-only Game: %v, %v", got, err)
	}
	if _, err := move(r, g.ID, g.Version, ""); err == nil {
		t.Fatal("a read-only store wrote a move")
	}
}

// TestRacingMovesTwoProcesses: two stores on one database (two bot
// processes) race the same move on the same version, round after round:
// each round exactly one applies and the other gets ErrConflict, and the
// game ends with one move and one announcement per round.
func TestRacingMovesTwoProcesses(t *testing.T) {
	url := pgtest.Database(t)
	a, b := open(t, url), open(t, url)
	g := newGame(t, a, "c")
	const rounds = 40
	for r := 0; r < rounds; r++ {
		version := g.Version
		var wg sync.WaitGroup
		results := make([]*tessera.Game, 2)
		errs := make([]error, 2)
		for i, s := range []*Store{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = move(s, g.ID, version, fmt.Sprintf("i%d-%d", r, i))
			}()
		}
		wg.Wait()
		ok := 0
		for i := range errs {
			switch {
			case errs[i] == nil:
				ok++
				g = results[i]
			case errors.Is(errs[i], storage.ErrConflict):
			default:
				t.Fatalf("round %d: %v", r, errs[i])
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d moves applied, want 1 (%v)", r, ok, errs)
		}
	}
	got, err := b.Game(t.Context(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Moves) != rounds || got.Version != rounds+1 {
		t.Errorf("%d moves at version %d, want %d at %d", len(got.Moves), got.Version, rounds, rounds+1)
	}
	if n, _ := a.Outbox(t.Context()); n != rounds {
		t.Errorf("%d announcements, want %d", n, rounds)
	}
}

// TestDuplicateInteractionTwoProcesses: one interaction delivered to two
// processes (two moves in two games) is handled once.
func TestDuplicateInteractionTwoProcesses(t *testing.T) {
	url := pgtest.Database(t)
	a, b := open(t, url), open(t, url)
	g1, g2 := newGame(t, a, "c1"), newGame(t, a, "c2")
	for r := 0; r < 20; r++ {
		id := fmt.Sprint("dup", r)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, pair := range []struct {
			s *Store
			g *tessera.Game
		}{{a, g1}, {b, g2}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var got *tessera.Game
				got, errs[i] = move(pair.s, pair.g.ID, pair.g.Version, id)
				if errs[i] == nil {
					*pair.g = *got
				}
			}()
		}
		wg.Wait()
		dups := 0
		for _, err := range errs {
			if errors.Is(err, storage.ErrDuplicate) {
				dups++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if dups != 1 {
			t.Fatalf("round %d: %d duplicates, want 1 (%v)", r, dups, errs)
		}
	}
}

// enqueue adds n posts to game id through Modify.
func enqueue(t *testing.T, s *Store, id uint64, n int) {
	t.Helper()
	_, err := s.Modify(t.Context(), id, func(g *tessera.Game, tx storage.Tx) error {
		for i := 0; i < n; i++ {
			if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnouncePost, GameID: id, Text: fmt.Sprint(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func gamesOf(as []tessera.Announcement) []uint64 {
	var out []uint64
	for _, a := range as {
		if len(out) == 0 || out[len(out)-1] != a.GameID {
			out = append(out, a.GameID)
		}
	}
	return out
}

// TestClaimLeases: two owners in two processes. The first claims two of
// three games, the second gets the third only; the first's lease renews;
// once it expires (the first process was killed), the second takes its
// games over; a release by an owner who lost the lease changes nothing.
func TestClaimLeases(t *testing.T) {
	url := pgtest.Database(t)
	a, b := open(t, url), open(t, url)
	var ids []uint64
	for i := 0; i < 3; i++ {
		g := newGame(t, a, "c")
		enqueue(t, a, g.ID, 2)
		ids = append(ids, g.ID)
	}
	now := time.Now()
	const lease = time.Minute
	gotA, err := a.Claim(t.Context(), now, "A", lease, 2)
	if err != nil {
		t.Fatal(err)
	}
	if g := gamesOf(gotA); len(gotA) != 4 || fmt.Sprint(g) != fmt.Sprint(ids[:2]) {
		t.Fatalf("A claimed %d announcements of games %v, want 4 of %v", len(gotA), g, ids[:2])
	}
	for i := 1; i < len(gotA); i++ {
		if gotA[i].Seq <= gotA[i-1].Seq {
			t.Fatalf("claimed out of order: %v", gotA)
		}
	}
	gotB, err := b.Claim(t.Context(), now, "B", lease, 10)
	if err != nil {
		t.Fatal(err)
	}
	if g := gamesOf(gotB); fmt.Sprint(g) != fmt.Sprint(ids[2:]) {
		t.Fatalf("B claimed games %v, want %v", g, ids[2:])
	}
	// A renews half-way through its lease; B still cannot take A's games.
	if got, _ := a.Claim(t.Context(), now.Add(lease/2), "A", lease, 10); fmt.Sprint(gamesOf(got)) != fmt.Sprint(ids[:2]) {
		t.Fatalf("A's renewal got games %v", gamesOf(got))
	}
	if got, _ := b.Claim(t.Context(), now.Add(lease), "B", lease, 10); fmt.Sprint(gamesOf(got)) != fmt.Sprint(ids[2:]) {
		t.Fatalf("B took %v before A's renewed lease expired", gamesOf(got))
	}
	// A dies: its leases run out and B takes everything over.
	late := now.Add(lease/2 + lease)
	gotB, err = b.Claim(t.Context(), late, "B", lease, 10)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gamesOf(gotB)) != fmt.Sprint(ids) {
		t.Fatalf("after A's lease expired, B got games %v, want %v", gamesOf(gotB), ids)
	}
	if err := a.Release(t.Context(), "A", ids...); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Claim(t.Context(), late, "A", lease, 10); len(got) != 0 {
		t.Fatalf("A's stale release freed B's games: A claimed %v", gamesOf(got))
	}
	// B delivers and releases one game: anyone may claim it again.
	var seqs []uint64
	for _, x := range gotB {
		if x.GameID == ids[0] {
			seqs = append(seqs, x.Seq)
		}
	}
	if err := b.Delivered(t.Context(), seqs...); err != nil {
		t.Fatal(err)
	}
	enqueue(t, a, ids[0], 1)
	if err := b.Release(t.Context(), "B", ids[0]); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Claim(t.Context(), late, "A", lease, 10); fmt.Sprint(gamesOf(got)) != fmt.Sprint(ids[:1]) || len(got) != 1 {
		t.Fatalf("after B's release A claimed %v", got)
	}
}

// TestClaimHeldByRetry: a game whose first announcement waits for a retry
// is not claimed, and a game's announcements after one waiting are held
// back, as Pending holds them.
func TestClaimHeldByRetry(t *testing.T) {
	s := open(t, pgtest.Database(t))
	g1, g2 := newGame(t, s, "c"), newGame(t, s, "c")
	enqueue(t, s, g1.ID, 2)
	enqueue(t, s, g2.ID, 3)
	now := time.Now()
	p, _ := s.Pending(t.Context(), now, 10)
	if err := s.Retry(t.Context(), p[0].Seq, now.Add(time.Minute)); err != nil { // g1's first
		t.Fatal(err)
	}
	if err := s.Retry(t.Context(), p[3].Seq, now.Add(time.Minute)); err != nil { // g2's second
		t.Fatal(err)
	}
	got, err := s.Claim(t.Context(), now, "A", time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Seq != p[2].Seq {
		t.Fatalf("claimed %v, want g2's first announcement only (seq %d)", got, p[2].Seq)
	}
	pend, _ := s.Pending(t.Context(), now, 10)
	if len(pend) != 1 || pend[0].Seq != p[2].Seq {
		t.Fatalf("Pending %v, want the same one", pend)
	}
	if got, _ := s.Claim(t.Context(), now.Add(time.Minute), "A", time.Minute, 10); len(got) != 5 {
		t.Fatalf("after the back-off %d claimed, want 5", len(got))
	}
}

// TestCouriersDeliverOnce: four couriers in two processes claim, deliver
// and release concurrently while moves are made; every announcement is
// delivered exactly once and each game's in order.
func TestCouriersDeliverOnce(t *testing.T) {
	url := pgtest.Database(t)
	stores := []*Store{open(t, url), open(t, url)}
	const games, posts = 6, 15
	var ids []uint64
	for i := 0; i < games; i++ {
		ids = append(ids, newGame(t, stores[0], "c").ID)
	}
	var (
		mu        sync.Mutex
		delivered = map[uint64]int{}    // seq -> times
		lastMoves = map[uint64]int{}    // game -> last Moves delivered
		order     = map[uint64]uint64{} // game -> last seq delivered
	)
	var making atomic.Bool
	making.Store(true)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, owner := stores[w%2], fmt.Sprint("courier", w)
			for {
				still := making.Load()
				got, err := s.Claim(t.Context(), time.Now(), owner, time.Minute, 2)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					if !still {
						if n, _ := s.Outbox(t.Context()); n == 0 {
							return
						}
					}
					time.Sleep(time.Millisecond)
					continue
				}
				var seqs []uint64
				mu.Lock()
				for _, a := range got {
					delivered[a.Seq]++
					if a.Seq <= order[a.GameID] || a.Moves < lastMoves[a.GameID] {
						t.Errorf("game %d: seq %d (moves %d) delivered after seq %d", a.GameID, a.Seq, a.Moves, order[a.GameID])
					}
					order[a.GameID], lastMoves[a.GameID] = a.Seq, a.Moves
					seqs = append(seqs, a.Seq)
				}
				mu.Unlock()
				if err := s.Delivered(t.Context(), seqs...); err != nil {
					t.Error(err)
				}
				if err := s.Release(t.Context(), owner, gamesOf(got)...); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	var movers sync.WaitGroup
	for i, id := range ids {
		movers.Add(1)
		go func() {
			defer movers.Done()
			s := stores[i%2]
			version := uint64(1)
			for p := 0; p < posts; p++ {
				g, err := move(s, id, version, "")
				if err != nil {
					t.Error(err)
					return
				}
				version = g.Version
			}
		}()
	}
	movers.Wait()
	making.Store(false)
	wg.Wait()
	if len(delivered) != games*posts {
		t.Errorf("%d announcements delivered, want %d", len(delivered), games*posts)
	}
	for seq, n := range delivered {
		if n != 1 {
			t.Errorf("seq %d delivered %d times", seq, n)
		}
	}
}

// TestKilledConnection: the connection dies in the middle of a move's
// transaction (the server ends it, as when a process or a network link
// dies): nothing of the move is stored, and the store goes on with a new
// connection.
func TestKilledConnection(t *testing.T) {
	url := pgtest.Database(t)
	s := open(t, url)
	g := newGame(t, s, "c")
	_, err := s.Update(t.Context(), g.ID, g.Version, "killed", func(g *tessera.Game, tx storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Text: "x", At: time.Now()})
		if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnouncePost, GameID: g.ID, Moves: 1}); err != nil {
			return err
		}
		if n := pgtest.Kill(t, url); n == 0 {
			t.Error("no connection was killed")
		}
		return tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnounceStatus, GameID: g.ID, Moves: 1})
	})
	if err == nil {
		t.Fatal("a move whose connection died was acknowledged")
	}
	got, err := s.Game(t.Context(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != g.Version || len(got.Moves) != 0 {
		t.Fatalf("half a move stored: version %d, moves %v", got.Version, got.Moves)
	}
	if n, _ := s.Outbox(t.Context()); n != 0 {
		t.Fatalf("%d announcements of a move that was not stored", n)
	}
	if h, _ := s.Handled(t.Context(), "killed"); h {
		t.Fatal("the interaction of a move that was not stored is marked handled")
	}
	if _, err := move(s, g.ID, g.Version, "killed"); err != nil {
		t.Fatalf("the move again, on a new connection: %v", err)
	}
}

// TestCheck: a consistent database has no problems; a column that
// disagrees with its record and a record that does not decode are found.
func TestCheck(t *testing.T) {
	s := open(t, pgtest.Database(t))
	g := newGame(t, s, "c")
	g2 := newGame(t, s, "c")
	enqueue(t, s, g.ID, 1)
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("a consistent database: %v", errs)
	}
	if _, err := s.pool.Exec(t.Context(), "UPDATE games SET ai_turn = true WHERE id = $1", int64(g.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(t.Context(), "UPDATE games SET record = 'not json' WHERE id = $1", int64(g2.ID)); err != nil {
		t.Fatal(err)
	}
	errs := s.Check(t.Context())
	if len(errs) != 2 {
		t.Fatalf("want two problems, got %v", errs)
	}
	var damaged *storage.DamagedError
	if !errors.As(errs[1], &damaged) {
		t.Errorf("an undecodable record: %v, want a DamagedError", errs[1])
	}
	if _, err := s.Game(t.Context(), g2.ID); !errors.As(err, &damaged) {
		t.Errorf("Game of an undecodable record: %v, want a DamagedError", err)
	}
}

// TestCheckIndexes: the index rows a record asks for and do not exist are
// found by game and kind, and so are index rows of a game that does not
// exist; a finished game's history rows are asked for too.
func TestCheckIndexes(t *testing.T) {
	s := open(t, pgtest.Database(t))
	g := newGame(t, s, "c")
	done := newGame(t, s, "d")
	if _, err := s.Update(t.Context(), done.ID, done.Version, "", func(g *tessera.Game, _ storage.Tx) error {
		g.Status, g.ThreadID = tessera.StatusFinished, "thread"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("a consistent database: %v", errs)
	}
	for _, q := range []string{
		fmt.Sprintf("DELETE FROM game_players WHERE game_id = %d AND player_id = 'ben'", g.ID),
		fmt.Sprintf("DELETE FROM game_channels WHERE game_id = %d AND channel_id = 'thread'", done.ID),
		fmt.Sprintf("DELETE FROM finished WHERE game_id = %d", done.ID),
		fmt.Sprintf("INSERT INTO game_channels (channel_id, game_id) VALUES ('c', %d)", g.ID+done.ID+100),
	} {
		if _, err := s.pool.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var got []string
	for _, err := range s.Check(t.Context()) {
		got = append(got, err.Error())
	}
	// The place rows are the places' check's (reminders.go): a finished
	// game's own thread is its place, and a row of no game is in no
	// game's places.
	want := []string{
		fmt.Sprintf("game %d: 1 of its index rows are missing (players 1, history 0)", g.ID),
		fmt.Sprintf("game %d: 2 of its index rows are missing (players 0, history 2)", done.ID),
		"game_channels: 1 rows name a game that does not exist",
		fmt.Sprintf("game %d: missing from the place index under %q", done.ID, "thread"),
		fmt.Sprintf("the place index lists game %d under %q, which is not its place", g.ID+done.ID+100, "c"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBackup: pg_dump writes a custom-format archive of the database.
func TestBackup(t *testing.T) {
	if _, err := pgDump(); err != nil {
		t.Skip(err)
	}
	s := open(t, pgtest.Database(t))
	newGame(t, s, "c")
	var buf bytes.Buffer
	n, err := s.Backup(t.Context(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) || !bytes.HasPrefix(buf.Bytes(), []byte("PGDMP")) {
		t.Fatalf("%d bytes reported, %d written, starting %q: not a pg_dump archive", n, buf.Len(), buf.Bytes()[:min(buf.Len(), 5)])
	}
}

func TestRedact(t *testing.T) {
	if got := Redact("postgres://bot:s3cret@db.example/tessera"); got != "postgres://bot:xxxxx@db.example/tessera" {
		t.Errorf("redact: %s", got)
	}
	if got := Redact("postgresql://db.example/tessera?user=bot&password=s3cret"); strings.Contains(got, "s3cret") {
		t.Errorf("redact: %s", got)
	}
	if got := libpqURL("postgres://u@/db?host=/tmp/x&pool_max_conns=4"); got != "postgres://u@/db?host=%2Ftmp%2Fx" {
		t.Errorf("libpqURL: %s", got)
	}
}

// TestDumpOrder: Dump gives games by id and announcements by Seq as
// numbers (ordering by their text once put 10 before 2).
func TestDumpOrder(t *testing.T) {
	s := open(t, pgtest.Database(t))
	for i := 0; i < 12; i++ {
		enqueue(t, s, newGame(t, s, "c").ID, 1)
	}
	var games, seqs []uint64
	err := s.Dump(t.Context(), func(r storage.Record) error {
		switch {
		case r.Game != nil:
			games = append(games, r.Game.ID)
		case r.Announcement != nil:
			seqs = append(seqs, r.Announcement.Seq)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range [][]uint64{games, seqs} {
		if len(list) != 12 || !slices.IsSorted(list) {
			t.Errorf("dumped in the order %v, want 12 ascending", list)
		}
	}
}

// TestDeadlockRetried: two games of the same two players end at once in
// two processes and write their ratings in opposite orders. PostgreSQL
// aborts one transaction as a deadlock victim; it is run again and both
// moves are stored.
//
// The victim's second run waits until the other game's end has returned:
// run at once, it could insert its first rating row before the survivor,
// woken by the abort, inserts the row it was waiting for (an INSERT has
// no queue), and deadlock again, which made the count of runs 4 or 5 on
// a loaded machine. That second deadlock is retried too, but only the
// first is this test's business.
func TestDeadlockRetried(t *testing.T) {
	url := pgtest.Database(t)
	a, b := open(t, url), open(t, url)
	g1, g2 := newGame(t, a, "c"), newGame(t, a, "c")
	var first sync.WaitGroup // both transactions hold their first row
	first.Add(2)
	var runs atomic.Int32
	// ended[i] closes when game i's end returns, rerun[i] when its
	// changes run a second time (were both victims, neither would wait).
	ended := []chan struct{}{make(chan struct{}), make(chan struct{})}
	rerun := []chan struct{}{make(chan struct{}), make(chan struct{})}
	end := func(me int, s *Store, g *tessera.Game, order []string) error {
		defer close(ended[me])
		var once, again sync.Once
		started := false
		_, err := s.Update(t.Context(), g.ID, g.Version, "", func(g *tessera.Game, tx storage.Tx) error {
			runs.Add(1)
			if started { // the deadlock's victim: let the survivor commit first
				again.Do(func() { close(rerun[me]) })
				select {
				case <-ended[1-me]:
				case <-rerun[1-me]:
				}
			}
			started = true
			g.Status = tessera.StatusFinished
			for i, user := range order {
				if err := tx.PutRating(t.Context(), tessera.Rating{GuildID: "g", Game: "elemental", UserID: user, Mu: float64(g.ID)}); err != nil {
					return err
				}
				if i == 0 {
					once.Do(func() { first.Done(); first.Wait() })
				}
			}
			return nil
		})
		return err
	}
	errs := make(chan error, 2)
	go func() { errs <- end(0, a, g1, []string{"ana", "ben"}) }()
	go func() { errs <- end(1, b, g2, []string{"ben", "ana"}) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a game's end failed: %v", err)
		}
	}
	if n := runs.Load(); n != 3 {
		t.Errorf("%d runs of the changes, want 3 (one deadlock victim run again)", n)
	}
	for _, id := range []uint64{g1.ID, g2.ID} {
		if g, _ := a.Game(t.Context(), id); g.Status != tessera.StatusFinished {
			t.Errorf("game %d: %s", id, g.Status)
		}
	}
}

// TestRatingsNotLost: two games of the same player end at once in two
// processes, each reading the player's rating and writing it back with one
// more game. The second read waits for the first game's end, so the
// player ends with two games, not one (a lost update).
func TestRatingsNotLost(t *testing.T) {
	url := pgtest.Database(t)
	a, b := open(t, url), open(t, url)
	g1, g2 := newGame(t, a, "c"), newGame(t, a, "c")
	read := make(chan bool, 2)
	end := func(s *Store, g *tessera.Game) error {
		_, err := s.Update(t.Context(), g.ID, g.Version, "", func(g *tessera.Game, tx storage.Tx) error {
			r, _, err := tx.Rating(t.Context(), "g", "elemental", "ana")
			if err != nil {
				return err
			}
			// Give the other game every chance to read the same rating
			// before this one writes (it cannot: it waits for the lock).
			read <- true
			select {
			case <-read:
			case <-time.After(300 * time.Millisecond):
			}
			r.GuildID, r.Game, r.UserID = "g", "elemental", "ana"
			r.Games++
			g.Status = tessera.StatusFinished
			return tx.PutRating(t.Context(), r)
		})
		return err
	}
	errs := make(chan error, 2)
	go func() { errs <- end(a, g1) }()
	go func() { errs <- end(b, g2) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	rs, err := a.PlayerRatings(t.Context(), "g", "ana")
	if err != nil || len(rs) != 1 || rs[0].Games != 2 {
		t.Fatalf("ana's ratings %+v (%v): want one with 2 games", rs, err)
	}
}

// TestOpenUnreachable: a server that cannot be reached is an error that
// names it without its password, and no store.
func TestOpenUnreachable(t *testing.T) {
	s, err := Open(t.Context(), "postgres://bot:s3cret@127.0.0.1:1/tessera", storage.Options{LockTimeout: 5 * time.Second})
	if err == nil || s != nil {
		t.Fatalf("an unreachable server opened: %v", err)
	}
	if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("the error: %v", err)
	}
}
