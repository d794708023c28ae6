package boltdb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/storage"
	"tessera/storage/storagetest"
)

// oldGames is what writeSchema1 stores: 2,500 games (three batches of the
// upgrade) in channel c1, most of them finished, every tenth in play with
// its own thread and a reminder-less record, every 25th an open challenge;
// game 7 in play moved from thread old-7 to new-7; game 11 in play with no
// turn start recorded.
func oldGames() []*tessera.Game {
	t0 := time.Unix(1_700_000_000, 123).UTC()
	var out []*tessera.Game
	for id := uint64(1); id <= 2500; id++ {
		g := &tessera.Game{ID: id, Version: 3, Status: tessera.StatusFinished, GuildID: "g1", ChannelID: "c1",
			Players: []tessera.Player{{ID: "ana"}, {ID: "bo"}}, Created: t0, TurnStart: t0.Add(time.Duration(id) * time.Minute)}
		switch {
		case id == 7:
			g.Status, g.ThreadID = tessera.StatusPlaying, "new-7"
		case id == 11:
			g.Status, g.TurnStart = tessera.StatusPlaying, time.Time{}
		case id%10 == 0:
			g.Status, g.ThreadID = tessera.StatusPlaying, fmt.Sprintf("th-%d", id)
		case id%25 == 1:
			g.Status, g.Open = tessera.StatusChallenge, true
		default:
			g.ThreadID = fmt.Sprintf("th-%d", id)
		}
		out = append(out, g)
	}
	return out
}

