package service

import (
	"strings"
	"tessera/engine"
	_ "tessera/engine/elemental"
	"testing"
	"time"

	"tessera"
)

func TestParseClock(t *testing.T) {
	cases := map[string]tessera.Clock{
		"":                       {Kind: "none"},
		"none":                   {Kind: "none"},
		"3d":                     {Kind: "move", PerMove: 3 * day},
		"36h":                    {Kind: "move", PerMove: 36 * time.Hour},
		"1d12h":                  {Kind: "move", PerMove: 36 * time.Hour},
		"bank=7d,inc=1d,cap=14d": {Kind: "bank", Bank: 7 * day, Inc: day, Cap: 14 * day},
		"BANK=2d, inc=12h":       {Kind: "bank", Bank: 2 * day, Inc: 12 * time.Hour, Cap: 2 * day},
	}
	for in, want := range cases {
		got, err := ParseClock(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"3", "3x", "10m", "99d", "bank=7d,cap=1d", "bank=", "inc=1d", "bank=7d,foo=1d", "-3d"} {
		if _, err := ParseClock(bad); err == nil || tessera.ErrorCode(err) != tessera.EINVALID {
			t.Errorf("%q accepted (%v)", bad, err)
		}
	}
	if got := ClockText(tessera.Clock{Kind: "bank", Bank: 7 * day, Inc: day, Cap: 14 * day}); got != "a bank of 7d, +1d per move, at most 14d" {
		t.Fatalf("ClockText: %q", got)
	}
	if got := Span(2*day + 5*time.Hour + 10*time.Minute); got != "2d 5h" {
		t.Fatalf("Span: %q", got)
	}
}

func TestBankArithmetic(t *testing.T) {
	// A 2d bank, +1d per move, capped at 3d. Using 6h leaves 2d-6h+1d =
	// 2d18h; using 1h next leaves 2d18h-1h+1d = 3d17h, capped to 3d.
	g := &tessera.Game{Clock: tessera.Clock{Kind: "bank", Bank: 2 * day, Inc: day, Cap: 3 * day}, Banks: []time.Duration{2 * day, 2 * day}, Status: tessera.StatusPlaying}
	t0 := time.Unix(0, 0)
	startTurn(g, 0, t0, time.Time{})
	if !g.Deadline.Equal(t0.Add(2 * day)) {
		t.Fatalf("deadline %v", g.Deadline)
	}
	endTurn(g, 0, t0.Add(6*time.Hour))
	if g.Banks[0] != 2*day+18*time.Hour {
		t.Fatalf("bank %v, want 2d18h", g.Banks[0])
	}
	startTurn(g, 0, t0, time.Time{})
	endTurn(g, 0, t0.Add(time.Hour))
	if g.Banks[0] != 3*day {
		t.Fatalf("bank %v, want the 3d cap", g.Banks[0])
	}
	// A player away until t0+2d gets the turn: the clock starts then.
	startTurn(g, 1, t0, t0.Add(2*day))
	if !g.Deadline.Equal(t0.Add(4*day)) || g.Paused != 2*day {
		t.Fatalf("deadline %v paused %v", g.Deadline.Sub(t0), g.Paused)
	}
	endTurn(g, 1, t0.Add(2*day+time.Hour)) // 1h used after the vacation
	if g.Banks[1] != 3*day-time.Hour {
		t.Fatalf("bank %v, want 2d-1h+1d", g.Banks[1])
	}
}

func TestLooksLikeMove(t *testing.T) {
	for _, s := range []string{"d5 RGBY", "D5", "17 m13 90", "pass", "flip d4", "discard 17", "c3 c4 d4", "f5 NES*"} {
		if !looksLikeMove(s) {
			t.Errorf("%q is a move", s)
		}
	}
	for _, s := range []string{"good move!", "gg", "lol 5", "I'll play d5 later", "", "😀 d5", "hello there"} {
		if looksLikeMove(s) {
			t.Errorf("%q is chatter", s)
		}
	}
}

// FuzzParseClock: a clock is refused with one line, or it is within the
// stated bounds (nothing negative, nothing over 365 days, a time per move
// from 1h to 60d, a bank from 1h, a cap from the bank) and writes back as
// a spec that reads to the same clock.
func FuzzParseClock(f *testing.F) {
	for _, s := range []string{"3d", "bank=7d,inc=1d,cap=14d", "1.5d", "d", "bank==", ",,,", "9999999999999999999d",
		"bank=1d,inc=200000d", "bank=1d,inc=106751d", "0.0001m", "364.99999d", "1d23h60m", "bank=365d,inc=365d,cap=365d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseClock(s)
		if err != nil {
			if tessera.ErrorCode(err) != tessera.EINVALID || strings.Contains(tessera.ErrorMessage(err), "\n") {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		for _, d := range []time.Duration{c.PerMove, c.Bank, c.Inc, c.Cap} {
			if d < 0 || d > MaxSpan || d%time.Minute != 0 {
				t.Fatalf("%q: %+v has a duration out of bounds or not in whole minutes", s, c)
			}
		}
		switch c.Kind {
		case "none":
			if c != (tessera.Clock{Kind: "none"}) {
				t.Fatalf("%q: %+v", s, c)
			}
		case "move":
			if c.PerMove < MinPerMove || c.PerMove > MaxPerMove || c.Bank != 0 || c.Inc != 0 || c.Cap != 0 {
				t.Fatalf("%q: %+v", s, c)
			}
		case "bank":
			if c.Bank < MinBank || c.Cap < c.Bank || c.PerMove != 0 {
				t.Fatalf("%q: %+v", s, c)
			}
		default:
			t.Fatalf("%q: kind %q", s, c.Kind)
		}
		again, err := ParseClock(FormatClock(c))
		if err != nil || again != c {
			t.Fatalf("%q: %+v writes as %q, which reads as %+v (%v)", s, c, FormatClock(c), again, err)
		}
	})
}

func FuzzGameRef(f *testing.F) {
	for _, s := range []string{"12", "#12", "12 elemental", "", "x", "-1", "99999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := parseGameRef(s)
		if ok && id == 0 && !strings.Contains(s, "0") {
			t.Fatalf("%q gave id 0", s)
		}
	})
}

func FuzzLooksLikeMove(f *testing.F) {
	for _, s := range []string{"d5 RGBY", "gg", "pass all"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { looksLikeMove(s) })
}

func TestClockLine(t *testing.T) {
	st, err := ReplayN(&tessera.Game{Setup: engineSetup()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := &tessera.Game{Players: []tessera.Player{{Name: "Ana"}, {Name: "Bo"}},
		Clock:    tessera.Clock{Kind: "bank", Bank: 2 * day, Inc: day, Cap: 3 * day},
		Banks:    []time.Duration{2 * day, 36 * time.Hour},
		Deadline: time.Date(2026, 11, 24, 14, 0, 0, 0, time.UTC)}
	want := "Clock: Ana to move by Tue 24 Nov 14:00 UTC · banks: Ana 2d, Bo 1d 12h"
	if got := clockLine(g, st, 0); got != want {
		t.Fatalf("%q, want %q", got, want)
	}
	g.Clock = tessera.Clock{Kind: "none"}
	if got := clockLine(g, st, 0); got != "" {
		t.Fatalf("no clock: %q", got)
	}
}

func engineSetup() engine.Setup { return engine.Setup{Game: "elemental", Players: 2, Seed: 1} }

func TestMatches(t *testing.T) {
	yes := map[string]string{"d5 RGBY": "d5 rg", "c3 c4 d4": "c4 c3", "g8 h7": "g8 h", "17 m13 90": "17 m", "pass all": "pass a", "flip d4": "", "e6 NES*": "e6 nes"}
	for text, typed := range yes {
		if !matches(text, words(typed)) {
			t.Errorf("%q should fit %q", text, typed)
		}
	}
	no := map[string]string{"d5 RGBY": "d6", "c3 c4 d4": "c3 c3", "g8 h7": "h g8", "17 m13 90": "1 m13"}
	for text, typed := range no {
		if matches(text, words(typed)) {
			t.Errorf("%q should not fit %q", text, typed)
		}
	}
}

// TestOverflowedIncrementStored: a game stored before clocks were bounded
// may hold the overflowed increment of "inc=200000d" (about -2562047h). It
// counts as no increment: the mover keeps the bank less the time used,
// instead of losing on time at the next turn.
func TestOverflowedIncrementStored(t *testing.T) {
	g := &tessera.Game{Clock: tessera.Clock{Kind: "bank", Bank: day, Inc: time.Duration(-1 << 63), Cap: day}, Banks: []time.Duration{day, day}}
	t0 := time.Unix(0, 0)
	startTurn(g, 0, t0, time.Time{})
	endTurn(g, 0, t0.Add(time.Hour))
	if g.Banks[0] != day-time.Hour {
		t.Fatalf("bank %v, want 23h", g.Banks[0])
	}
}
