package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
)

// runMigrate is `tessera migrate --from SRC --to DST`: it copies every
// record of one database into a new, empty one (a bbolt file or a
// PostgreSQL database, either way), then reads the copy back and checks
// it: every record the same, every index answering the same, and every
// game replaying to the same position as in the original. The bots must
// be stopped: a running bot holds a bbolt file's lock (and the copy
// would miss what it writes after).
func runMigrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("migrate", stderr)
	from := fs.String("from", "", "the database to copy: a file path or a postgres:// URL")
	to := fs.String("to", "", "the new database, which must be empty: a file path (made) or a postgres:// URL")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *from == "" || *to == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: tessera migrate --from DATABASE --to DATABASE (each a file path or a postgres:// URL)")
		return 2
	}
	if sameDatabase(*from, *to) {
		fmt.Fprintf(stderr, "tessera: migrate: --from and --to are the same database (%s)\n", database.Redact(*to))
		return 2
	}
	ctx := context.Background()
	src, err := database.Open(ctx, *from, storage.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	if err != nil {
		fmt.Fprintln(stderr, "tessera: migrate:", err)
		if strings.Contains(err.Error(), "locked by another process") {
			fmt.Fprintln(stderr, "tessera: stop the bot first: migrate copies a database nobody is writing")
		}
		var nf *storage.NotFoundError
		if errors.As(err, &nf) {
			return 2
		}
		return 1
	}
	defer src.Close()
	if _, err := makeDatabaseFolder(*to); err != nil {
		fmt.Fprintln(stderr, "tessera: migrate:", err)
		return 1
	}
	dst, err := database.Open(ctx, *to, storage.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "tessera: migrate:", err)
		return 1
	}
	// A file made here and left empty by a refusal or a failure is removed,
	// so that running migrate again needs no cleaning up.
	madeFile := dst.Created() && !database.IsPostgres(*to)
	closeDst := func(remove bool) {
		dst.Close()
		if remove && madeFile {
			os.Remove(*to)
		}
	}
	srcD, ok1 := src.(storage.Dumper)
	dstD, ok2 := dst.(storage.Dumper)
	if !ok1 || !ok2 {
		closeDst(true)
		fmt.Fprintln(stderr, "tessera: migrate: this build cannot copy between these two kinds of database (storage.Dumper missing)")
		return 1
	}

	m := newMigration()
	err = dstD.Load(ctx, func(put func(storage.Record) error) error {
		return srcD.Dump(ctx, func(r storage.Record) error {
			m.add(r)
			return put(r)
		})
	})
	switch {
	case errors.Is(err, storage.ErrNotEmpty):
		closeDst(false)
		fmt.Fprintf(stderr, "tessera: migrate: %s is not empty: migrate copies into a new, empty database only (nothing was written)\n", database.Redact(*to))
		return 2
	case err != nil:
		closeDst(true)
		fmt.Fprintf(stderr, "tessera: migrate: copying failed, nothing was kept in %s: %v\n", database.Redact(*to), err)
		return 1
	}
	problems := m.verify(ctx, src, dst)
	closeDst(false)

	c := m.counts
	fmt.Fprintf(stdout, "copied %s to %s:\n", database.Redact(*from), database.Redact(*to))
	fmt.Fprintf(stdout, "  %s (last id %d), %s waiting (last seq %d), %s, %s, %s, %s, %s, %s (last id %d)\n",
		count(c["game"], "game", "games"), m.counters.LastGameID, count(c["announcement"], "announcement", "announcements"), m.counters.LastSeq,
		count(c["user"], "user", "users"), count(c["rating"], "rating", "ratings"), count(c["handled"], "handled interaction", "handled interactions"),
		count(c["guild"], "server's settings", "servers' settings"), count(c["secret"], "secret", "secrets"), count(c["event"], "event", "events"), m.counters.LastEventID)
	fmt.Fprintf(stdout, "  indexes compared: %s (their games and finished games), %s, %s open challenges and events, deadlines, events due, AI turns, the outbox's order\n",
		count(len(m.players), "player", "players"), count(len(m.channels), "channel or thread", "channels and threads"), count(len(m.guilds), "server's", "servers'"))
	if m.unplayable > 0 {
		does, copied := "do not replay", "they were copied as they are"
		if m.unplayable == 1 {
			does, copied = "does not replay", "it was copied as it is"
		}
		fmt.Fprintf(stdout, "  %s %s in the original either (tessera check --db %s says why); %s\n", count(m.unplayable, "game", "games"), does, database.Redact(*from), copied)
	}
	if len(problems) > 0 {
		for i, p := range problems {
			if i == 50 {
				fmt.Fprintf(stdout, "  ... and %d more\n", len(problems)-i)
				break
			}
			fmt.Fprintln(stdout, "  problem:", p)
		}
		fmt.Fprintf(stdout, "%s: %s: the copy differs from the original; do not use it (empty it before migrating again)\n", database.Redact(*to), count(len(problems), "problem", "problems"))
		return 1
	}
	fmt.Fprintf(stdout, "  every record is the same in both and every game replays identically\n")
	fmt.Fprintf(stdout, "%s: OK\n", database.Redact(*to))
	return 0
}

