package boltdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
	"tessera/engine"
	"tessera/storage"
)

// DamagedCopies builds a database with enough games for branch pages, then
// writes damaged copies of it into dir: truncated at many lengths, and with
// bytes flipped in the header (meta) pages, the free list, branch and leaf
// pages. It returns the copies by name, and the intact file.
func damagedCopies(t testing.TB, dir string) (map[string]string, string) {
	t.Helper()
	good := filepath.Join(dir, "good.db")
	st, err := Open(good, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		g := &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: uint64(i)},
			Players: []tessera.Player{{ID: fmt.Sprint("p", i), Name: "a"}, {ID: fmt.Sprint("q", i), Name: "b"}}, ChannelID: fmt.Sprint("c", i%7), Created: time.Unix(int64(i), 0)}
		if err := st.Create(t.Context(), g, fmt.Sprint("i", i)); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 { // rewrites leave free pages, so the free list is not empty
			st.Modify(t.Context(), g.ID, func(g *tessera.Game, _ storage.Tx) error { g.StatusID = strings.Repeat("x", 200); return nil })
		}
	}
	// Ratings and tournaments, so that their pages are damaged too.
	var rs []tessera.Rating
	for i := 0; i < 100; i++ {
		rs = append(rs, tessera.Rating{GuildID: "g", Game: "elemental", UserID: fmt.Sprint("p", i), Name: "a", Mu: 25, Sigma: 8, Games: i})
	}
	if err := st.ReplaceRatings(t.Context(), rs); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if err := st.CreateEvent(t.Context(), &tessera.Event{GuildID: "g", ChannelID: fmt.Sprint("c", i), Organiser: "p1"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := parseMeta(data)
	if !ok {
		t.Fatal("the intact file's first header is invalid")
	}
	ps := int(m.pageSize)
	pages := map[uint16][]int{} // page flags -> page ids
	for id := 2; id < int(m.pgid); id++ {
		if (id+1)*ps <= len(data) && binary.LittleEndian.Uint64(data[id*ps:]) == uint64(id) {
			f := binary.LittleEndian.Uint16(data[id*ps+8:])
			pages[f] = append(pages[f], id)
		}
	}
	for _, kind := range []struct {
		flag uint16
		name string
	}{{0x01, "branch"}, {0x02, "leaf"}, {0x10, "freelist"}} {
		if len(pages[kind.flag]) == 0 {
			t.Fatalf("the test database has no %s page", kind.name)
		}
	}

	copies := map[string]string{}
	write := func(name string, b []byte) {
		p := filepath.Join(dir, name+".db")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		copies[name] = p
	}
	// bbolt grows the file ahead of its pages: only a cut below the
	// header's page count loses data.
	hwm := int(m.pgid) * ps
	for _, n := range []int{1, 100, ps - 1, ps, ps + 100, 2 * ps, 3*ps + 7, hwm / 2, hwm - ps, hwm - 1} {
		write(fmt.Sprintf("truncated-%d", n), append([]byte(nil), data[:n]...))
	}
	flip := func(name string, offs ...int) {
		b := append([]byte(nil), data...)
		for _, o := range offs {
			b[o] ^= 0xff
		}
		write(name, b)
	}
	// Header pages: magic, page size, root, free list, page count, checksum.
	for _, o := range []int{16, 24, 32, 48, 56, 72} {
		flip(fmt.Sprintf("meta0-%d", o), o)
		flip(fmt.Sprintf("meta1-%d", o), ps+o)
		flip(fmt.Sprintf("metas-%d", o), o, ps+o)
	}
	// The other pages: the page id, the flags, the count, the overflow,
	// the first element, and somewhere in the middle.
	for _, kind := range []struct {
		flag uint16
		name string
	}{{0x01, "branch"}, {0x02, "leaf"}, {0x10, "freelist"}} {
		ids := pages[kind.flag]
		for _, id := range []int{ids[0], ids[len(ids)-1]} {
			for _, o := range []int{0, 8, 10, 12, 16, 19, 20, 23, 24, 27, 31, 40, ps / 2} { // 19, 23, 27, 31: the high bytes of a position, a size, a child: far past the mapping
				flip(fmt.Sprintf("%s-page%d-%d", kind.name, id, o), id*ps+o)
			}
		}
	}
	return copies, good
}

// TestDamagedDatabases: every damaged copy, opened read-only and checked
// (tessera check) or opened for writing (tessera run), ends in an error
// that names the file, or opens; none crashes. A truncated copy and a copy
// with both headers broken are always reported as damaged.
func TestDamagedDatabases(t *testing.T) {
	dir := t.TempDir()
	copies, _ := damagedCopies(t, dir)
	detected := 0
	for name, path := range copies {
		t.Run(name, func(t *testing.T) {
			// Open and check read-only, then a fresh copy for writing: a
			// lock left by a recovered panic must not hide the second.
			data, _ := os.ReadFile(path)
			rw := path + ".rw"
			os.WriteFile(rw, data, 0o600)

			var problems []error
			st, err := Open(path, storage.Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond})
			if err == nil {
				problems = st.Check(t.Context())
				if len(problems) == 0 {
					// Check reads pages itself (trees.go); bbolt's own
					// checker, which keeps the whole file's pages in a
					// map, must find nothing either.
					st.db.View(func(tx *bolt.Tx) error {
						for err := range tx.Check() {
							t.Errorf("Check found nothing, bbolt's Tx.Check found: %v", err)
						}
						return nil
					})
					if err := st.All(t.Context(), func(*tessera.Game) error { return nil }); err != nil {
						problems = append(problems, err) // a record that no longer decodes
					}
				}
				st.Close()
			} else {
				problems = append(problems, err)
			}
			for _, p := range problems {
				if strings.Contains(p.Error(), "goroutine ") {
					t.Fatalf("a stack trace: %v", p)
				}
			}
			var damaged *storage.DamagedError
			if err != nil && !errors.As(err, &damaged) && !strings.Contains(err.Error(), path) {
				t.Fatalf("read-only: the error does not name the file: %v", err)
			}
			if errors.As(err, &damaged) && !strings.Contains(err.Error(), "restore the latest backup") {
				t.Fatalf("the error does not say what to do: %v", err)
			}
			mustFail := strings.HasPrefix(name, "truncated-") || strings.HasPrefix(name, "metas-16") || strings.HasPrefix(name, "metas-72")
			if mustFail && err == nil {
				t.Fatalf("read-only open of %s succeeded", name)
			}
			if len(problems) > 0 {
				detected++
			}

			st, err = Open(rw, storage.Options{LockTimeout: 100 * time.Millisecond, NoSync: true})
			if err == nil {
				st.Close()
			} else if !strings.Contains(err.Error(), rw) {
				t.Fatalf("open for writing: the error does not name the file: %v", err)
			}
			if mustFail && err == nil {
				t.Fatalf("open of %s for writing succeeded", name)
			}
		})
	}
	t.Logf("%d of %d damaged copies reported", detected, len(copies))
}

func TestReadOnlyCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo.db")
	_, err := Open(missing, storage.Options{ReadOnly: true})
	var nf *storage.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a read-only open created the file")
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	if _, err := Open(empty, storage.Options{ReadOnly: true}); !errors.As(err, &nf) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty file: %v", err)
	}
	if info, _ := os.Stat(empty); info.Size() != 0 {
		t.Fatal("a read-only open wrote into an empty file")
	}
	// Only a writable open creates, and says so.
	st, err := Open(missing, storage.Options{NoSync: true})
	if err != nil || !st.Created() {
		t.Fatalf("create: %v %v", err, st)
	}
	st.Close()
	st, err = Open(missing, storage.Options{NoSync: true})
	if err != nil || st.Created() {
		t.Fatalf("reopen: %v", err)
	}
	st.Close()
	before, _ := os.ReadFile(missing)
	st, err = Open(missing, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if errs := st.Check(t.Context()); len(errs) != 0 {
		t.Fatal(errs)
	}
	st.Close()
	if after, _ := os.ReadFile(missing); string(after) != string(before) {
		t.Fatal("a read-only open and check changed the file")
	}
}

// TestBranchPageLoop: a branch page whose first child is itself made
// bbolt's cursor descend for ever, so tessera check hung on such a file
// (a byte flipped at a branch page did it, in one of CI's runs). Check
// now walks the trees itself first and reports the loop as damage.
func TestBranchPageLoop(t *testing.T) {
	dir := t.TempDir()
	_, good := damagedCopies(t, dir)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := parseMeta(data)
	ps := int(m.pageSize)
	for id := 2; id < int(m.pgid); id++ {
		off := id * ps
		if binary.LittleEndian.Uint64(data[off:]) != uint64(id) || binary.LittleEndian.Uint16(data[off+8:]) != branchPage {
			continue
		}
		binary.LittleEndian.PutUint64(data[off+pageHeaderSize+8:], uint64(id)) // its first child: itself
		path := filepath.Join(dir, "loop.db")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := Open(path, storage.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		problems := st.Check(t.Context())
		var damaged *storage.DamagedError
		if len(problems) != 1 || !errors.As(problems[0], &damaged) || !strings.Contains(problems[0].Error(), "loop") {
			t.Fatalf("a branch page pointing to itself: %v, want one DamagedError naming the loop", problems)
		}
		return
	}
	t.Fatal("the test database has no branch page")
}

// TestDamagedStoreInUse: a damaged file that still opens (the damage is
// in a page that opening does not read) is met later, by a read or a
// write of the bot or a tool: /games, tessera ratings, tournament list, a
// move. Each ends in an error, a *storage.DamagedError naming tessera
// check when it is the damage, never in a panic or a fault. Besides the
// flipped copies, every third page in turn is zeroed (page 2 zeroed made /games
// panic with "page 2 expected to be a leaf").
func TestDamagedStoreInUse(t *testing.T) {
	dir := t.TempDir()
	copies, good := damagedCopies(t, dir)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := parseMeta(data)
	ps := int(m.pageSize)
	for id := 2; id < int(m.pgid); id += 3 { // every third page: the kinds are all met
		b := append([]byte(nil), data...)
		clear(b[id*ps : (id+1)*ps])
		p := filepath.Join(dir, fmt.Sprintf("zeroed-page%d.db", id))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		copies[fmt.Sprintf("zeroed-page%d", id)] = p
	}
	now := time.Unix(1000, 0)
	ops := []struct {
		name string
		run  func(st *Store) error
	}{
		{"All", func(st *Store) error { return st.All(t.Context(), func(*tessera.Game) error { return nil }) }},
		{"ByPlayer", func(st *Store) error { _, err := st.ByPlayer(t.Context(), "p5"); return err }},
		{"ByChannel", func(st *Store) error { _, err := st.ByChannel(t.Context(), "c3"); return err }},
		{"Game", func(st *Store) error { _, err := st.Game(t.Context(), 7); return err }},
		{"Finished", func(st *Store) error { _, _, err := st.Finished(t.Context(), "p1", nil, 0, 10); return err }},
		{"OpenChallenges", func(st *Store) error { _, err := st.OpenChallenges(t.Context(), "g"); return err }},
		{"Due", func(st *Store) error { _, err := st.Due(t.Context(), now); return err }},
		{"AITurns", func(st *Store) error { _, err := st.AITurns(t.Context()); return err }},
		{"AllRatings", func(st *Store) error { _, err := st.AllRatings(t.Context()); return err }},
		{"Ratings", func(st *Store) error { _, err := st.Ratings(t.Context(), "g", "elemental"); return err }},
		{"PlayerRatings", func(st *Store) error { _, err := st.PlayerRatings(t.Context(), "g", "p3"); return err }},
		{"GuildEvents", func(st *Store) error { _, err := st.GuildEvents(t.Context(), "g"); return err }},
		{"Event", func(st *Store) error { _, err := st.Event(t.Context(), 3); return err }},
		{"Pending", func(st *Store) error { _, err := st.Pending(t.Context(), now, 10); return err }},
		{"Create", func(st *Store) error {
			return st.Create(t.Context(), &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2},
				Players: []tessera.Player{{ID: "p5"}, {ID: "q5"}}, ChannelID: "c3"}, "")
		}},
		{"Modify", func(st *Store) error {
			_, err := st.Modify(t.Context(), 9, func(g *tessera.Game, _ storage.Tx) error { g.StatusID = "edited"; return nil })
			return err
		}},
		{"CreateEvent", func(st *Store) error {
			return st.CreateEvent(t.Context(), &tessera.Event{GuildID: "g", ChannelID: "c9", Organiser: "p2"}, "")
		}},
		{"MarkHandled", func(st *Store) error { return st.MarkHandled(t.Context(), "a new interaction") }},
	}
	damaged := 0
	for name, path := range copies {
		st, err := Open(path, storage.Options{LockTimeout: 100 * time.Millisecond, NoSync: true})
		if err != nil {
			continue // refused at once: TestDamagedDatabases
		}
		for _, op := range ops {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: %s panicked: %v", name, op.name, r)
					}
				}()
				err := op.run(st)
				var d *storage.DamagedError
				switch {
				case err == nil, errors.Is(err, storage.ErrNotFound):
				case errors.As(err, &d):
					damaged++
					if !strings.Contains(err.Error(), "tessera check") || strings.Contains(err.Error(), "goroutine ") {
						t.Errorf("%s: %s: %v, want one line naming tessera check", name, op.name, err)
					}
				default:
					t.Errorf("%s: %s: %v, want a DamagedError", name, op.name, err)
				}
			}()
		}
		st.Close()
	}
	if damaged == 0 {
		t.Fatal("no operation met the damage")
	}
	t.Logf("%d operations on %d damaged copies reported the damage", damaged, len(copies))
}

