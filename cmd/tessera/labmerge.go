package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"

	"tessera/lab"
)

// runLabMerge is `tessera lab merge`: the --json outputs of runs of one
// seed that played different games (--first) joined into one report, as if
// one run had played them all. With --compare runs, each file holds both
// option sets and each set is merged with its own.
func runLabMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lab merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write report.md, report.json and PNG pictures into this directory")
	asJSON := fs.Bool("json", false, "print the merged report, with every game's record, as JSON (a line per option set)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera lab merge [--out DIR] [--json] FILE...\n  FILE: the output of tessera lab --json; the runs differ only by --first and -n\n")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code // 0 for -h, 2 for a mistake
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	// sets[0] gathers the runs of the first option set met, sets[1] those
	// of the other (a --compare run's second line).
	var sets [2][]lab.Report
	for _, name := range fs.Args() {
		reps, err := readLabJSON(name)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		for _, r := range reps {
			switch {
			case len(sets[0]) == 0 || maps.Equal(sets[0][0].Config.Options, r.Config.Options):
				sets[0] = append(sets[0], r)
			case len(sets[1]) == 0 || maps.Equal(sets[1][0].Config.Options, r.Config.Options):
				sets[1] = append(sets[1], r)
			default:
				fmt.Fprintf(stderr, "%s: a third option set (%s): merge the runs of one comparison at a time\n", name, lab.OptionText(r.Config.Options))
				return 1
			}
		}
	}
	var merged []lab.Report
	for _, set := range sets {
		if len(set) == 0 {
			continue
		}
		m, err := lab.Merge(set...)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		merged = append(merged, m)
	}
	if len(merged) == 2 && len(merged[0].Records) != len(merged[1].Records) {
		fmt.Fprintf(stderr, "note: %d games under %s and %d under %s: the differences pair only the games both have\n",
			len(merged[0].Records), lab.OptionText(merged[0].Config.Options), len(merged[1].Records), lab.OptionText(merged[1].Config.Options))
	}
	if *out != "" {
		if err := checkWritableDir(*out); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		var b *lab.Report
		if len(merged) == 2 {
			b = &merged[1]
		}
		if err := writeLabReport(*out, lab.Analyze(merged[0], b), stderr); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	for _, r := range merged {
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(r); err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			continue
		}
		printLab(stdout, r, 0)
	}
	return 0
}

// readLabJSON reads the reports of one `tessera lab --json` output: one
// JSON document per option set.
func readLabJSON(name string) ([]lab.Report, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var reps []lab.Report
	for {
		var r lab.Report
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not the output of tessera lab --json: %v", name, err)
		}
		if r.Config.Game == "" {
			return nil, fmt.Errorf("%s: not the output of tessera lab --json (no game)", name)
		}
		reps = append(reps, r)
	}
	if len(reps) == 0 {
		return nil, fmt.Errorf("%s: empty: not the output of tessera lab --json", name)
	}
	return reps, nil
}
