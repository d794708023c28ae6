package storagetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// RunShared runs the promises that hold between several processes on one
// database: open returns two handles on the same new, empty database, as
// two bot processes would hold (PostgreSQL: two pools). A move applies
// once whichever handle it comes through, an interaction is handled once,
// ids are never given twice, a game's announcements are claimed by one
// owner at a time, taken over when its lease expires, and a tournament's
// round is paired once while every game's result is kept. bbolt, whose
// file one process owns, runs it with the same handle twice.
func RunShared(t *testing.T, open func(t *testing.T) (a, b storage.Store)) {
	tests := []struct {
		name string
		fn   func(t *testing.T, a, b storage.Store)
	}{
		{"SeeEachOther", sharedSee},
		{"RacingMovesOneWins", sharedRacingMoves},
		{"InteractionHandledOnce", sharedInteraction},
		{"IDsNeverTwice", sharedIDs},
		{"ClaimsOneOwnerAtATime", sharedClaims},
		{"AITurnLeases", sharedAITurns},
		{"OpenChallengesCountedInTx", sharedOpenLimit},
		{"OneSecret", sharedSecretRace},
		{"GuildUpdatesInTurn", sharedGuildUpdates},
		{"RoundPairedOnce", sharedRoundPairedOnce},
		{"EventResultsAllKept", sharedResultsAllKept},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := open(t)
			t.Cleanup(func() {
				a.Close()
				if b != a {
					b.Close()
				}
			})
			tc.fn(t, a, b)
		})
	}
}

func sharedSee(t *testing.T, a, b storage.Store) {
	id := create(t, a, NewGame())
	if _, err := b.Update(t.Context(), id, 1, "", func(g *tessera.Game, tx storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Text: "x"})
		return tx.Enqueue(t.Context(), tessera.Announcement{Kind: "post", GameID: g.ID})
	}); err != nil {
		t.Fatal(err)
	}
	if g := game(t, a, id); g.Version != 2 || len(g.Moves) != 1 {
		t.Fatalf("a move made through one handle, read through the other: %+v", g)
	}
	if p, _ := a.Pending(t.Context(), time.Now(), 10); len(p) != 1 {
		t.Fatalf("an announcement enqueued through one handle: %d pending through the other", len(p))
	}
	if _, err := a.Update(t.Context(), id, 1, "", noop); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("a move at a stale version: %v", err)
	}
}

func sharedRacingMoves(t *testing.T, a, b storage.Store) {
	id := create(t, a, NewGame())
	errs := make([]error, 8)
	race(a, b, len(errs), func(i int, s storage.Store) {
		_, errs[i] = s.Update(t.Context(), id, 1, fmt.Sprint("r", i), func(g *tessera.Game, tx storage.Tx) error {
			g.Moves = append(g.Moves, tessera.MoveEntry{Text: fmt.Sprint("move", i)})
			return tx.Enqueue(t.Context(), tessera.Announcement{Kind: "post", GameID: g.ID})
		})
	})
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, storage.ErrConflict):
			t.Fatal(err)
		}
	}
	if g := game(t, b, id); ok != 1 || len(g.Moves) != 1 || g.Version != 2 {
		t.Fatalf("%d successes, %d moves, version %d: want 1, 1, 2", ok, len(g.Moves), g.Version)
	}
	if n, _ := b.Outbox(t.Context()); n != 1 {
		t.Fatalf("%d announcements, want the winner's one", n)
	}
}

func sharedInteraction(t *testing.T, a, b storage.Store) {
	id := create(t, a, NewGame())
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []storage.Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Discord delivered the same interaction to both processes; one
			// read version 1, the other version 1 too.
			_, errs[i] = s.Update(t.Context(), id, 1, "same", func(g *tessera.Game, _ storage.Tx) error {
				g.Moves = append(g.Moves, tessera.MoveEntry{Text: "x"})
				return nil
			})
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("the same interaction twice: %v, %v", errs[0], errs[1])
	}
	if g := game(t, a, id); len(g.Moves) != 1 {
		t.Fatalf("%d moves", len(g.Moves))
	}
	if err := a.MarkHandled(t.Context(), "only"); err != nil {
		t.Fatal(err)
	}
	if err := b.MarkHandled(t.Context(), "only"); !errors.Is(err, storage.ErrDuplicate) {
		t.Fatalf("handled through one handle, marked through the other: %v", err)
	}
}

