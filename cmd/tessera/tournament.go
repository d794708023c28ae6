package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"tessera"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
)

// tournamentUsage is `tessera tournament`'s help: its subcommands.
const tournamentUsage = `usage: tessera tournament list [--guild ID] [--db DB] [--config FILE]
       tessera tournament trf ID [--format 16|2026] [--db DB] [--config FILE]

  list   the database's tournaments: id, server, name, game, format, status, players
  trf    print a two-player tournament as FIDE's tournament report file (TRF-16,
         or TRF-2026 with --format 2026: byes, forfeits and the byes requested
         for rounds to come), for arbiters' tools (bbpPairings, JaVaFo); events
         at tables have none
`

// runTournament is `tessera tournament list|trf`: the database's
// tournaments, read only (a bbolt file is read while the bot is stopped;
// a PostgreSQL database at any time).
func runTournament(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, tournamentUsage)
		return 2
	}
	switch sub, rest := args[0], args[1:]; {
	case isHelp(sub):
		fmt.Fprint(stderr, tournamentUsage)
		return 0
	case sub == "list":
		return runTournamentList(rest, stdout, stderr, getenv)
	case sub == "trf":
		return runTournamentTRF(rest, stdout, stderr, getenv)
	default:
		fmt.Fprintf(stderr, "tessera: tournament: unknown subcommand %q\n%s", sub, tournamentUsage)
		return 2
	}
}

// openEvents opens the database read only for a tournament subcommand.
func openEvents(ctx context.Context, name, db string, stderr io.Writer) (storage.Store, bool) {
	st, err := database.Open(ctx, db, storage.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	if err != nil {
		fmt.Fprintf(stderr, "tessera: tournament %s: %v (is the bot running on this file? stop it first)\n", name, err)
		return nil, false
	}
	return st, true
}

func runTournamentList(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx := context.Background() // the subcommand's: it runs to its end
	var guild string
	fs, db, code, ok := dbFlagsWith("tournament list", args, stderr, getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&guild, "guild", "", "list only this server's tournaments (its id)")
	})
	if !ok {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "tessera: tournament list takes no arguments, not %q\n", strings.Join(fs.Args(), " "))
		return 2
	}
	st, ok := openEvents(ctx, "list", db, stderr)
	if !ok {
		return 2
	}
	defer st.Close()
	events, err := listEvents(ctx, st, guild)
	if err != nil {
		fmt.Fprintln(stderr, "tessera: tournament list:", err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSERVER\tNAME\tGAME\tFORMAT\tSTATUS\tPLAYERS\tROUNDS PAIRED")
	for _, e := range events {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", e.ID, e.GuildID, oneLine(e.Pairing.Name), e.Game, e.Pairing.Format, e.Status, len(e.Pairing.Players), len(e.Pairing.Played))
	}
	tw.Flush()
	fmt.Fprintln(stdout, count(len(events), "tournament", "tournaments"))
	return 0
}

// oneLine keeps a name (a player's choice) on its row of the table.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// errCounted stops a dump once its counters are read.
var errCounted = errors.New("counted")

// listEvents are one server's events, or with guild "" every event of
// the database (ids 1 to the last one given out), by id.
func listEvents(ctx context.Context, st storage.Store, guild string) ([]*tessera.Event, error) {
	if guild != "" {
		return st.GuildEvents(ctx, guild)
	}
	d, ok := st.(storage.Dumper)
	if !ok {
		return nil, fmt.Errorf("%T cannot list every server's tournaments; name one with --guild", st)
	}
	var last uint64
	err := d.Dump(ctx, func(r storage.Record) error {
		if r.Counters != nil {
			last = r.Counters.LastEventID
		}
		return errCounted // the counters come first: nothing else is read
	})
	if err != nil && !errors.Is(err, errCounted) {
		return nil, err
	}
	var out []*tessera.Event
	for id := uint64(1); id <= last; id++ {
		e, err := st.Event(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			continue // given out to a creation that was rolled back
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func runTournamentTRF(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx := context.Background()
	// The id may come before the flags (trf 3 --db x) or after them.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	var format string
	fs, db, code, ok := dbFlagsWith("tournament trf", args, stderr, getenv, func(fs *flag.FlagSet) {
		fs.StringVar(&format, "format", "16", "the file's format: 16 (TRF-16) or 2026 (TRF-2026, with the byes requested for rounds to come)")
	})
	if !ok {
		return code
	}
	if format != "16" && format != "2026" {
		fmt.Fprintf(stderr, "tessera: tournament trf: --format is 16 or 2026, not %q\n", format)
		return 2
	}
	if id == "" && fs.NArg() == 1 {
		id = fs.Arg(0)
	} else if fs.NArg() != 0 {
		id = ""
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(id, "#"), 10, 64)
	if err != nil || n == 0 {
		fmt.Fprintln(stderr, "tessera: tournament trf needs one tournament id, e.g. tessera tournament trf 3 (tessera tournament list shows them)")
		return 2
	}
	st, ok := openEvents(ctx, "trf", db, stderr)
	if !ok {
		return 2
	}
	defer st.Close()
	e, err := st.Event(ctx, n)
	if errors.Is(err, storage.ErrNotFound) {
		fmt.Fprintf(stderr, "tessera: tournament trf: there is no tournament #%d (tessera tournament list shows them)\n", n)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "tessera: tournament trf:", err)
		return 1
	}
	write := service.WriteTRF
	if format == "2026" {
		write = service.WriteTRF2026
	}
	if err := write(stdout, e); err != nil {
		fmt.Fprintln(stderr, "tessera: tournament trf:", err)
		return 1
	}
	return 0
}
