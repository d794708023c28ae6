package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/service"
)

// fuzzGame picks a registered game and a player count it allows without
// options (a one-player Knotwork is a puzzle, which needs puzzle=).
func fuzzGame(gi, players uint8) (engine.Game, int) {
	games := engine.Games()
	g := games[int(gi)%len(games)]
	n := g.MinPlayers + int(players)%(g.MaxPlayers-g.MinPlayers+1)
	for n < g.MaxPlayers {
		if _, err := engine.New(engine.Setup{Game: g.ID, Players: n, Seed: 1}); err == nil {
			break
		}
		n++
	}
	return g, n
}

// canonical replays a moves file like replay does and returns each
// applied line in the game's own notation (Move.String), one a line.
func canonical(setup engine.Setup, text string) (string, error) {
	st, err := engine.New(setup)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if st.Over() {
			return "", errors.New("over")
		}
		if strings.EqualFold(line, "resign") {
			st.Resign(st.ToMove())
			b.WriteString("resign\n")
			continue
		}
		m, err := st.Parse(line)
		if err != nil {
			return "", err
		}
		if _, err := st.Apply(m); err != nil {
			return "", err
		}
		b.WriteString(m.String() + "\n")
	}
	return b.String(), nil
}

// position is what replay prints, for comparing two replays.
func position(st engine.State, applied int) string {
	var hands []any
	for s := 0; s < st.Players(); s++ {
		hands = append(hands, handList(st.Hand(engine.Seat(s))))
	}
	b, _ := json.Marshal([]any{st.Over(), st.ToMove(), st.Scores(), st.Winners(), applied, hands, len(st.Legal())})
	return string(b)
}

// FuzzReplayMovesFile: a moves file that replays re-prints, line by line
// in canonical notation, as a file that replays to the same position;
// one that does not replay is refused with the line's number.
func FuzzReplayMovesFile(f *testing.F) {
	for _, p := range []string{"elemental", "closure", "glorieta", "knotwork", "tilingking"} {
		b, err := os.ReadFile(filepath.Join("../../docs/examples", p+".moves"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), uint8(0), uint64(1), string(b))
	}
	f.Add(uint8(1), uint8(0), uint64(7), "a1 RRRR\n  B1 bbbb \nresign\n")
	f.Add(uint8(0), uint8(1), uint64(3), "# x\n\n47 m13 90\nresign\nresign\n")
	f.Add(uint8(4), uint8(1), uint64(1), "d7 d8 e8\npass\n")
	games := engine.Games()
	f.Fuzz(func(t *testing.T, gi, players uint8, seed uint64, text string) {
		if len(text) > 1<<14 {
			return
		}
		g, n := fuzzGame(gi, players)
		// The example files' own game, when the text is one of them.
		for _, eg := range games {
			if strings.Contains(text, "--game "+eg.ID+" ") {
				g, n = eg, max(eg.MinPlayers, 2)
				if _, after, ok := strings.Cut(text, "--players "); ok && after != "" && after[0] >= '1' && after[0] <= '4' {
					if _, err := engine.New(engine.Setup{Game: eg.ID, Players: int(after[0] - '0'), Seed: 1}); err == nil {
						n = int(after[0] - '0')
					}
				}
			}
		}
		setup := engine.Setup{Game: g.ID, Players: n, Seed: seed}
		st, applied, err := replay(setup, strings.NewReader(text))
		if err != nil {
			var le *lineError
			if !errors.As(err, &le) || le.Line < 1 || !strings.Contains(le.Error(), fmt.Sprintf("line %d:", le.Line)) {
				if !strings.Contains(err.Error(), "token too long") {
					t.Fatalf("a refused file: %v", err)
				}
			}
			return
		}
		want := position(st, applied)
		canon, err := canonical(setup, text)
		if err != nil {
			t.Fatalf("replay accepted the file but a line-by-line replay did not: %v", err)
		}
		st2, applied2, err := replay(setup, strings.NewReader(canon))
		if err != nil {
			t.Fatalf("the canonical notation does not replay: %v\n%s", err, canon)
		}
		if got := position(st2, applied2); got != want {
			t.Fatalf("the canonical notation replays to another position:\n%s\n%s\n%s", got, want, canon)
		}
		if strings.Contains(want, "null") && !strings.Contains(want, "],null,") {
			// Winners may be null in this comparison; hands never.
			var v []any
			json.Unmarshal([]byte(want), &v)
			for _, h := range v[5].([]any) {
				if h == nil {
					t.Fatalf("a hand prints null: %s", want)
				}
			}
		}
	})
}

