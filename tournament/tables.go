package tournament

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
)

// SwissTables pairs the next round of an event of a game for three or
// four (Seats), Swiss fashion:
//
//   - The tables: as many full tables as the players fill; when the count
//     does not divide, smaller tables of the sizes in TableSizes (the
//     sizes the game allows), as few as will do, else byes for the rest.
//     The byes go to the players with the fewest byes so far, of them the
//     lowest ranked (by points, then seed), so no one has a second bye
//     while another has none.
//   - The players: ranked by points, then seed, and dealt to the tables
//     from the top, the best together and the smaller tables last; then
//     players are exchanged between tables, the nearest tables first,
//     while that lowers the number of pairs who already met; then, when
//     a repeat is left or someone's seats would drift 2 apart, a search
//     for the grouping of the fewest repeats and, of those, the fewest
//     players whose seats drift past 1 apart (fewestRepeats).
//   - The seats: players of equal points are exchanged between tables
//     when that lets the tables seat them more evenly and makes no
//     meeting a repeat; then at each table, the seating that keeps each
//     player's seats most even over the event (the fewest times anyone
//     sits where they have sat before, counted squared so that no one
//     player takes all the repeats), the higher ranked choosing first on
//     a tie.
//
// The played rounds must have their results. Withdrawn players are not
// seated, nor those who asked to sit the round out (Event.Requests):
// the round records them in Absent.
func SwissTables(e Event) (Round, error) {
	if err := checkPlayers(e.Players); err != nil {
		return Round{}, err
	}
	if err := checkRounds(e); err != nil {
		return Round{}, err
	}
	k := e.seats()
	if k < 2 {
		return Round{}, fmt.Errorf("tournament: tables of %d", k)
	}
	for _, s := range e.TableSizes {
		if s < 2 || s > k {
			return Round{}, fmt.Errorf("tournament: a table of %d in a game for %d", s, k)
		}
	}
	for r, rd := range e.Played {
		for _, t := range rd.Tables {
			if !t.Played() {
				return Round{}, fmt.Errorf("%w: round %d", ErrRoundOpen, r+1)
			}
		}
	}
	st, err := Standings(e)
	if err != nil {
		return Round{}, err
	}
	withdrawn := map[string]bool{}
	for _, p := range e.Players {
		withdrawn[p.ID] = p.Withdrawn
	}
	points := map[string]float64{}
	for _, s := range st {
		points[s.ID] = s.Points
	}
	// The players who asked to sit this round out are not seated; their
	// absence is recorded with what it scores.
	absent := e.requestedFor(len(e.Played) + 1)
	away := map[string]bool{}
	for _, a := range absent {
		away[a.ID] = true
	}
	var ranked []string // by points, then seed (not the standings' lot)
	for _, p := range Seeded(e.Players) {
		if !withdrawn[p.ID] && !away[p.ID] {
			ranked = append(ranked, p.ID)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return points[ranked[i]] > points[ranked[j]] })
	sizes, nByes := tableSizes(len(ranked), k, e.TableSizes)
	if len(sizes) == 0 {
		return Round{}, fmt.Errorf("%w: %d players cannot fill a table of %d", ErrTooFewPlayers, len(ranked), k)
	}

	h := readHistory(e)
	h.k = k
	// The byes: fewest byes so far, then the lowest ranked.
	rd := Round{Absent: absent}
	if nByes > 0 {
		order := append([]string(nil), ranked...)
		rank := map[string]int{}
		for i, id := range ranked {
			rank[id] = i
		}
		sort.SliceStable(order, func(i, j int) bool {
			a, b := order[i], order[j]
			if h.byes[a] != h.byes[b] {
				return h.byes[a] < h.byes[b]
			}
			return rank[a] > rank[b]
		})
		out := map[string]bool{}
		for _, id := range order[:nByes] {
			out[id] = true
		}
		var left []string
		for _, id := range ranked {
			if out[id] {
				rd.Byes = append(rd.Byes, id)
			} else {
				left = append(left, id)
			}
		}
		ranked = left
	}
	// Deal, then exchange to avoid repeats.
	var groups [][]string
	at := 0
	for _, size := range sizes {
		groups = append(groups, append([]string(nil), ranked[at:at+size]...))
		at += size
	}
	h.spread(groups)
	h.evenSeats(groups, points)
	if h.cost(groups) > 0 {
		if better, ok := h.fewestRepeats(ranked, sizes, groups); ok {
			groups = better
			h.evenSeats(groups, points)
		}
	}
	for _, g := range groups {
		rd.Tables = append(rd.Tables, Table{Seats: h.seat(g)})
	}
	return rd, nil
}

