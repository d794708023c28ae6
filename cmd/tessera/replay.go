package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"tessera/engine"
	"tessera/render"
)

// replayResult is the JSON printed by `tessera replay`.
type replayResult struct {
	Game       string `json:"game"`
	Status     string `json:"status"`
	ToMove     int    `json:"to_move"`
	Moves      int    `json:"moves"`
	Scores     []int  `json:"scores"`
	Winners    []int  `json:"winners"`
	LegalMoves int    `json:"legal_moves"`
	Hands      []any  `json:"hands"`
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// lineError is an illegal line of a moves file.
type lineError struct {
	Line int
	Move string
	Err  error
}

func (e *lineError) Error() string {
	return fmt.Sprintf("line %d: %q: %v", e.Line, e.Move, e.Err)
}

// runReplay is `tessera replay`: the engine's command-line interface.
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gf := addGameFlags(fs).withSeed(fs, "random seed").withDeck(fs)
	pngOut := fs.String("png", "", "also write the final board as a PNG to this file")
	record := fs.String("record", "", "play back a record file from /export instead of a moves file (no other setup flags)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tessera replay --game ID [--players N] [--seed S] [--option k=v]... [--deck a,b,...] [--png FILE] MOVES_FILE|-\n       tessera replay --record FILE [--png FILE]\n(flags may also follow the file name)\n")
		fs.PrintDefaults()
	}
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if *record != "" {
		if len(files) != 0 || *gf.game != "" || len(gf.options) > 0 || *gf.deck != "" {
			fmt.Fprintln(stderr, "replay: --record takes the setup from the record: give no moves file, --game, --option or --deck")
			return 2
		}
		st, setup, applied, err := replayRecord(*record)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return printReplay(setup, st, applied, *pngOut, stdout, stderr)
	}
	if len(files) != 1 || *gf.game == "" {
		fs.Usage()
		return 2
	}
	setup, err := gf.setup()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	st, applied, code := replayFile(setup, files[0], stdin, stderr)
	if code != 0 {
		return code
	}
	return printReplay(setup, st, applied, *pngOut, stdout, stderr)
}

// printReplay prints the position's JSON (and draws it with --png).
func printReplay(setup engine.Setup, st engine.State, applied int, pngOut string, stdout, stderr io.Writer) int {
	res := summarize(setup, st, applied)
	if pngOut != "" {
		g, _ := engine.Lookup(setup.Game)
		png, err := render.Board(st.Board(), render.NewPanel(g.Name+" · replay", st.View(engine.NoSeat), nil))
		if err == nil {
			err = os.WriteFile(pngOut, png, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
	}
	enc := json.NewEncoder(stdout)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	return 0
}

// summarize is the position after applied moves as replay prints it
// (migrate compares two databases' games by it too).
func summarize(setup engine.Setup, st engine.State, applied int) replayResult {
	res := replayResult{Game: setup.Game, Status: "playing", Moves: applied, Scores: st.Scores(), Winners: []int{}, Hands: []any{}}
	if st.Over() {
		res.Status = "finished"
		for _, w := range st.Winners() {
			res.Winners = append(res.Winners, int(w)+1)
		}
	} else {
		res.ToMove = int(st.ToMove()) + 1
		res.LegalMoves = len(st.Legal())
	}
	for s := 0; s < st.Players(); s++ {
		res.Hands = append(res.Hands, handList(st.Hand(engine.Seat(s))))
	}
	return res
}

// handList is a seat's hand for the JSON: an empty hand is [], never
// null (a game's Hand may return a nil slice once the supply is gone).
func handList(h any) any {
	if h == nil {
		return []any{}
	}
	if v := reflect.ValueOf(h); (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		return []any{}
	}
	return h
}

// parseInterleaved parses flags that may come before and after the
// positional arguments ("replay game.moves --seed 7"), which the flag
// package alone stops at; after "--" everything is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// replay plays a moves file: one move per line, blank lines and lines
// starting with # skipped, "resign" (engine.ResignEntry) resigning the player to move.
func replay(setup engine.Setup, in io.Reader) (engine.State, int, error) {
	st, err := engine.New(setup)
	if err != nil {
		return nil, 0, err
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	applied := 0
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if st.Over() {
			return nil, 0, &lineError{n, line, errors.New("the game is already over")}
		}
		if strings.EqualFold(line, engine.ResignEntry) {
			st.Resign(st.ToMove())
			applied++
			continue
		}
		m, err := st.Parse(line)
		if err == nil {
			_, err = st.Apply(m)
		}
		if err != nil {
			return nil, 0, &lineError{n, line, err}
		}
		applied++
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	return st, applied, nil
}

func gameIDs() string {
	var ids []string
	for _, g := range engine.Games() {
		ids = append(ids, g.ID)
	}
	return strings.Join(ids, ", ")
}

// replayFile replays a moves file (name "-" is stdin) and returns the
// position and the number of moves applied, or the exit status and its message on
// stderr: 1 for an illegal line (named with its number), 2 for anything
// else. `replay` and `ai` read their files this way.
func replayFile(setup engine.Setup, name string, stdin io.Reader, stderr io.Writer) (engine.State, int, int) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return nil, 0, 2
		}
		defer f.Close()
		in = f
	}
	st, applied, err := replay(setup, in)
	if err != nil {
		var le *lineError
		if errors.As(err, &le) {
			fmt.Fprintln(stderr, le.Error())
			return nil, 0, 1
		}
		fmt.Fprintln(stderr, err)
		return nil, 0, 2
	}
	return st, applied, 0
}