// FuzzReplayFlags: --option and --deck either refuse with one line and
// exit status 2 (1 for an illegal move), or print a new game in play
// with a seat, a score and a hand list per player, someone to move and
// at least one legal move; and the same flags print the same game again.
func FuzzReplayFlags(f *testing.F) {
	f.Add(uint8(1), uint8(0), "borders=RBGY", "RRRR,GGGG,BBBB,YYYY")
	f.Add(uint8(0), uint8(0), "first=1", "47,48,14,13")
	f.Add(uint8(0), uint8(1), "colors=GB", "99")
	f.Add(uint8(4), uint8(1), "board=hex", "I3")
	f.Add(uint8(1), uint8(2), "=", ",,,")
	f.Add(uint8(3), uint8(0), "x=y", "")
	dir := f.TempDir()
	empty := filepath.Join(dir, "empty.moves")
	os.WriteFile(empty, nil, 0o600)
	f.Fuzz(func(t *testing.T, gi, players uint8, option, deck string) {
		if strings.HasPrefix(option, "-") || strings.HasPrefix(deck, "-") {
			return // a flag's value that looks like a flag is the flag package's business
		}
		g, n := fuzzGame(gi, players)
		args := []string{"replay", "--game", g.ID, "--players", fmt.Sprint(n), "--option", option, "--deck", deck, empty}
		code, out, errs := runCmdF(args...)
		switch code {
		case 0:
		case 1, 2:
			if strings.TrimSpace(errs) == "" || strings.Count(strings.TrimSpace(errs), "\n") > 0 && !strings.Contains(errs, "usage") || out != "" {
				t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
			}
			return
		default:
			t.Fatalf("%v: exit %d", args, code)
		}
		var res struct {
			Game       string `json:"game"`
			Status     string `json:"status"`
			ToMove     int    `json:"to_move"`
			Moves      int    `json:"moves"`
			Scores     []int  `json:"scores"`
			LegalMoves int    `json:"legal_moves"`
			Hands      []any  `json:"hands"`
			Winners    []int  `json:"winners"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
		if res.Game != g.ID || res.Status != "playing" || res.Moves != 0 || res.ToMove < 1 || res.ToMove > n ||
			len(res.Scores) != n || len(res.Hands) != n || res.LegalMoves < 1 || res.Winners == nil {
			t.Fatalf("%v: %s", args, out)
		}
		for _, h := range res.Hands {
			if _, ok := h.([]any); !ok {
				t.Fatalf("%v: a hand is not a list: %s", args, out)
			}
		}
		if _, again, _ := runCmdF(args...); again != out {
			t.Fatalf("%v: two runs printed\n%s\n%s", args, out, again)
		}
	})
}

// runCmdF is runCmd for fuzz functions (no *testing.T needed).
func runCmdF(args ...string) (int, string, string) {
	var out, errb strings.Builder
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// FuzzConfig: a configuration that loads has every duration and count
// within its bounds, a valid log level and clock, and every
// defaults.options entry accepted by its game at every player count.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"database: x.db\nguild_id: \"123\"\ngames:\n  thread: false\ndefaults:\n  clock: 3d\n",
		"defaults:\n  options:\n    elemental: \"borders=RBGY\"\n    closure: \"first=2\"\n",
		"reminders:\n  after: 36h\nvacation:\n  days: 5\n",
		"vacation:\n  days: 0\n", "reminders:\n  after: -1h\n", "defaults:\n  clock: bank=1d,inc=200000d\n",
		"defaults:\n  options:\n    tilingking: \"board=hex\"\n", "log_level: debug\n", "",
	} {
		f.Add(s)
	}
	if b, err := os.ReadFile("../../config.example.yaml"); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, yaml string) {
		c, err := parseConfig([]byte(yaml), "fuzz.yaml", func(string) string { return "" })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config") {
				t.Fatalf("an error that does not say it is the configuration: %v", err)
			}
			return
		}
		after, err := time.ParseDuration(strings.TrimSpace(c.Reminders.After))
		if err != nil || after < time.Hour || after > 365*24*time.Hour {
			t.Fatalf("reminders.after %q loaded", c.Reminders.After)
		}
		if sc := c.serviceConfig(); sc.RemindAfter != after || sc.VacationDays != c.Vacation.Days {
			t.Fatalf("the service gets other values: %+v", sc)
		}
		if c.Vacation.Days < 1 || c.Vacation.Days > 365 {
			t.Fatalf("vacation.days %d loaded", c.Vacation.Days)
		}
		switch c.LogLevel {
		case "debug", "info", "warn", "error":
		default:
			t.Fatalf("log_level %q loaded", c.LogLevel)
		}
		clk, err := service.ParseClock(c.Defaults.Clock)
		if err != nil || clk.PerMove < 0 || clk.Bank < 0 || clk.Inc < 0 || clk.Cap < 0 || max(clk.PerMove, clk.Bank, clk.Inc, clk.Cap) > 365*24*time.Hour {
			t.Fatalf("defaults.clock %q loaded: %+v %v", c.Defaults.Clock, clk, err)
		}
		for id, v := range c.Defaults.Options {
			g, ok := engine.Lookup(id)
			if !ok {
				t.Fatalf("defaults.options has an unknown game %q", id)
			}
			opts, err := engine.ParseOptions(strings.Fields(v))
			if err != nil {
				t.Fatalf("defaults.options.%s %q loaded: %v", id, v, err)
			}
			for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
				if _, err := engine.New(engine.Setup{Game: id, Players: n, Seed: 99}); err != nil {
					continue // the count alone is refused (a one-player Knotwork needs a puzzle)
				}
				if _, err := engine.New(engine.Setup{Game: id, Players: n, Seed: 99, Options: opts}); err != nil {
					t.Fatalf("defaults.options.%s %q loaded but %d players are refused: %v", id, v, n, err)
				}
			}
		}
		if c.Database == "" {
			t.Fatal("an empty database path loaded")
		}
	})
}