// tableSizes splits n players into tables of k, or of the allowed smaller
// sizes, with the fewest byes, then the most full tables, then the fewest
// tables; the full tables first.
func tableSizes(n, k int, allowed []int) (sizes []int, byes int) {
	ok := map[int]bool{k: true}
	for _, s := range allowed {
		ok[s] = true
	}
	var small []int // the allowed sizes below k, largest first
	for s := k - 1; s >= 2; s-- {
		if ok[s] {
			small = append(small, s)
		}
	}
	for byes = 0; byes <= n; byes++ {
		m := n - byes
		for full := m / k; full >= 0; full-- {
			if rest, found := fewest(m-full*k, small); found {
				if full == 0 && len(rest) == 0 {
					continue
				}
				for i := 0; i < full; i++ {
					sizes = append(sizes, k)
				}
				return append(sizes, rest...), byes
			}
		}
	}
	return nil, n
}

// fewest makes n from the fewest of these sizes (largest first), if it
// can be made.
func fewest(n int, sizes []int) ([]int, bool) {
	if n == 0 {
		return nil, true
	}
	best := -1
	var out []int
	var rec func(n, from int, cur []int)
	rec = func(n, from int, cur []int) {
		if n == 0 {
			if best < 0 || len(cur) < best {
				best = len(cur)
				out = append([]int(nil), cur...)
			}
			return
		}
		for i := from; i < len(sizes); i++ {
			if sizes[i] <= n {
				rec(n-sizes[i], i, append(cur, sizes[i]))
			}
		}
	}
	rec(n, 0, nil)
	return out, best >= 0
}

// history is what the played rounds say of each player.
type history struct {
	met   map[[2]string]int // how often two players sat together
	seats map[string][]int  // how often a player sat in each seat (from 0)
	byes  map[string]int
	k     int // the game's seats, over which a player's seats are kept even
}

func readHistory(e Event) *history {
	h := &history{met: map[[2]string]int{}, seats: map[string][]int{}, byes: map[string]int{}}
	for _, rd := range e.Played {
		for _, t := range rd.Tables {
			for i, a := range t.Seats {
				for len(h.seats[a]) <= i {
					h.seats[a] = append(h.seats[a], 0)
				}
				h.seats[a][i]++
				for _, b := range t.Seats[i+1:] {
					h.met[pairKey(a, b)]++
				}
			}
		}
		for _, id := range rd.Byes {
			h.byes[id]++
		}
	}
	return h
}