func sharedIDs(t *testing.T, a, b storage.Store) {
	const each = 10
	var mu sync.Mutex
	seen := map[uint64]bool{}
	seqs := map[uint64]bool{}
	var wg sync.WaitGroup
	var failed error
	for _, s := range []storage.Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				g := NewGame()
				err := s.CreateWith(t.Context(), g, "", func(g *tessera.Game, tx storage.Tx) error {
					return tx.Enqueue(t.Context(), tessera.Announcement{Kind: "post", GameID: g.ID})
				})
				mu.Lock()
				if err != nil {
					failed = err
				} else if seen[g.ID] {
					failed = fmt.Errorf("game id %d given twice", g.ID)
				}
				seen[g.ID] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		t.Fatal(failed)
	}
	p, _ := a.Pending(t.Context(), time.Now(), 100)
	for _, x := range p {
		if seqs[x.Seq] {
			t.Fatalf("Seq %d given twice", x.Seq)
		}
		seqs[x.Seq] = true
	}
	if len(seen) != 2*each || len(seqs) != 2*each {
		t.Fatalf("%d games and %d announcements, want %d each", len(seen), len(seqs), 2*each)
	}
}

func sharedClaims(t *testing.T, a, b storage.Store) {
	x, y := create(t, a, NewGame()), create(t, a, NewGame())
	enqueue(t, a, x, "x1", "x2")
	enqueue(t, b, y, "y1")
	t0 := time.Unix(1_000_000, 0)
	got, err := a.Claim(t.Context(), t0, "p1", time.Minute, 1)
	if err != nil || kinds(got) != fmt.Sprintf("[%d:x1 %d:x2]", x, x) {
		t.Fatalf("p1 claimed %s (%v)", kinds(got), err)
	}
	if got, _ := b.Claim(t.Context(), t0.Add(time.Second), "p2", time.Minute, 10); kinds(got) != fmt.Sprintf("[%d:y1]", y) {
		t.Fatalf("p2 claimed %s while p1 holds %d", kinds(got), x)
	}
	// p1 is killed: p2 takes x over once the lease has expired.
	if got, _ := b.Claim(t.Context(), t0.Add(59*time.Second), "p2", time.Minute, 10); kinds(got) != fmt.Sprintf("[%d:y1]", y) {
		t.Fatalf("p2 claimed %s before p1's lease expired", kinds(got))
	}
	if got, _ := b.Claim(t.Context(), t0.Add(61*time.Second), "p2", time.Minute, 10); kinds(got) != fmt.Sprintf("[%d:x1 %d:x2 %d:y1]", x, x, y) {
		t.Fatalf("p2 claimed %s after p1's lease expired", kinds(got))
	}
	// p2 releases y through its handle: p1 may take it at once.
	if err := b.Release(t.Context(), "p2", y); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Claim(t.Context(), t0.Add(62*time.Second), "p1", time.Minute, 10); kinds(got) != fmt.Sprintf("[%d:y1]", y) {
		t.Fatalf("p1 claimed %s after p2 released %d", kinds(got), y)
	}
	// Racing claims through both handles never share a game.
	for range 10 {
		id := create(t, b, NewGame())
		enqueue(t, b, id, "r")
	}
	res := make([][]tessera.Announcement, 4)
	errs := make([]error, 4)
	race(a, b, 4, func(i int, s storage.Store) {
		res[i], errs[i] = s.Claim(t.Context(), t0.Add(10*time.Minute), fmt.Sprint("q", i), time.Minute, 4)
	})
	holder := map[uint64]int{}
	for i := range 4 {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		for _, an := range res[i] {
			if h, ok := holder[an.GameID]; ok && h != i {
				t.Fatalf("game %d claimed by q%d and q%d", an.GameID, h, i)
			}
			holder[an.GameID] = i
		}
	}
}

