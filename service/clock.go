package service

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"tessera"
)

const day = 24 * time.Hour

// The bounds of every duration a player or the configuration gives. They
// are checked on the numbers as typed, in their own unit, before anything
// is multiplied or added, so no value can overflow into a negative
// duration (an increment of 200000d once did: the mover lost on time).
const (
	MaxSpan    = 365 * day // no duration is longer
	MinPerMove = time.Hour // a move clock's time per move
	MaxPerMove = 60 * day
	MinBank    = time.Hour // a bank clock's starting bank
)

// errSpanSyntax and errSpanRange are parseSpan's two refusals: the text is
// not a duration, or it is one longer than MaxSpan.
var (
	errSpanSyntax = errors.New("not a duration")
	errSpanRange  = errors.New("longer than 365d")
)

// spanUnits are the units a duration is written in, in minutes.
var spanUnits = map[rune]int64{'d': 24 * 60, 'h': 60, 'm': 1}

// parseSpan reads "3d", "36h", "90m", "1.5d" or "1d12h" as a whole number
// of minutes (a fraction is rounded to the nearest minute), at most
// MaxSpan. Each number is compared with the bound in its own unit before
// it is converted, and the sum after every part, so nothing overflows.
func parseSpan(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, errSpanSyntax
	}
	const maxMinutes = int64(MaxSpan / time.Minute)
	var total int64 // minutes
	num := ""
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9' || r == '.':
			num += string(r)
			if len(num) > 40 {
				return 0, errSpanRange // more digits than any bounded value needs
			}
		case spanUnits[r] != 0:
			f, err := strconv.ParseFloat(num, 64)
			if err != nil || f < 0 {
				return 0, errSpanSyntax
			}
			per := spanUnits[r]
			if f > float64(maxMinutes/per) {
				return 0, errSpanRange
			}
			total += int64(math.Round(f * float64(per)))
			if total > maxMinutes {
				return 0, errSpanRange
			}
			num = ""
		default:
			return 0, errSpanSyntax
		}
	}
	if num != "" {
		return 0, errSpanSyntax
	}
	return time.Duration(total) * time.Minute, nil
}

// FormatSpan writes a duration as parseSpan reads it, exactly, in whole
// minutes ("1d12h30m", "0m"); a configuration can be written back with it.
func FormatSpan(d time.Duration) string {
	if d <= 0 {
		return "0m"
	}
	m := int64(d / time.Minute)
	var b strings.Builder
	for _, u := range []struct {
		unit rune
		per  int64
	}{{'d', 24 * 60}, {'h', 60}, {'m', 1}} {
		if n := m / u.per; n > 0 {
			fmt.Fprintf(&b, "%d%c", n, u.unit)
			m -= n * u.per
		}
	}
	return b.String()
}

// FormatClock writes a clock as ParseClock reads it.
func FormatClock(c tessera.Clock) string {
	switch c.Kind {
	case tessera.ClockMove:
		return FormatSpan(c.PerMove)
	case tessera.ClockBank:
		return fmt.Sprintf("bank=%s,inc=%s,cap=%s", FormatSpan(c.Bank), FormatSpan(c.Inc), FormatSpan(c.Cap))
	}
	return "none"
}

// ParseClock reads a time control: "none", "3d" (time per move, from 1h to
// 60d), or "bank=7d,inc=1d,cap=14d" (a Fischer-style bank: the bank from
// 1h to 365d, the increment from 0 to 365d, the cap from the bank to
// 365d; the cap is the bank when not given). The refusal says the bounds.
// The configuration's default clock is read with it too.
func ParseClock(spec string) (tessera.Clock, error) {
	spec = strings.ToLower(strings.TrimSpace(spec))
	if len(spec) > 100 {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: that is too long; write none, a time per move like 3d, or a bank like bank=7d,inc=1d,cap=14d", spec[:40]+"…")
	}
	bad := func() (tessera.Clock, error) {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: write none, a time per move like 3d, or a bank like bank=7d,inc=1d,cap=14d", spec)
	}
	outside := func(what, from, to string) (tessera.Clock, error) {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: %s is from %s to %s", spec, what, from, to)
	}
	switch {
	case spec == "" || spec == "none" || spec == "off":
		return tessera.Clock{Kind: tessera.ClockNone}, nil
	case !strings.Contains(spec, "="):
		d, err := parseSpan(spec)
		switch {
		case err == errSpanSyntax:
			return bad()
		case err != nil || d < MinPerMove || d > MaxPerMove:
			return outside("the time per move", "1h", "60d")
		}
		return tessera.Clock{Kind: tessera.ClockMove, PerMove: d}, nil
	}
	c := tessera.Clock{Kind: tessera.ClockBank}
	seen := map[string]bool{}
	for _, part := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, _ := strings.Cut(part, "=")
		if k != "bank" && k != "inc" && k != "cap" {
			return bad()
		}
		if seen[k] {
			return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: %s is given twice; give it once", spec, k)
		}
		seen[k] = true
		d, err := parseSpan(v)
		switch {
		case err == errSpanSyntax:
			return bad()
		case err != nil:
			return outside(k, map[string]string{"bank": "1h", "inc": "0", "cap": "the bank"}[k], "365d")
		}
		switch k {
		case "bank":
			c.Bank = d
		case "inc":
			c.Inc = d
		case "cap":
			c.Cap = d
		}
	}
	if !seen["bank"] {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: give the bank, like bank=7d,inc=1d,cap=14d", spec)
	}
	if c.Bank < MinBank {
		return outside("the bank", "1h", "365d")
	}
	if c.Cap == 0 {
		c.Cap = c.Bank
	}
	if c.Cap < c.Bank {
		return tessera.Clock{}, errorf(tessera.EINVALID, "clock %q: the cap is smaller than the bank; the cap is from the bank to 365d", spec)
	}
	return c, nil
}

// ClockText describes a clock ("3 days per move").
func ClockText(c tessera.Clock) string {
	switch c.Kind {
	case tessera.ClockMove:
		return Span(c.PerMove) + " per move"
	case tessera.ClockBank:
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
	case tessera.ClockMove:
		g.Deadline = from.Add(g.Clock.PerMove)
	case tessera.ClockBank:
		g.Deadline = from.Add(g.Banks[seat])
	default:
		g.Deadline = time.Time{}
	}
}

// endTurn charges the mover's bank for the time used and adds the
// increment (bank clocks).
func endTurn(g *tessera.Game, seat int, now time.Time) {
	if g.Clock.Kind != tessera.ClockBank || seat < 0 || seat >= len(g.Banks) {
		return
	}
	used := now.Sub(g.TurnStart) - g.Paused
	if used < 0 {
		used = 0
	}
	// A clock stored before durations were bounded may hold a negative
	// increment (an overflow): it counts as none rather than emptying
	// the bank.
	inc := max(g.Clock.Inc, 0)
	b := g.Banks[seat] - used + inc
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
