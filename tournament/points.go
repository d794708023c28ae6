package tournament

import (
	"fmt"
	"sort"
	"strconv"
)

// Points is what each seat of a played table scores, by finishing place:
// at a table of n the first scores n-1, the second n-2, ... the last 0,
// and players who share places share those places' points equally. For
// two players that is FIDE's 1, ½, 0; for three 2, 1, 0; for four
// 3, 2, 1, 0. Places may be written densely ([1 1 2]) or by competition
// ([1 1 3]): only their order counts. A seat that forfeited (did not
// appear) scores nothing, whatever its place, and at two players the
// other wins. It returns nil for a table
// without a result.
func Points(t Table) []float64 {
	if !t.Played() {
		return nil
	}
	n := len(t.Seats)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.Places[order[a]] < t.Places[order[b]] })
	out := make([]float64, n)
	for start := 0; start < n; {
		end := start + 1
		for end < n && t.Places[order[end]] == t.Places[order[start]] {
			end++
		}
		sum := 0
		for pos := start; pos < end; pos++ {
			sum += n - 1 - pos
		}
		for pos := start; pos < end; pos++ {
			out[order[pos]] = float64(sum) / float64(end-start)
		}
		start = end
	}
	for s := range out {
		switch {
		case t.forfeited(s):
			out[s] = 0
		case n == 2 && t.Forfeit():
			out[s] = 1 // the opponent did not appear: a win, whatever the places say
		}
	}
	return out
}

// ByePoints is what a bye scores in an event of this format: a win in a
// Swiss event or a knockout (FIDE's pairing-allocated bye), nothing in a
// round robin (every player has one, so it changes no order), and at
// Swiss tables the mean of a table's points, (n-1)/2, so that a bye
// neither wins nor loses ground on average.
func ByePoints(e Event) float64 {
	switch e.Format {
	case FormatRoundRobin, FormatDoubleRoundRobin:
		return 0
	case FormatTables:
		return float64(e.seats()-1) / 2
	default:
		return 1
	}
}

// checkRounds refuses tables that seat someone who is not entered, or a
// player twice in a round, or places that do not match the seats.
func checkRounds(e Event) error {
	known := make(map[string]bool, len(e.Players))
	for _, p := range e.Players {
		known[p.ID] = true
	}
	for r, rd := range e.Played {
		seen := map[string]bool{}
		place := func(id string) error {
			if !known[id] {
				return fmt.Errorf("tournament: round %d seats %q, who is not entered", r+1, id)
			}
			if seen[id] {
				return fmt.Errorf("tournament: round %d seats %q twice", r+1, id)
			}
			seen[id] = true
			return nil
		}
		for _, t := range rd.Tables {
			if len(t.Seats) < 2 {
				return fmt.Errorf("tournament: round %d has a table of %d", r+1, len(t.Seats))
			}
			if t.Places != nil && len(t.Places) != len(t.Seats) {
				return fmt.Errorf("tournament: round %d has a table of %d with %d places", r+1, len(t.Seats), len(t.Places))
			}
			if t.Forfeited != nil && len(t.Forfeited) != len(t.Seats) {
				return fmt.Errorf("tournament: round %d has a table of %d with %d forfeit marks", r+1, len(t.Seats), len(t.Forfeited))
			}
			for _, id := range t.Seats {
				if err := place(id); err != nil {
					return err
				}
			}
		}
		for _, id := range rd.Byes {
			if err := place(id); err != nil {
				return err
			}
		}
		for _, a := range rd.Absent {
			if a.Bye != ByeHalf && a.Bye != ByeZero && a.Bye != ByeFull {
				return fmt.Errorf("tournament: round %d gives %q a bye of kind %q", r+1, a.ID, a.Bye)
			}
			if err := place(a.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// formatPoints writes points as FIDE's files do: one decimal ("3.5").
func formatPoints(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