// sharedAITurns: an AI turn's lease has one owner at a time, through
// either handle; it is renewed by its owner, taken over once expired or
// released, and racing claims give it to exactly one owner.
func sharedAITurns(t *testing.T, a, b storage.Store) {
	t0 := time.Unix(2_000_000, 0)
	claim := func(s storage.Store, id uint64, owner string, at time.Duration) bool {
		t.Helper()
		ok, err := s.ClaimAITurn(t.Context(), id, owner, t0.Add(at), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !claim(a, 7, "p1", 0) {
		t.Fatal("p1 cannot claim a turn nobody holds")
	}
	if claim(b, 7, "p2", 30*time.Second) {
		t.Fatal("p2 claimed p1's live lease")
	}
	if !claim(b, 8, "p2", 30*time.Second) {
		t.Fatal("p2 cannot claim another game's turn")
	}
	if !claim(a, 7, "p1", 50*time.Second) { // renewed until 1m50s
		t.Fatal("p1 cannot renew its own lease")
	}
	if claim(b, 7, "p2", 100*time.Second) {
		t.Fatal("p2 claimed p1's renewed lease")
	}
	// p1 is killed: its lease expires and p2 takes the turn over.
	if !claim(b, 7, "p2", 111*time.Second) {
		t.Fatal("p2 cannot take over an expired lease")
	}
	// Releasing: only the owner's release counts.
	if err := a.ReleaseAITurn(t.Context(), 8, "p1"); err != nil {
		t.Fatal(err)
	}
	if claim(a, 8, "p1", 40*time.Second) {
		t.Fatal("p1 released p2's lease")
	}
	if err := b.ReleaseAITurn(t.Context(), 8, "p2"); err != nil {
		t.Fatal(err)
	}
	if !claim(a, 8, "p1", 41*time.Second) {
		t.Fatal("p1 cannot claim a released turn")
	}
	// Racing claims on one turn: one owner wins.
	won := make([]bool, 8)
	race(a, b, len(won), func(i int, s storage.Store) {
		ok, err := s.ClaimAITurn(t.Context(), 9, fmt.Sprint("r", i), t0, time.Minute)
		if err != nil {
			t.Error(err)
		}
		won[i] = ok
	})
	if n := countTrue(won); n != 1 {
		t.Fatalf("%d racing owners hold one AI turn", n)
	}
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// sharedOpenLimit: twelve creates at once through both handles, each
// refusing itself when its transaction already sees 5 open challenges in
// the server (Tx.OpenChallenges), leave exactly 5: the counts run one
// after the other. Another server's challenges are not counted.
func sharedOpenLimit(t *testing.T, a, b storage.Store) {
	create(t, a, challenge(NewGame(), "g2"))
	errLimit := errors.New("limit")
	errs := make([]error, 12)
	race(a, b, len(errs), func(i int, s storage.Store) {
		errs[i] = s.CreateWith(t.Context(), challenge(NewGame(), "g1"), fmt.Sprint("open", i), func(g *tessera.Game, tx storage.Tx) error {
			open, err := tx.OpenChallenges(t.Context(), g.GuildID)
			if err != nil {
				return err
			}
			if len(open) >= 5 {
				return errLimit
			}
			return nil
		})
	})
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, errLimit):
			t.Fatalf("create: %v", err)
		}
	}
	if open, _ := b.OpenChallenges(t.Context(), "g1"); made != 5 || len(open) != 5 {
		t.Fatalf("%d creates went through, %d open challenges in g1; want 5", made, len(open))
	}
}

// race runs f(i, s) for i in 0..n-1 at once, on handles a and b in turn,
// and waits for them all.
func race(a, b storage.Store, n int, f func(i int, s storage.Store)) {
	var wg sync.WaitGroup
	for i := range n {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i, s)
		}()
	}
	wg.Wait()
}
