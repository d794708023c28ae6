package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// liveDB makes a database with a few games and keeps it open, as the
// running bot does (so the admin tools must go through the socket).
func liveDB(t *testing.T, dir string, games int) (string, *boltdb.Store) {
	t.Helper()
	db := filepath.Join(dir, "live.db")
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for i := 0; i < games; i++ {
		g := &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: uint64(i)},
			Players: []tessera.Player{{ID: "1", Name: "a"}, {ID: "2", Name: "b"}}, ChannelID: fmt.Sprint("c", i), Created: time.Unix(0, 0)}
		if err := st.Create(t.Context(), g, ""); err != nil {
			t.Fatal(err)
		}
	}
	return db, st
}

// fakeBot answers every connection on db's socket with answer, then
// closes it: a bot that dies mid-answer, or a socket that just closes.
func fakeBot(t *testing.T, db string, answer []byte) {
	t.Helper()
	ln, err := net.Listen("unix", socketPath(db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 64)
			c.Read(buf)
			c.Write(answer)
			c.Close()
		}
	}()
}

// Item 7: only a complete, positive answer from the bot is OK.
func TestCheckNeedsAWholeAnswer(t *testing.T) {
	for name, answer := range map[string]string{
		"closes at once":               "",
		"dies after a problem":         "game 3: move 2: off the board\n",
		"problems then OK":             "game 3: move 2: off the board\nOK\n",
		"fewer problems than it says":  "game 3: bad\nPROBLEMS 2\n",
		"a half line":                  "O",
		"the old protocol, no problem": "\n",
	} {
		t.Run(name, func(t *testing.T) {
			db, _ := liveDB(t, t.TempDir(), 1)
			fakeBot(t, db, []byte(answer))
			code, out, errs := runCmd(t, "", "check", "--db", db)
			if code == 0 || strings.Contains(out, ": OK") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
	// The real bot's answer is whole, both ways.
	dir := t.TempDir()
	db, st := liveDB(t, dir, 2)
	admin, err := serveAdmin(t.Context(), st, db, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if code, out, errs := runCmd(t, "", "check", "--db", db); code != 0 || !strings.Contains(out, db+": OK") {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	g, _ := st.Game(t.Context(), 1)
	st.Update(t.Context(), 1, g.Version, "", func(g *tessera.Game, _ storage.Tx) error {
		g.Moves = append(g.Moves, tessera.MoveEntry{Text: "z9 QQQQ"})
		return nil
	})
	if code, out, _ := runCmd(t, "", "check", "--db", db); code != 1 || !strings.Contains(out, "game 1: move 1") || !strings.Contains(out, ": 1 problem\n") {
		t.Fatalf("exit %d %q", code, out)
	}
}

// Item 8: a cut-off copy from the bot is refused, and the old backup at
// the target stays as it was.
func TestBackupRefusesACutOffCopy(t *testing.T) {
	dir := t.TempDir()
	db, st := liveDB(t, dir, 50)
	var whole strings.Builder
	if _, err := st.Backup(t.Context(), &whole); err != nil {
		t.Fatal(err)
	}
	fakeBot(t, db, []byte(whole.String()[:whole.Len()/2]))
	dst := filepath.Join(dir, "backup.db")
	os.WriteFile(dst, []byte("yesterday's backup"), 0o600)
	code, out, errs := runCmd(t, "", "backup", "--db", db, dst)
	if code == 0 || strings.Contains(out, "backed up") || !strings.Contains(errs, "not whole") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if b, _ := os.ReadFile(dst); string(b) != "yesterday's backup" {
		t.Fatal("the old backup was replaced")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tessera-backup-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// Item 9: a backup onto the database itself is refused, by inode, under
// any name.
func TestBackupRefusesTheDatabaseItself(t *testing.T) {
	dir := t.TempDir()
	db, st := liveDB(t, dir, 3)
	admin, err := serveAdmin(t.Context(), st, db, discardLog())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	before, _ := os.ReadFile(db)
	hard := filepath.Join(dir, "hard.db")
	if err := os.Link(db, hard); err != nil {
		t.Fatal(err)
	}
	soft := filepath.Join(dir, "soft.db")
	os.Symlink("live.db", soft)
	for _, dst := range []string{db, filepath.Join(dir, ".", "live.db"), hard, soft} {
		code, _, errs := runCmd(t, "", "backup", "--db", db, dst)
		if code == 0 || !strings.Contains(errs, "the same file") {
			t.Fatalf("backup onto %s: exit %d %q", dst, code, errs)
		}
	}
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Fatal("the database changed")
	}
	if _, err := st.Game(t.Context(), 3); err != nil {
		t.Fatal(err)
	}
}

// Item 10: check and backup create and change nothing; a missing or
// empty database is an error naming the path; run creates and says so.
func TestAdminToolsCreateNothing(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.db")
	code, _, errs := runCmd(t, "", "backup", "--db", typo, filepath.Join(dir, "out.db"))
	if code == 0 || !strings.Contains(errs, typo) || !strings.Contains(errs, "does not exist") {
		t.Fatalf("backup of a missing file: exit %d %q", code, errs)
	}
	code, _, errs = runCmd(t, "", "check", "--db", typo)
	if code == 0 || !strings.Contains(errs, typo) {
		t.Fatalf("check of a missing file: exit %d %q", code, errs)
	}
	if _, err := os.Stat(typo); err == nil {
		t.Fatal("a missing database was created")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) != 0 {
		t.Fatalf("files created: %v", m)
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	code, out, errs := runCmd(t, "", "check", "--db", empty)
	if code == 0 || strings.Contains(out, "OK") || !strings.Contains(errs, empty) || !strings.Contains(errs, "empty") {
		t.Fatalf("check of an empty file: exit %d %q %q", code, out, errs)
	}
	code, _, errs = runCmd(t, "", "backup", "--db", empty, filepath.Join(dir, "out.db"))
	if code == 0 || !strings.Contains(errs, "empty") {
		t.Fatalf("backup of an empty file: exit %d %q", code, errs)
	}
	if info, _ := os.Stat(empty); info.Size() != 0 {
		t.Fatal("the empty file was written")
	}

	// A whole database, checked and backed up with no bot: unchanged.
	db, st := liveDB(t, dir, 2)
	st.Close()
	before, _ := os.ReadFile(db)
	if code, out, _ := runCmd(t, "", "check", "--db", db); code != 0 || !strings.Contains(out, "OK") {
		t.Fatalf("check: exit %d %q", code, out)
	}
	if code, out, errs := runCmd(t, "", "backup", "--db", db, filepath.Join(dir, "copy.db")); code != 0 || !strings.Contains(out, "verified") {
		t.Fatalf("backup: exit %d %q %q", code, out, errs)
	}
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Fatal("check or backup changed the database")
	}

	// The console creates a new database and says so (on its output, not
	// in a log); the second time it does not.
	fresh := filepath.Join(dir, "fresh.db")
	env := consoleEnv(t, fresh)
	code, out, errs = runWithEnv(t, env, "quit\n")
	if code != 0 || !strings.Contains(out, fresh+", a new, empty database") || errs != "" {
		t.Fatalf("console: exit %d %q %q", code, out, errs)
	}
	code, out, errs = runWithEnv(t, env, "quit\n")
	if code != 0 || strings.Contains(out, "new, empty") || errs != "" {
		t.Fatalf("console again: exit %d %q %q", code, out, errs)
	}
}

// Item 11: damaged files end in one clear error from check and from run,
// never a stack trace: a truncated file (a SIGBUS once mapped), a flipped
// free-list page type and a flipped branch page id (bbolt panics).
func TestDamagedDatabaseIsAClearError(t *testing.T) {
	dir := t.TempDir()
	db, st := liveDB(t, dir, 400)
	for i := uint64(1); i <= 400; i += 2 { // rewrites leave a free list
		st.Modify(t.Context(), i, func(g *tessera.Game, _ storage.Tx) error { g.StatusID = strings.Repeat("s", 300); return nil })
	}
	st.Close()
	data, _ := os.ReadFile(db)
	const ps = 4096
	// The header of the latest transaction says how many pages are in use
	// and where the free list is; the free pages it lists are not read, so
	// damage there goes unseen: the pages to damage must be in use.
	meta := data[16:]
	if binary.LittleEndian.Uint64(data[ps+16+48:]) > binary.LittleEndian.Uint64(data[16+48:]) {
		meta = data[ps+16:]
	}
	pgid, fl := int(binary.LittleEndian.Uint64(meta[40:])), int(binary.LittleEndian.Uint64(meta[32:]))
	free := map[int]bool{}
	n, at := int(binary.LittleEndian.Uint16(data[fl*ps+10:])), fl*ps+16
	if n == 0xffff {
		n, at = int(binary.LittleEndian.Uint64(data[at:])), at+8
	}
	for i := 0; i < n; i++ {
		free[int(binary.LittleEndian.Uint64(data[at+8*i:]))] = true
	}
	pageOf := func(flag uint16) int {
		for id := 2; id < pgid; id++ {
			if !free[id] && binary.LittleEndian.Uint64(data[id*ps:]) == uint64(id) && binary.LittleEndian.Uint16(data[id*ps+8:]) == flag {
				return id
			}
		}
		t.Fatalf("no page with flags %x", flag)
		return 0
	}
	flip := func(off int) []byte {
		b := append([]byte(nil), data...)
		b[off] ^= 0xff
		return b
	}
	for name, b := range map[string][]byte{
		"truncated":     data[:pgid*ps/2],
		"truncated-end": data[:pgid*ps-ps],
		"freelist-type": flip(pageOf(0x10)*ps + 8),
		"branch-id":     flip(pageOf(0x01) * ps),
		"branch-flags":  flip(pageOf(0x01)*ps + 8),
		"both-headers":  flip(ps + 16)[:],
	} {
		t.Run(name, func(t *testing.T) {
			if name == "both-headers" {
				b[16] ^= 0xff
			}
			bad := filepath.Join(t.TempDir(), name+".db")
			os.WriteFile(bad, b, 0o600)
			code, out, errs := runCmd(t, "", "check", "--db", bad)
			if code != 1 || !strings.Contains(out+errs, "damaged") || !strings.Contains(out+errs, bad) || strings.Contains(out+errs, "goroutine") {
				t.Fatalf("check: exit %d\n%s\n%s", code, out, errs)
			}
			code, _, errs = runWithEnv(t, consoleEnv(t, bad), "quit\n")
			if name == "freelist-type" || name == "truncated" || name == "truncated-end" || name == "both-headers" {
				if code != 1 || !strings.Contains(errs, "damaged") || !strings.Contains(errs, "restore the latest backup") || strings.Contains(errs, "goroutine") {
					t.Fatalf("run: exit %d %q", code, errs)
				}
			} else if strings.Contains(errs, "goroutine") {
				t.Fatalf("run: exit %d %q", code, errs)
			}
		})
	}
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// consoleEnv is the environment of `tessera run` as a local console on db.
func consoleEnv(t *testing.T, db string) map[string]string {
	return map[string]string{"TESSERA_DATABASE": db, "TESSERA_PICTURES": filepath.Join(t.TempDir(), "pics")}
}

// runWithEnv runs `tessera console` with only env as its environment
// and stdin as its script.
func runWithEnv(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := runConsole(args, strings.NewReader(stdin), &out, &errb, func(k string) string { return env[k] })
	return code, out.String(), errb.String()
}

// A damaged page that opening does not read is met later: by the console's
// /games, by `tessera ratings` and `tessera tournament list` (page 2
// zeroed made them panic with "page 2 expected to be a leaf"). Each ends
// in one line naming tessera check, never a stack trace.
func TestDamagedPageInUseIsAClearError(t *testing.T) {
	dir := t.TempDir()
	db, st := liveDB(t, dir, 300)
	var rs []tessera.Rating
	for i := 0; i < 50; i++ {
		rs = append(rs, tessera.Rating{GuildID: "g", Game: "elemental", UserID: fmt.Sprint(i), Name: "a", Mu: 25, Sigma: 8})
	}
	if err := st.ReplaceRatings(t.Context(), rs); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if err := st.CreateEvent(t.Context(), &tessera.Event{GuildID: "g", ChannelID: "c", Organiser: "1"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	data, _ := os.ReadFile(db)
	const ps = 4096
	pages := len(data) / ps
	reported := 0
	for id := 2; id < pages; id += 5 {
		b := append([]byte(nil), data...)
		clear(b[id*ps : (id+1)*ps])
		bad := filepath.Join(dir, fmt.Sprintf("zeroed-%d.db", id))
		os.WriteFile(bad, b, 0o600)
		for _, c := range []struct {
			name string
			run  func() (int, string, string)
		}{
			{"ratings", func() (int, string, string) { return runCmd(t, "", "ratings", "--db", bad) }},
			{"tournament list", func() (int, string, string) { return runCmd(t, "", "tournament", "list", "--db", bad) }},
			{"console /games", func() (int, string, string) { return runWithEnv(t, consoleEnv(t, bad), "1: /games\nquit\n") }},
		} {
			code, out, errs := c.run()
			all := out + errs
			if strings.Contains(all, "goroutine ") || strings.Contains(all, "panic") {
				t.Fatalf("page %d zeroed, %s: a crash: exit %d\n%s", id, c.name, code, all)
			}
			if strings.Contains(all, "damaged") {
				reported++
				if !strings.Contains(all, "tessera check") {
					t.Fatalf("page %d zeroed, %s: the damage is not one line naming tessera check:\n%s", id, c.name, all)
				}
			}
		}
	}
	if reported == 0 {
		t.Fatal("no command met the damage")
	}
}

// manyBadGames is a store of n games in play whose records claim an AI's
// turn where a person is to move, each a problem.
type manyBadGames struct {
	storage.Store
	n int
}

func (m manyBadGames) Check(context.Context) []error { return nil }

func (m manyBadGames) All(ctx context.Context, fn func(*tessera.Game) error) error {
	for i := 1; i <= m.n; i++ {
		g := &tessera.Game{ID: uint64(i), Status: tessera.StatusPlaying, AITurn: true, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: uint64(i)},
			Players: []tessera.Player{{ID: "1", Name: "a"}, {ID: "2", Name: "b"}}}
		if err := fn(g); err != nil {
			return err
		}
	}
	return nil
}

// TestCheckListsBoundedProblems: a check keeps no game, and lists the
// first maxGameProblems problems one by one and counts the rest, so that
// its memory does not grow with the games stored however many are wrong;
// the games are replayed on every core, and still the problems listed
// are those of the lowest game numbers, in their order.
func TestCheckListsBoundedProblems(t *testing.T) {
	problems := check(t.Context(), manyBadGames{n: 2*maxGameProblems + 7})
	if len(problems) != maxGameProblems+1 || problems[len(problems)-1] != fmt.Sprintf("and %d more problems with games", maxGameProblems+7) {
		t.Fatalf("%d problems, the last %q", len(problems), problems[len(problems)-1])
	}
	for i, p := range problems[:maxGameProblems] {
		if !strings.HasPrefix(p, fmt.Sprintf("game %d: the AI's turn is marked true", i+1)) {
			t.Fatalf("problem %d is %q, want game %d's", i+1, p, i+1)
		}
	}
}
