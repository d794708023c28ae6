// Command tessera runs the Tessera bot and its tools; `tessera help`
// lists the subcommands (the table below).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "tessera/engine/games"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand: its name, one line for the help, and what
// runs it (with the arguments after its name).
type command struct {
	name, summary string
	run           func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is every subcommand, in the order `tessera help` lists them.
// A new subcommand (ai, playouts, lab, ...) is one more line here: the
// dispatch and the help both come from this table.
var commands = []command{
	{"run", "run the bot (the default): on Discord when DISCORD_TOKEN is set, otherwise the local console if standard input is a terminal", func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return runBot(args, stdin, stdout, stderr, os.Getenv)
	}},
	{"console", "the local console: play every side of games at this terminal, or from a script on standard input", func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return runConsole(args, stdin, stdout, stderr, os.Getenv)
	}},
	{"replay", "replay a moves file and print the position as JSON (--png draws it)", runReplay},
	{"backup", "write a verified copy of the database to PATH (safe while the bot runs)", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runBackup(args, stdout, stderr, os.Getenv)
	}},
	{"check", "verify the database: its structure and that every game replays", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runCheck(args, stdout, stderr, os.Getenv)
	}},
	{"migrate", "copy every game and record into a new, empty database (a file or a postgres:// URL) and check the copy", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runMigrate(args, stdout, stderr)
	}},
	{"ratings", "compare the stored ratings with ones computed again from the finished games (--rebuild stores those)", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runRatings(args, stdout, stderr, os.Getenv)
	}},
	{"tournament", "the database's tournaments: list them, or print one as FIDE's tournament report file (trf ID)", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runTournament(args, stdout, stderr, os.Getenv)
	}},
	{"playouts", "how fast the engine plays uniformly random games from the start, on one core", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runPlayouts(args, stdout, stderr)
	}},
	{"ai", "replay a moves file and print the AI's move for the seat to move", runAI},
	{"analyze", "analyse a finished game's record (/export's JSON) as /analyze does and print each move's chances as JSON", runAnalyze},
	{"calibrate", "self-play games judged as /analyze judges them: how honest the win chances are (reliability in bins of 10%, Brier score) as JSON", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runCalibrate(args, stdout, stderr)
	}},
	{"lab", "play many games between AI levels and baselines and report each player's results", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runLab(args, stdout, stderr)
	}},
	{"load", "play many games at once through the service and courier on this machine only, and report moves stored and delivered per second as JSON", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runLoad(args, stdout, stderr)
	}},
	{"scale", "fill a database with N realistic finished games (scale fill) and time the everyday answers on it (scale measure)", func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return runScale(args, stdout, stderr)
	}},
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
		return commands[0].run(args, stdin, stdout, stderr) // flags of the default command
	}
	name, rest := args[0], args[1:]
	if isHelp(name) {
		printUsage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(rest, stdin, stdout, stderr)
		}
	}
	if near := nearestCommand(name); near != "" {
		fmt.Fprintf(stderr, "tessera: unknown command %q; did you mean %s?\n", name, near)
	} else {
		fmt.Fprintf(stderr, "tessera: unknown command %q\n", name)
	}
	printUsage(stderr)
	return 2
}

// nearestCommand is the subcommand a mistyped name most likely meant:
// within two letters typed wrong, missing, extra or swapped ("consle",
// "cosnole"), or of which it is the start ("migr"); "" when none is.
func nearestCommand(typed string) string {
	typed = strings.ToLower(typed)
	best, bestD := "", 3
	for _, c := range commands {
		if len(typed) >= 3 && strings.HasPrefix(c.name, typed) {
			return c.name
		}
		if d := editDistance(typed, c.name); d < bestD {
			best, bestD = c.name, d
		}
	}
	if bestD >= len(typed) { // "xy" is two edits from "ai": no likeness
		return ""
	}
	return best
}

// editDistance counts the letters typed wrong, missing or extra, and the
// neighbours swapped, that turn a into b (optimal string alignment).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: tessera [command] [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "help", "this text")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "`tessera COMMAND -h` lists a command's flags.")
}

// parseFlags parses a command's flags; help asked for (-h) is exit 0,
// a mistake exit 2, and ok false means return that code.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		return 0, false
	}
	return 2, false
}

// newFlagSet is a command's flag set, writing to out, whose help is
// commandUsage (a command with usage of its own sets Usage after).
func newFlagSet(name string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { commandUsage(fs) }
	return fs
}

// summaries are the commands' lines of help by name, for commandUsage
// (which the commands run, so it cannot read the table itself: the
// table's initialisation would refer to itself).
var summaries = map[string]string{}

func init() {
	for _, c := range commands {
		summaries[c.name] = c.summary
	}
}

// synopses are the arguments of the commands that take more than flags,
// for their help.
var synopses = map[string]string{
	"backup":        "[flags] PATH",
	"migrate":       "--from DATABASE --to DATABASE",
	"analyze --lab": "--game G [--players N] [-n GAMES] [--seed S] [--seats a,b] [--iterations N] [--workers W]",
}

// commandUsage is the help of a command that writes none of its own:
// how to call it, what it does (its line of the table), then its flags,
// where the flag package printed "Usage of run:".
func commandUsage(fs *flag.FlagSet) {
	w := fs.Output()
	args, ok := synopses[fs.Name()]
	if !ok {
		args = "[flags]"
	}
	fmt.Fprintf(w, "usage: tessera %s %s\n", fs.Name(), args)
	if about := summaries[fs.Name()]; about != "" {
		fmt.Fprintf(w, "\n%s.\n", strings.ToUpper(about[:1])+about[1:])
	}
	fmt.Fprintln(w, "\nflags:")
	fs.PrintDefaults()
}