func pairKey(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// repeats counts the pairs at a table who met before.
func (h *history) repeats(g []string) int {
	n := 0
	for i, a := range g {
		for _, b := range g[i+1:] {
			n += h.met[pairKey(a, b)]
		}
	}
	return n
}

// spread exchanges players between tables while that lowers the repeats,
// trying the nearest tables first and, within them, the players nearest
// in rank, so the groups stay as close to the score order as they can.
func (h *history) spread(groups [][]string) {
	for pass := 0; pass < 50; pass++ {
		improved := false
		for dist := 1; dist < len(groups) && !improved; dist++ {
			for i := 0; i+dist < len(groups) && !improved; i++ {
				j := i + dist
				a, b := groups[i], groups[j]
				before := h.repeats(a) + h.repeats(b)
				if before == 0 {
					continue
				}
				// a's lowest with b's highest first.
				for x := len(a) - 1; x >= 0 && !improved; x-- {
					for y := 0; y < len(b) && !improved; y++ {
						a[x], b[y] = b[y], a[x]
						if h.repeats(a)+h.repeats(b) < before {
							improved = true
						} else {
							a[x], b[y] = b[y], a[x]
						}
					}
				}
			}
		}
		if !improved {
			return
		}
	}
}

// total is the repeated meetings of a grouping.
func (h *history) total(groups [][]string) int {
	n := 0
	for _, g := range groups {
		n += h.repeats(g)
	}
	return n
}

// tablesBudget bounds the search for the fewest repeats, in players
// tried at a seat: far more than the events a server holds need (a
// grouping without repeats is found among the first few), and a bound
// on a pathological event of hundreds of players late in its rounds,
// which then keeps the best grouping found so far.
const tablesBudget = 400000

// repeatCost weighs one repeated meeting above any unevenness of seats
// (a round has fewer than repeatCost players): the fewest repeats come
// first, then seats within 1.
const repeatCost = 1 << 16

// cost is what the grouping search minimises: the repeated meetings
// first, then by how much the players' seats drift past 1 apart at the
// best seating of each table.
func (h *history) cost(groups [][]string) int {
	n := 0
	for _, g := range groups {
		n += h.repeats(g)*repeatCost + h.unevenness(g)
	}
	return n
}

// unevenness is the least, over a table's seatings, of the sum of
// uneven: 0 when every player at it can keep their seats within 1.
func (h *history) unevenness(g []string) int {
	best := -1
	permute(len(g), func(order []int) {
		c := 0
		for s, i := range order {
			c += h.uneven(g[i], s)
			if best >= 0 && c >= best {
				return
			}
		}
		best = c
	})
	return best
}

// fewestRepeats searches every grouping of the ranked players into
// tables of these sizes for one of lower cost than start's: fewer
// repeated meetings, then seats kept within 1 for more players (the
// exchanges of spread and evenSeats can stop at a grouping no single
// exchange improves). Groupings are tried in rank order (the highest
// ranked player left opens the next table, its companions taken from
// the top down), so the first grouping of the least cost found is the
// one nearest the score order; a branch is cut as soon as its repeats,
// the unevenness of its full tables and the least unevenness the
// players left could have reach the best found. Within tablesBudget the
// result is the minimum (TestSwissTablesFewestRepeats compares with an
// exhaustive search); past it, the best found. It reports whether it
// found a grouping of less cost than start.
func (h *history) fewestRepeats(ranked []string, sizes []int, start [][]string) ([][]string, bool) {
	var best [][]string
	bestCost := h.cost(start)
	largest := slices.Max(sizes)
	left := make([]int, largest+1) // tables still to fill, by size
	var order []int                // the distinct sizes, as they come (largest first)
	for _, s := range sizes {
		if left[s] == 0 {
			order = append(order, s)
		}
		left[s]++
	}
	n := len(ranked)
	// By the players' index in ranked: who met whom, each one's uneven
	// in each seat, the least of it at a table of each size (a bound),
	// and the seats in which they stay within 1.
	met := make([][]int, n)
	unev := make([][]int, n)
	least := make([]int, n)
	at := make([][]int, largest+1)
	for s := range at {
		at[s] = make([]int, n)
	}
	fits := make([]int, n)
	bound := 0 // the players' least, summed
	for i, a := range ranked {
		met[i] = make([]int, n)
		for j, b := range ranked {
			met[i][j] = h.met[pairKey(a, b)]
		}
		unev[i] = make([]int, largest)
		for s := range unev[i] {
			unev[i][s] = h.uneven(a, s)
			if unev[i][s] == 0 {
				fits[i] |= 1 << s
			}
		}
		for size := 1; size <= largest; size++ {
			at[size][i] = slices.Min(unev[i][:size])
		}
		least[i] = at[largest][i]
		bound += least[i]
	}
	seatings := make([][][]int, largest+1)
	for _, size := range order {
		permute(size, func(o []int) { seatings[size] = append(seatings[size], slices.Clone(o)) })
	}
	// tableUneven is unevenness by index.
	tableUneven := func(table []int) int {
		least := -1
		for _, o := range seatings[len(table)] {
			c := 0
			for s, x := range o {
				c += unev[table[x]][s]
			}
			if least < 0 || c < least {
				least = c
			}
		}
		return least
	}
	used := make([]bool, n)
	// hall is a second bound: for any set of seats, the players left who
	// stay within 1 only in those seats, past the seats of that set at the
	// tables left, go past 1 (Hall's condition for seating everyone well).
	count := make([]int, 1<<largest)
	hall := func() int {
		clear(count)
		for i, u := range used {
			if !u && fits[i] != 0 {
				count[fits[i]]++
			}
		}
		worst := 0
		for set := 1; set < 1<<largest; set++ {
			players, seats := 0, 0
			for sub := set; sub > 0; sub = (sub - 1) & set {
				players += count[sub]
			}
			for size, k := range left {
				seats += k * bits.OnesCount(uint(set&(1<<size-1)))
			}
			worst = max(worst, players-seats)
		}
		return worst
	}
	// crowd is a bound at a table being filled: of its players who could
	// stay within 1, any set whose seats (of the table's) are fewer than
	// its players puts the rest past 1.
	crowd := func(table []int, size int) int {
		worst := 0
		for set := 1; set < 1<<len(table); set++ {
			union, players := 0, 0
			for x, i := range table {
				// (one who cannot stay within 1 here is counted in lb)
				if f := fits[i] & (1<<size - 1); set>>x&1 == 1 && f != 0 {
					union |= f
					players++
				}
			}
			worst = max(worst, players-bits.OnesCount(uint(union)))
		}
		return worst
	}
	var groups [][]int
	budget := tablesBudget
	done := func() bool { return bestCost <= bound || budget <= 0 }
	var open func(cost, lb int)
	var fill func(table []int, size, from, cost, lb int)
	// cost: the repeats so far and the unevenness of the full tables;
	// lb: the least of the players not yet at a full table (at the table
	// being filled, for its size).
	open = func(cost, lb int) {
		first := slices.Index(used, false)
		if first < 0 {
			if cost < bestCost {
				bestCost = cost
				best = make([][]string, len(groups))
				for i, g := range groups {
					for _, x := range g {
						best[i] = append(best[i], ranked[x])
					}
				}
			}
			return
		}
		for _, size := range order {
			if left[size] == 0 {
				continue
			}
			left[size]--
			used[first] = true
			fill([]int{first}, size, first+1, cost, lb+at[size][first]-least[first])
			used[first] = false
			left[size]++
			if done() {
				return
			}
		}
	}
	fill = func(table []int, size, from, cost, lb int) {
		if len(table) == size {
			for _, i := range table {
				lb -= at[size][i]
			}
			cost += tableUneven(table)
			if cost+lb >= bestCost || cost+lb+hall() >= bestCost {
				return
			}
			groups = append(groups, table)
			open(cost, lb)
			groups = groups[:len(groups)-1]
			return
		}
		for i := from; i < n && !done(); i++ {
			if used[i] {
				continue
			}
			budget--
			c := cost
			for _, o := range table {
				c += met[o][i] * repeatCost
			}
			l := lb + at[size][i] - least[i]
			if c+l >= bestCost {
				continue
			}
			next := append(table[:len(table):len(table)], i)
			if c+l+crowd(next, size) >= bestCost {
				continue
			}
			used[i] = true
			fill(next, size, i+1, c, l)
			used[i] = false
		}
	}
	if !done() && bound+hall() < bestCost {
		open(0, bound)
	}
	return best, best != nil
}

// evenSeats exchanges players of equal points between tables when that
// lets the tables seat them more evenly and meets no one again: the score
// groups and the repeats stay as they are, only who needs which seat
// moves. Players of neighbouring tables whose points differ are
// exchanged only when that keeps someone's seats within 1 (unevenCost):
// a small step from the score order for a seat that decides games.
func (h *history) evenSeats(groups [][]string, points map[string]float64) {
	for pass := 0; pass < 50; pass++ {
		improved := false
		for i := 0; i < len(groups) && !improved; i++ {
			for j := i + 1; j < len(groups) && !improved; j++ {
				a, b := groups[i], groups[j]
				before := h.seatCost(a) + h.seatCost(b)
				rep := h.repeats(a) + h.repeats(b)
				for x := range a {
					for y := range b {
						same := points[a[x]] == points[b[y]]
						if improved || (!same && j != i+1) {
							continue
						}
						a[x], b[y] = b[y], a[x]
						after := h.seatCost(a) + h.seatCost(b)
						// Players of equal points move for any gain;
						// of neighbouring tables' different points only
						// to keep someone's seats within 1.
						gain := after < before
						if !same {
							gain = after/unevenCost < before/unevenCost
						}
						if h.repeats(a)+h.repeats(b) <= rep && gain {
							improved = true
						} else {
							a[x], b[y] = b[y], a[x]
						}
					}
				}
			}
		}
		if !improved {
			return
		}
	}
}

// seatCost is the cost of a table's best seating (seat).
func (h *history) seatCost(g []string) int {
	_, c := h.bestSeating(g)
	return c
}

// seat orders a table's players: of all orders, the one whose players
// have sat least often in the seats it gives them (counted squared, so
// that the repeats are shared), the first in the players' order on a
// tie, so the higher ranked choose first.
func (h *history) seat(g []string) []string {
	best, _ := h.bestSeating(g)
	return best
}

func (h *history) bestSeating(g []string) ([]string, int) {
	// What each player costs in each seat, read once.
	m := len(g)
	each := make([]int, m*m)
	for i, id := range g {
		for s := range g {
			n := 0
			if s < len(h.seats[id]) {
				n = h.seats[id][s]
			}
			each[i*m+s] = (n+1)*(n+1) + unevenCost*h.uneven(id, s)
		}
	}
	best, bestCost := []string(nil), -1
	permute(len(g), func(order []int) {
		c := 0
		for s, i := range order {
			c += each[i*m+s]
		}
		if bestCost < 0 || c < bestCost {
			bestCost = c
			best = best[:0]
			for _, i := range order {
				best = append(best, g[i])
			}
		}
	})
	return best, bestCost
}

// unevenCost weighs a player's seats drifting apart past 1 above any
// squared count: keeping everyone's most and least used seats within 1
// comes first, sharing the repeats second.
const unevenCost = 1 << 20

// uneven is by how much more than 1 the player's most and least used
// seats (of the game's k) would differ after sitting in seat s.
func (h *history) uneven(id string, s int) int {
	k := max(h.k, s+1, len(h.seats[id]))
	lo, hi := -1, 0
	for x := 0; x < k; x++ {
		n := 0
		if x < len(h.seats[id]) {
			n = h.seats[id][x]
		}
		if x == s {
			n++
		}
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return max(0, hi-lo-1)
}

// permute calls f with every order of 0..n-1, in lexicographic order.
func permute(n int, f func([]int)) {
	order := make([]int, 0, n)
	used := make([]bool, n)
	var rec func()
	rec = func() {
		if len(order) == n {
			f(order)
			return
		}
		for i := 0; i < n; i++ {
			if !used[i] {
				used[i] = true
				order = append(order, i)
				rec()
				order = order[:len(order)-1]
				used[i] = false
			}
		}
	}
	rec()
}

// TableRoundRobin is the series of games for a group that fits one
// table: a Williams design, in which every player sits in every seat
// equally often and sits right after every other player equally often
// (the seat after a strong player is a seat of its own in games where
// one plays after another). For an even count that takes as many games
// as players (2 players: 2 games, seats swapped; 4 players: 4 games);
// for an odd count twice as many (3 players: 6 games, which are all six
// seatings: the 3 rotations alone would seat every player in every seat
// but always after the same player).
func TableRoundRobin(ids []string) ([]Round, error) {
	ps := make([]Player, len(ids))
	for i, id := range ids {
		ps[i] = Player{ID: id}
	}
	if err := checkPlayers(ps); err != nil {
		return nil, err
	}
	n := len(ids)
	if n < 2 {
		return nil, fmt.Errorf("%w: a table needs 2, got %d", ErrTooFewPlayers, n)
	}
	// The first row: 0, 1, n-1, 2, n-2, ...; the others add 1 mod n.
	first := []int{0}
	for lo, hi := 1, n-1; len(first) < n; {
		first = append(first, lo)
		lo++
		if len(first) < n {
			first = append(first, hi)
			hi--
		}
	}
	var rows [][]int
	for r := 0; r < n; r++ {
		row := make([]int, n)
		for i, x := range first {
			row[i] = (x + r) % n
		}
		rows = append(rows, row)
	}
	if n%2 == 1 {
		for r := 0; r < n; r++ {
			row := make([]int, n)
			for i := range row {
				row[i] = rows[r][n-1-i]
			}
			rows = append(rows, row)
		}
	}
	var out []Round
	for _, row := range rows {
		t := Table{}
		for _, i := range row {
			t.Seats = append(t.Seats, ids[i])
		}
		out = append(out, Round{Tables: []Table{t}})
	}
	return out, nil
}