// sameDatabase reports whether two names are one database: the same
// string, or the same existing file under two names.
func sameDatabase(a, b string) bool {
	if a == b {
		return true
	}
	if database.IsPostgres(a) || database.IsPostgres(b) {
		return false
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// migration remembers what was copied, to check the copy against it:
// a digest of every record, a digest of every game's replayed position,
// and the players, channels and servers whose indexes to compare. Only
// digests are kept, 32 bytes a record, so that a million games' copy is
// checked in a few hundred megabytes; a position that differs is
// replayed again from the original to say how.
type migration struct {
	digests    map[string][32]byte
	positions  map[uint64][32]byte
	counts     map[string]int
	counters   storage.Counters
	players    map[string]bool
	channels   map[string]bool
	guilds     map[string]bool
	unplayable int
}

func newMigration() *migration {
	return &migration{digests: map[string][32]byte{}, positions: map[uint64][32]byte{}, counts: map[string]int{},
		players: map[string]bool{}, channels: map[string]bool{}, guilds: map[string]bool{}}
}

func (m *migration) add(r storage.Record) {
	m.digests[r.Key()] = sha256.Sum256([]byte(r.Canonical()))
	m.counts[r.Kind()]++
	switch {
	case r.Counters != nil:
		m.counters = *r.Counters
	case r.Game != nil:
		g := r.Game
		pos := replayedPosition(g)
		if strings.HasPrefix(pos, "does not replay") {
			m.unplayable++
		}
		m.positions[g.ID] = sha256.Sum256([]byte(pos))
		for _, p := range g.Players {
			m.players[p.ID] = true
		}
		m.channels[g.ChannelID] = true
		if g.ThreadID != "" {
			m.channels[g.ThreadID] = true
		}
		m.guilds[g.GuildID] = true
	case r.Event != nil:
		m.guilds[r.Event.GuildID] = true
	}
}

// replayedPosition is a game's replayed position as `tessera replay` prints it,
// or why it does not replay.
func replayedPosition(g *tessera.Game) (s string) {
	defer func() {
		// A record that makes a game's rules panic is compared, not a crash.
		if r := recover(); r != nil {
			s = fmt.Sprintf("does not replay: panic: %v", r)
		}
	}()
	st, err := service.Replay(g)
	if err != nil {
		return "does not replay: " + err.Error()
	}
	b, err := json.Marshal(summarize(g.Setup, st, len(g.Moves)))
	if err != nil {
		return "does not replay: " + err.Error()
	}
	return string(b)
}

// verify reads the copy back: every record, every game's position, and
// what each index answers, the same as in the original.
func (m *migration) verify(ctx context.Context, src, dst storage.Store) (problems []string) {
	seen := map[string]bool{}
	err := dst.(storage.Dumper).Dump(ctx, func(r storage.Record) error {
		k := r.Key()
		seen[k] = true
		if r.Counters != nil {
			if r.Counters.LastGameID < m.counters.LastGameID || r.Counters.LastSeq < m.counters.LastSeq || r.Counters.LastRatingSeq < m.counters.LastRatingSeq || r.Counters.LastEventID < m.counters.LastEventID {
				problems = append(problems, fmt.Sprintf("counters %+v in the copy are below the original's %+v: ids, message nonces, the ratings' order or event ids would be reused", *r.Counters, m.counters))
			}
			return nil
		}
		d, ok := m.digests[k]
		switch {
		case !ok:
			problems = append(problems, k+": in the copy only")
		case d != sha256.Sum256([]byte(r.Canonical())):
			problems = append(problems, k+": differs from the original")
		}
		if r.Game != nil {
			if pos := replayedPosition(r.Game); sha256.Sum256([]byte(pos)) != m.positions[r.Game.ID] {
				was := "(not in the original)"
				if g, err := src.Game(ctx, r.Game.ID); err == nil {
					was = replayedPosition(g)
				}
				problems = append(problems, fmt.Sprintf("%s replays to %s in the copy, to %s in the original", k, pos, was))
			}
		}
		return nil
	})
	if err != nil {
		return append(problems, "reading the copy: "+err.Error())
	}
	var missing []string
	for k := range m.digests {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	for _, k := range missing {
		problems = append(problems, k+": missing from the copy")
	}
	return append(problems, m.compareIndexes(ctx, src, dst)...)
}

// compareIndexes asks both databases every question the bot asks of its
// indexes and compares the answers.
func (m *migration) compareIndexes(ctx context.Context, src, dst storage.Store) (problems []string) {
	same := func(what string, ask func(s storage.Store) (any, error)) {
		a, errA := ask(src)
		b, errB := ask(dst)
		sa, sb := fmt.Sprint(a, errA), fmt.Sprint(b, errB)
		if sa != sb {
			problems = append(problems, fmt.Sprintf("%s: %s in the copy, %s in the original", what, sb, sa))
		}
	}
	for _, p := range sortedKeys(m.players) {
		same("games of player "+p, func(s storage.Store) (any, error) { return idsOf(s.ByPlayer(ctx, p)) })
		same("finished games of player "+p, func(s storage.Store) (any, error) {
			gs, _, err := s.Finished(ctx, p, nil, 0, len(m.positions)+1)
			return idsOf(gs, err)
		})
	}
	for _, c := range sortedKeys(m.channels) {
		same("games in channel "+c, func(s storage.Store) (any, error) { return idsOf(s.ByChannel(ctx, c)) })
	}
	for _, g := range sortedKeys(m.guilds) {
		same("open challenges in server "+g, func(s storage.Store) (any, error) { return idsOf(s.OpenChallenges(ctx, g)) })
		same("events of server "+g, func(s storage.Store) (any, error) {
			es, err := s.GuildEvents(ctx, g)
			ids := []uint64{}
			for _, e := range es {
				ids = append(ids, e.ID)
			}
			return ids, err
		})
	}
	same("all open challenges", func(s storage.Store) (any, error) {
		ids, err := idsOf(s.AllOpenChallenges(ctx))
		slices.Sort(ids)
		return ids, err
	})
	same("AI turns", func(s storage.Store) (any, error) { return s.AITurns(ctx) })
	never := time.Unix(1<<40, 0)
	same("deadlines", func(s storage.Store) (any, error) { return s.Due(ctx, never) })
	same("reminders", func(s storage.Store) (any, error) { return s.RemindersDue(ctx, never, m.counts["game"]+1) })
	same("events due", func(s storage.Store) (any, error) { return s.EventsDue(ctx, never) })
	same("next deadline", func(s storage.Store) (any, error) {
		t, err := s.NextDeadline(ctx)
		return t.UnixNano(), err
	})
	same("outbox", func(s storage.Store) (any, error) {
		p, err := s.Pending(ctx, never, m.counts["announcement"]+1)
		var seqs []uint64
		for _, a := range p {
			seqs = append(seqs, a.Seq)
		}
		return seqs, err
	})
	return problems
}

func idsOf(gs []*tessera.Game, err error) ([]uint64, error) {
	ids := []uint64{}
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	return ids, err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