// TestCheckWhileWriting: tessera check asked of a running bot reads the
// file page by page while the bot writes. It reads the pages of its own
// read transaction, which bbolt neither frees nor rewrites while it is
// open, so it finds nothing wrong however busy the writer is.
func TestCheckWhileWriting(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "live.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < 200; i++ {
		g := &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2, Seed: uint64(i)},
			Players: []tessera.Player{{ID: fmt.Sprint("p", i)}, {ID: "q"}}, ChannelID: "c"}
		if err := st.Create(t.Context(), g, ""); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			_, err := st.Modify(t.Context(), uint64(i%200+1), func(g *tessera.Game, _ storage.Tx) error {
				g.StatusID = strings.Repeat("x", i%3000) // values that grow and shrink: pages allocated and freed
				return nil
			})
			if err != nil {
				done <- err
				return
			}
		}
	}()
	for range 20 {
		if problems := st.Check(t.Context()); len(problems) != 0 {
			close(stop)
			<-done
			t.Fatalf("a check beside a writer: %v", problems)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestFreeListNamingATreePage: a free list that names a page still in a
// tree (one flipped byte does it) is refused for writing before the first
// write, and the file is left as it was. bbolt trusts its free list: the
// next commit would overwrite that page, and the tree would loop (a cursor
// running for ever, its memory growing, 22 GB once) or lose records.
func TestFreeListNamingATreePage(t *testing.T) {
	dir := t.TempDir()
	_, good := damagedCopies(t, dir)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := parseMeta(data)
	ps := int(m.pageSize)
	if m.freelist == noFreelist {
		t.Fatal("the test database has no free list page")
	}
	fl := int(m.freelist) * ps
	le := binary.LittleEndian
	count := int(le.Uint16(data[fl+10:]))
	ids := fl + pageHeaderSize
	if count == 0xFFFF {
		count, ids = int(le.Uint64(data[ids:])), ids+8
	}
	if count == 0 {
		t.Fatal("the test database's free list is empty")
	}
	// The root of the tree is reached from the header: name it free.
	le.PutUint64(data[ids:], m.root)
	path := filepath.Join(dir, "freed-root.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path, storage.Options{LockTimeout: 100 * time.Millisecond, NoSync: true})
	if err == nil {
		st.Close()
		t.Fatal("opened for writing")
	}
	var damaged *storage.DamagedError
	if !errors.As(err, &damaged) || !strings.Contains(err.Error(), fmt.Sprintf("page %d: reachable freed", m.root)) || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want a DamagedError naming the file and the page", err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(data) {
		t.Fatal("the refused file was written")
	}
	// Read-only, the tools still open it, so that tessera check can say
	// what is wrong and tessera backup can save what is whole.
	st, err = Open(path, storage.Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("read-only: %v", err)
	}
	defer st.Close()
	if problems := st.Check(t.Context()); len(problems) == 0 {
		t.Fatal("check found nothing")
	}
}