// writeSchema1 writes games as a Tessera of schema 1 left them, through
// the raw file: records without RemindAt, and by_channel holding every
// place a game was ever in (game 7's old thread too).
func writeSchema1(t testing.TB, path string, games []*tessera.Game) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		meta, _ := tx.CreateBucket(bMeta)
		meta.Put(kSchema, []byte("1"))
		gb, _ := tx.CreateBucket(bGames)
		players, _ := tx.CreateBucket(bByPlayer)
		places, _ := tx.CreateBucket(bByChan)
		for _, b := range [][]byte{bHandled, bOutbox, bDeadline, bUsers} { // schema 1's other buckets
			tx.CreateBucket(b)
		}
		for _, g := range games {
			v, err := json.Marshal(g)
			if err != nil || bytes.Contains(v, []byte("remind_at")) {
				return fmt.Errorf("game %d: %s %v", g.ID, v, err)
			}
			gb.Put(itob(g.ID), v)
			gb.SetSequence(g.ID)
			for _, p := range g.Players {
				players.Put(indexKey(p.ID, g.ID), nil)
			}
			for _, p := range []string{g.ChannelID, g.ThreadID} {
				if p != "" {
					places.Put(indexKey(p, g.ID), nil)
				}
			}
		}
		return places.Put(indexKey("old-7", 7), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// activeOld is how many of oldGames are active (in play: every tenth, 7
// and 11; open challenges: every 25th).
const activeOld = 2500/10 + 2 + 2500/25

// checkUpgraded verifies a file upgraded from oldGames.
func checkUpgraded(t *testing.T, s *Store) {
	t.Helper()
	var active []uint64
	var playing []uint64
	for _, g := range oldGames() {
		if g.Active() {
			active = append(active, g.ID)
		}
		if g.Status == tessera.StatusPlaying {
			playing = append(playing, g.ID)
		}
	}
	if gs, err := s.ByChannel(t.Context(), "c1"); err != nil || ids(gs) != fmt.Sprint(active) {
		t.Errorf("channel c1 after the upgrade: %d games (%v), want the %d active ones", len(gs), err, len(active))
	}
	for place, want := range map[string]string{"th-20": "[20]", "th-3": "[3]", "new-7": "[7]", "old-7": "[]"} {
		if gs, err := s.ByChannel(t.Context(), place); err != nil || ids(gs) != want {
			t.Errorf("place %s: %s %v, want %s", place, ids(gs), err, want)
		}
	}
	// Every game in play is due once, at the start of its turn: game 11
	// (none) in 1970, first; the others by their turn's start, which is
	// their id's order.
	due, err := s.RemindersDue(t.Context(), time.Unix(1_800_000_000, 0), 10_000)
	want := append([]uint64{11}, slices.DeleteFunc(slices.Clone(playing), func(id uint64) bool { return id == 11 })...)
	if err != nil || fmt.Sprint(due) != fmt.Sprint(want) {
		t.Errorf("reminders due after the upgrade: %v (%v), want %v", due, err, want)
	}
	var open []uint64
	for _, g := range oldGames() {
		if g.Open {
			open = append(open, g.ID)
		}
	}
	if gs, err := s.ExpiredChallenges(t.Context(), time.Unix(1_800_000_000, 0), 10_000); err != nil || ids(gs) != fmt.Sprint(open) {
		t.Errorf("open challenges to expire after the upgrade: %s (%v), want %v", ids(gs), err, open)
	}
	if g, _ := s.Game(t.Context(), 20); !g.RemindAt.Equal(g.TurnStart) || g.Version != 3 {
		t.Errorf("game 20: remind at %s, turn start %s, version %d", g.RemindAt, g.TurnStart, g.Version)
	}
	if g, _ := s.Game(t.Context(), 11); !g.RemindAt.Equal(time.Unix(0, 0)) {
		t.Errorf("game 11 (no turn start): remind at %s, want 1970", g.RemindAt)
	}
	if g, _ := s.Game(t.Context(), 3); !g.RemindAt.IsZero() {
		t.Errorf("finished game 3 got a reminder time %s", g.RemindAt)
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		if !upgraded(tx) || tx.Bucket(bByChan) != nil || tx.Bucket(bMeta).Get(kUpgradeNext) != nil {
			return fmt.Errorf("schema %s, by_channel %v, progress mark %x", tx.Bucket(bMeta).Get(kSchema), tx.Bucket(bByChan) != nil, tx.Bucket(bMeta).Get(kUpgradeNext))
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Errorf("check after the upgrade: %v", errs)
	}
}

// TestUpgradeFromSchema1: opening a file of schema 1 for writing builds
// the reminders' and places' indexes in batches of upgradeBatch games,
// says so in the log, and leaves a file of schema 2 whose answers follow
// the new rules; a read-only open before it answers by the same rules
// from the old index.
func TestUpgradeFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeSchema1(t, path, oldGames())

	ro, err := Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if gs, _ := ro.ByChannel(t.Context(), "old-7"); len(gs) != 0 {
		t.Errorf("read-only, schema 1: the old thread lists %s", ids(gs))
	}
	if gs, _ := ro.ByChannel(t.Context(), "c1"); len(gs) != activeOld {
		t.Errorf("read-only, schema 1: channel c1 lists %d games, want the %d active", len(gs), activeOld)
	}
	// Its indexes and its dump read as if upgraded (tessera migrate's
	// source): the reminders at the start of each turn, 11's in 1970.
	if due, err := ro.RemindersDue(t.Context(), time.Unix(1_800_000_000, 0), 3); err != nil || fmt.Sprint(due) != "[11 7 10]" {
		t.Errorf("read-only, schema 1: reminders %v %v, want [11 7 10]", due, err)
	}
	if gs, err := ro.ExpiredChallenges(t.Context(), time.Unix(1_800_000_000, 0), 2); err != nil || ids(gs) != "[1 26]" {
		t.Errorf("read-only, schema 1: challenges to expire %s %v, want [1 26]", ids(gs), err)
	}
	if gs, err := ro.ByChannelPlayer(t.Context(), "c1", "ana"); err != nil || len(gs) != activeOld {
		t.Errorf("read-only, schema 1: ana's games in c1: %d %v, want %d", len(gs), err, activeOld)
	}
	if errs := ro.Check(t.Context()); len(errs) != 0 {
		t.Errorf("check of a file of schema 1: %v", errs)
	}
	before := storagetest.Dump(t, ro)
	ro.Close()

	var batches []int
	upgradeHook = func(n int) { batches = append(batches, n) }
	defer func() { upgradeHook = nil }()
	var log bytes.Buffer
	s, err := Open(path, storage.Options{NoSync: true, Log: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fmt.Sprint(batches) != "[1000 1000 500]" {
		t.Errorf("batches %v, want [1000 1000 500]", batches)
	}
	if !strings.Contains(log.String(), "upgrading the database to schema 2") || !strings.Contains(log.String(), "database upgraded to schema 2") || !strings.Contains(log.String(), "games=2500") {
		t.Errorf("the upgrade's log:\n%s", log.String())
	}
	checkUpgraded(t, s)
	after := storagetest.Dump(t, s)
	if len(after) != len(before) {
		t.Fatalf("%d records after the upgrade, %d read before it", len(after), len(before))
	}
	for i := range before {
		if storagetest.Canon(after[i]) != storagetest.Canon(before[i]) {
			t.Fatalf("record %d after the upgrade:\n%s\nread before it:\n%s", i, storagetest.Canon(after[i]), storagetest.Canon(before[i]))
		}
	}
	// A second open does nothing more.
	s.Close()
	batches = nil
	s = open(t, path)
	if len(batches) != 0 {
		t.Errorf("a second open upgraded again: %v", batches)
	}
	checkUpgraded(t, s)
}

const upgradeChildEnv = "TESSERA_UPGRADE_CHILD" // the file the child upgrades

// TestUpgradeChild is the process TestUpgradeKilled kills: it upgrades
// the file and, once the first batch is committed, says so and waits to
// be killed. It does nothing in a normal test run.
func TestUpgradeChild(t *testing.T) {
	path := os.Getenv(upgradeChildEnv)
	if path == "" {
		t.Skip("the process TestUpgradeKilled kills")
	}
	upgradeHook = func(n int) {
		fmt.Printf("BATCH %d\n", n)
		os.Stdin.Read(make([]byte, 1)) // killed here, between two batches: the parent never writes
	}
	Open(path, storage.Options{}) // with fsync, as in production
	t.Fatal("the upgrade ended before it was killed")
}

// TestUpgradeKilled: a process killed (SIGKILL) in the middle of the
// upgrade leaves a file of schema 1 that still reads correctly, with its
// progress recorded; the next open takes the upgrade up where it stopped
// (two batches, not three) and ends with the same file as an upgrade
// never interrupted.
func TestUpgradeKilled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	writeSchema1(t, path, oldGames())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestUpgradeChild$")
	cmd.Env = append(os.Environ(), upgradeChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe() // held open: the child waits on it
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "BATCH") {
	}
	if sc.Text() != "BATCH 1000" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child said %q, want BATCH 1000", sc.Text())
	}
	cmd.Process.Kill()
	cmd.Wait()

	ro, err := Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	err = ro.db.View(func(tx *bolt.Tx) error {
		if next := tx.Bucket(bMeta).Get(kUpgradeNext); upgraded(tx) || len(next) != 8 || btoi(next) != 1001 {
			return fmt.Errorf("after the kill: schema %s, next game %x; want schema 1 and 1001", tx.Bucket(bMeta).Get(kSchema), next)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	if gs, _ := ro.ByChannel(t.Context(), "c1"); len(gs) != activeOld {
		t.Errorf("half upgraded, read-only: channel c1 lists %d games, want the %d active", len(gs), activeOld)
	}
	ro.Close()

	var batches []int
	upgradeHook = func(n int) { batches = append(batches, n) }
	defer func() { upgradeHook = nil }()
	s := open(t, path)
	defer s.Close()
	if fmt.Sprint(batches) != "[1000 500]" {
		t.Errorf("batches after the kill %v, want [1000 500] (taken up where it stopped)", batches)
	}
	checkUpgraded(t, s)
}

// TestCheckFindsIndexProblems: Check finds a key missing from each new
// index and a key that belongs to no game that should have it: where a
// key was swapped for another (the index's count unchanged, which alone
// would pass the count's shortcut) and where one was only added.
func TestCheckFindsIndexProblems(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	g := newGame()
	g.RemindAt = time.Unix(1_700_000_000, 0)
	if err := s.Create(t.Context(), g, ""); err != nil {
		t.Fatal(err)
	}
	ch := newGame()
	ch.Status, ch.Open, ch.GuildID = tessera.StatusChallenge, true, "g"
	if err := s.Create(t.Context(), ch, ""); err != nil {
		t.Fatal(err)
	}
	if errs := s.Check(t.Context()); len(errs) != 0 {
		t.Fatalf("check of a healthy file: %v", errs)
	}
	at, _ := storage.RemindNanos(g)
	opened, _ := storage.OpenNanos(ch)
	err := s.db.Update(func(tx *bolt.Tx) error {
		tx.Bucket(bReminders).Delete(remindKey(at, g.ID))
		tx.Bucket(bReminders).Put(remindKey(at+1, ch.ID), nil)
		tx.Bucket(bExpiry).Delete(remindKey(opened, ch.ID))
		tx.Bucket(bExpiry).Put(remindKey(5, g.ID), nil) // only added: a game in play is no open challenge
		tx.Bucket(bPlaces).Delete(indexKey(g.ChannelID, g.ID))
		return tx.Bucket(bPlaces).Put(indexKey("elsewhere", g.ID), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	errs := s.Check(t.Context())
	var text []string
	for _, e := range errs {
		text = append(text, e.Error())
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		fmt.Sprintf("game %d: missing from the reminders' index", g.ID),
		fmt.Sprintf("the reminders' index lists game %d", ch.ID),
		fmt.Sprintf("game %d: missing from the open challenges' expiry index", ch.ID),
		fmt.Sprintf("the open challenges' expiry index lists game %d", g.ID),
		fmt.Sprintf("game %d: missing from the place index under %q", g.ID, g.ChannelID),
		fmt.Sprintf("the place index lists game %d under \"elsewhere\"", g.ID),
	} {
		if !strings.Contains(all, want) {
			t.Errorf("check did not say %q; it said:\n%s", want, all)
		}
	}
	if len(errs) != 6 {
		t.Errorf("%d problems, want 6:\n%s", len(errs), all)
	}
}
