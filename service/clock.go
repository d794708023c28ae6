package service

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tessera"
)

const day = 24 * time.Hour

// parseSpan reads "3d", "36h", "90m" or "1d12h".
func parseSpan(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, fmt.Errorf("empty")
	}
	var total time.Duration
	num := ""
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9' || r == '.':
			num += string(r)
		case r == 'd' || r == 'h' || r == 'm':
			f, err := strconv.ParseFloat(num, 64)
			if err != nil || f < 0 {
				return 0, fmt.Errorf("bad number")
			}
			unit := map[rune]time.Duration{'d': day, 'h': time.Hour, 'm': time.Minute}[r]
			total += time.Duration(f * float64(unit))
			num = ""
		default:
			return 0, fmt.Errorf("bad unit")
		}
	}
	if num != "" {
		return 0, fmt.Errorf("missing unit")
	}
	return total, nil
}

// ParseClock reads a time control: "none", "3d" (days per move), or
// "bank=7d,inc=1d,cap=14d" (a Fischer-style bank in days, with a cap).
func ParseClock(spec string) (tessera.Clock, error) {
	spec = strings.ToLower(strings.TrimSpace(spec))
	bad := func() (tessera.Clock, error) {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: write none, days per move like 3d, or a bank like bank=7d,inc=1d,cap=14d", spec)
	}
	switch {
	case spec == "" || spec == "none" || spec == "off":
		return tessera.Clock{Kind: "none"}, nil
	case !strings.Contains(spec, "="):
		d, err := parseSpan(spec)
		if err != nil || d < time.Hour || d > 60*day {
			return bad()
		}
		return tessera.Clock{Kind: "move", PerMove: d}, nil
	}
	c := tessera.Clock{Kind: "bank"}
	for _, part := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, _ := strings.Cut(part, "=")
		d, err := parseSpan(v)
		if err != nil || d > 365*day {
			return bad()
		}
		switch k {
		case "bank":
			c.Bank = d
		case "inc":
			c.Inc = d
		case "cap":
			c.Cap = d
		default:
			return bad()
		}
	}
	if c.Bank < time.Hour {
		return bad()
	}
	if c.Cap == 0 {
		c.Cap = c.Bank
	}
	if c.Cap < c.Bank {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: the cap is smaller than the bank", spec)
	}
	return c, nil
}

// ClockText describes a clock ("3 days per move").
func ClockText(c tessera.Clock) string {
	switch c.Kind {
	case "move":
		return Span(c.PerMove) + " per move"
	case "bank":
		return fmt.Sprintf("a bank of %s, +%s per move, at most %s", Span(c.Bank), Span(c.Inc), Span(c.Cap))
	}
	return "no clock"
}

// Span writes a duration in days and hours ("2d 5h", "40m").
func Span(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	days := int(d / day)
	hours := int((d % day) / time.Hour)
	switch {
	case days > 0 && hours > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case days > 0:
		return fmt.Sprintf("%dd", days)
	case hours > 0:
		return fmt.Sprintf("%dh", hours)
	}
	return fmt.Sprintf("%dm", int(d/time.Minute))
}

// startTurn gives the turn to seat at now: its deadline counts from the
// end of the player's vacation if they are away.
func startTurn(g *tessera.Game, seat int, now time.Time, away time.Time) {
	g.TurnStart, g.Paused, g.Reminded = now, 0, time.Time{}
	from := now
	if away.After(now) {
		from = away
		g.Paused = away.Sub(now)
	}
	switch g.Clock.Kind {
	case "move":
		g.Deadline = from.Add(g.Clock.PerMove)
	case "bank":
		g.Deadline = from.Add(g.Banks[seat])
	default:
		g.Deadline = time.Time{}
	}
}

// endTurn charges the mover's bank for the time used and adds the
// increment (bank clocks).
func endTurn(g *tessera.Game, seat int, now time.Time) {
	if g.Clock.Kind != "bank" || seat < 0 || seat >= len(g.Banks) {
		return
	}
	used := now.Sub(g.TurnStart) - g.Paused
	if used < 0 {
		used = 0
	}
	b := g.Banks[seat] - used + g.Clock.Inc
	if b > g.Clock.Cap {
		b = g.Clock.Cap
	}
	if b < 0 {
		b = 0
	}
	g.Banks[seat] = b
}

// timeLeft is the time left to the player to move.
func timeLeft(g *tessera.Game, now time.Time) (time.Duration, bool) {
	if g.Deadline.IsZero() || g.Status != tessera.StatusPlaying {
		return 0, false
	}
	return g.Deadline.Sub(now), true
}
