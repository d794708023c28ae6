package boltdb

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
)

// oldRatings are the ratings of a file made before the rating indexes:
// two servers, two games, equal ratings among them.
func oldRatings() []tessera.Rating {
	var rs []tessera.Rating
	for i, u := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		r := tessera.Rating{GuildID: "g1", Game: "elemental", UserID: u, Name: "p" + u, Mu: 20 + float64(i%4), Sigma: 5, Games: 1 + i%3, Won: 1}
		for j := range r.Games {
			r.History = append(r.History, tessera.RatingPoint{GameID: uint64(10*i + j), At: time.Unix(int64(1000*i+j), 0).UTC(), Mu: r.Mu, Sigma: 5})
		}
		rs = append(rs, r)
	}
	rs = append(rs, tessera.Rating{GuildID: "g1", Game: "closure", UserID: "1", Name: "p1", Mu: 30, Sigma: 3, Games: 1,
		History: []tessera.RatingPoint{{GameID: 99, At: time.Unix(5, 0).UTC(), Mu: 30, Sigma: 3}}})
	rs = append(rs, tessera.Rating{GuildID: "g2", Game: "elemental", UserID: "1", Name: "p1", Mu: 25, Sigma: 8, Games: 1})
	return rs
}

// makeOldFile writes a file as the code before the rating indexes left
// it: each rating one row with its history inside, no index bucket, no
// mark; the ratings' sequence at 40.
func makeOldFile(t *testing.T, path string, rs []tessera.Rating) {
	t.Helper()
	s := open(t, path)
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, name := range ratingBucketNames {
			if err := tx.DeleteBucket(name); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
				return err
			}
		}
		if err := tx.Bucket(bMeta).Delete(kRatingsIndexed); err != nil {
			return err
		}
		rows, err := tx.CreateBucket(bRatings)
		if err != nil {
			return err
		}
		for _, r := range rs {
			v, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if err := rows.Put(ratingKey(r.GuildID, r.Game, r.UserID), v); err != nil {
				return err
			}
		}
		return rows.SetSequence(40)
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// verifyUpgraded checks that every rating reads back whole, the indexes
// agree with the order, the sequence survived, and Check finds nothing.
func verifyUpgraded(t *testing.T, s *Store, rs []tessera.Rating) {
	t.Helper()
	ctx := t.Context()
	all, err := s.AllRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(rs)
	key := func(r tessera.Rating) string { return r.GuildID + "/" + r.Game + "/" + r.UserID }
	slices.SortFunc(want, func(a, b tessera.Rating) int { return strings.Compare(key(a), key(b)) })
	slices.SortFunc(all, func(a, b tessera.Rating) int { return strings.Compare(key(a), key(b)) })
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("ratings after the build:\n%+v\nwant\n%+v", all, want)
	}
	var elemental []tessera.Rating
	for _, r := range rs {
		if r.GuildID == "g1" && r.Game == "elemental" {
			r.History = nil
			elemental = append(elemental, r)
		}
	}
	slices.SortFunc(elemental, storage.CompareRank)
	page, n, err := s.Leaders(ctx, "g1", "elemental", 0, 100)
	if err != nil || !reflect.DeepEqual(page, elemental) || n != len(elemental) {
		t.Fatalf("leaderboard after the build: %+v of %d (%v), want %+v", page, n, err, elemental)
	}
	for i, r := range elemental {
		if place, _, err := s.RatingRank(ctx, "g1", "elemental", r.UserID); err != nil || place != i+1 {
			t.Errorf("place of %s: %d (%v), want %d", r.UserID, place, err, i+1)
		}
	}
	if mine, err := s.PlayerRatings(ctx, "g1", "1"); err != nil || len(mine) != 2 {
		t.Errorf("player 1's ratings in g1: %+v %v", mine, err)
	}
	if errs := s.Check(ctx); len(errs) != 0 {
		t.Errorf("check after the build: %v", errs)
	}
	if _, err := s.Modify(ctx, create(t, s), func(g *tessera.Game, tx storage.Tx) error {
		seq, err := tx.NextRatingSeq(ctx)
		if err == nil && seq <= 40 {
			err = fmt.Errorf("NextRatingSeq %d after the build, want above 40", seq)
		}
		return err
	}); err != nil {
		t.Error(err)
	}
}

func create(t *testing.T, s *Store) uint64 {
	t.Helper()
	g := newGame()
	if err := s.Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// captureLog sends slog's default logger to a buffer for the test.
func captureLog(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

// TestRatingIndexesBuilt: a file made before the rating indexes reads
// as it did when opened read-only (its history in its rows), builds
// them on its first open for writing, in batches, saying so in the log,
// and an interrupted build resumes where its last batch ended.
func TestRatingIndexesBuilt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	rs := oldRatings()
	makeOldFile(t, path, rs)
	log := captureLog(t)

	ro, err := Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if all, err := ro.AllRatings(t.Context()); err != nil || len(all) != len(rs) || len(all[3].History) == 0 {
		t.Fatalf("ratings of the old file, read-only: %d %v", len(all), err)
	}
	if mine, err := ro.PlayerRatings(t.Context(), "g1", "1"); err != nil || len(mine) != 2 || len(mine[0].History) != 1 {
		t.Fatalf("a player's ratings in the old file, read-only: %+v %v", mine, err)
	}
	if _, _, err := ro.Leaders(t.Context(), "g1", "elemental", 0, 10); err == nil || !strings.Contains(err.Error(), "open it once for writing") {
		t.Fatalf("a leaderboard of the old file, read-only: %v, want a message that says what to do", err)
	}
	if errs := ro.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("check of the old file: %v", errs)
	}
	ro.Close()

	// A build interrupted in its third batch: two committed, the third
	// rolled back, as a kill before its commit leaves it.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	interrupted := errors.New("interrupted")
	err = buildRatingIndexes(db, path, 2, slog.Default(), func(n int) error {
		if n == 3 {
			return interrupted
		}
		return nil
	})
	if !errors.Is(err, interrupted) {
		t.Fatalf("the interrupted build: %v", err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		b := ratingBucketsOf(tx)
		if ratingsIndexed(tx) || b.history.Stats().KeyN != 4 || b.ranks.Stats().KeyN != 4 {
			return fmt.Errorf("after two batches of two: marked %v, %d histories, %d ranks", ratingsIndexed(tx), b.history.Stats().KeyN, b.ranks.Stats().KeyN)
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s := open(t, path)
	defer s.Close()
	if !strings.Contains(log.String(), "building the rating indexes") || !strings.Contains(log.String(), "resuming the build") || !strings.Contains(log.String(), "built the rating indexes") {
		t.Errorf("the log says:\n%s", log)
	}
	verifyUpgraded(t, s, rs)
	s.Close()

	// Opened again, nothing is built twice.
	log.Reset()
	s = open(t, path)
	if log.Len() != 0 {
		t.Errorf("a second open logged:\n%s", log)
	}
	verifyUpgraded(t, s, rs)
}

// killHelperEnv names the file the helper process builds the indexes of.
const killHelperEnv = "TESSERA_TEST_RATING_BUILD_KILLED"

// TestRatingIndexBuildKilled: a process killed (SIGKILL) in the middle of
// a batch of the build, its writes made but not committed, leaves a file
// the next open finishes building.
func TestRatingIndexBuildKilled(t *testing.T) {
	if path := os.Getenv(killHelperEnv); path != "" {
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			fmt.Println("open:", err)
			os.Exit(1)
		}
		_ = buildRatingIndexes(db, path, 2, slog.Default(), func(n int) error {
			if n == 3 {
				fmt.Println("in batch 3")
				select {} // killed here, inside the batch's transaction
			}
			return nil
		})
		fmt.Println("the build ended without being killed")
		os.Exit(1)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	rs := oldRatings()
	makeOldFile(t, path, rs)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRatingIndexBuildKilled$")
	cmd.Env = append(os.Environ(), killHelperEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "in batch 3\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the helper said %q", line)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		if n := ratingBucketsOf(tx).ranks.Stats().KeyN; ratingsIndexed(tx) || n != 4 {
			return fmt.Errorf("after the kill: marked %v, %d ranks, want two batches of two", ratingsIndexed(tx), n)
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	defer s.Close()
	verifyUpgraded(t, s, rs)
}
