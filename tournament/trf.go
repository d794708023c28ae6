package tournament

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteTRF writes a two-player event as FIDE's tournament report file,
// TRF-16 (the form bbpPairings and JaVaFo read): "012" the name, "092"
// the format, "XXR" the rounds, "XXC" the first round's colour for the
// top seed (Swiss events), and one "001" line a player in seed order
// (start numbers 1, 2, ... as Seeded gives them), with the points, the
// rank (Standings) and each round's opponent, colour (w for seat 1, b
// for seat 2) and result (1, =, 0). A bye is "0000 - U" (the pairing-
// allocated bye, scored as a win) in a Swiss event or a knockout and
// "0000 - Z" (zero points) in a round robin; a player not paired in a
// round (withdrawn, or out of a knockout) is "0000 - Z" too. Only whole
// rounds are written: the file stops before the first round with a game
// in play. Names are written in ASCII ('?' for other letters), as the
// file's fixed columns count bytes.
func WriteTRF(w io.Writer, e Event) error {
	if e.seats() != 2 {
		return fmt.Errorf("tournament: a TRF holds two-player events, not tables of %d", e.seats())
	}
	st, err := Standings(e)
	if err != nil {
		return err
	}
	seeded := Seeded(e.Players)
	start := map[string]int{}
	for i, p := range seeded {
		start[p.ID] = i + 1
	}
	if len(seeded) > 9999 {
		return fmt.Errorf("tournament: a TRF holds 9999 players, not %d", len(seeded))
	}
	rounds := e.Played
	for i, rd := range rounds {
		if !roundPlayed(rd) {
			rounds = rounds[:i]
			break
		}
	}
	// Standings count only what is written.
	if len(rounds) != len(e.Played) {
		cut := e
		cut.Played = rounds
		if st, err = Standings(cut); err != nil {
			return err
		}
	}
	rank := map[string]Standing{}
	for _, s := range st {
		rank[s.ID] = s
	}
	total := e.Rounds
	if total < len(rounds) {
		total = len(rounds)
	}
	byeCode := byte('U')
	if e.Format == FormatRoundRobin || e.Format == FormatDoubleRoundRobin {
		byeCode = 'Z'
	}
	b := bufio.NewWriter(w)
	name := e.Name
	if name == "" {
		name = "Tessera event"
	}
	fmt.Fprintf(b, "012 %s\n", strings.TrimSpace(ascii(name, 80)))
	if e.Format != "" {
		fmt.Fprintf(b, "092 %s\n", e.Format)
	}
	fmt.Fprintf(b, "XXR %d\n", total)
	if e.Format == FormatSwiss {
		fmt.Fprintf(b, "XXC %s1\n", map[bool]string{true: "white", false: "black"}[firstColourWhite(e.Seed)])
	}
	for _, p := range seeded {
		line := bytes.Repeat([]byte{' '}, 91+10*len(rounds))
		put := func(at int, s string) { copy(line[at-1:], s) } // at: FIDE's 1-based column
		put(1, "001")
		put(5, fmt.Sprintf("%4d", start[p.ID]))
		pname := p.Name
		if pname == "" {
			pname = p.ID
		}
		put(15, ascii(pname, 33))
		put(49, fmt.Sprintf("%4d", min(max(p.Rating, 0), 9999)))
		put(81, fmt.Sprintf("%4s", formatPoints(rank[p.ID].Points)))
		put(86, fmt.Sprintf("%4d", rank[p.ID].Rank))
		for r, rd := range rounds {
			col := 92 + 10*r
			put(col, fmt.Sprintf("0000 - %c", 'Z'))
			for _, id := range rd.Byes {
				if id == p.ID {
					put(col, fmt.Sprintf("0000 - %c", byeCode))
				}
			}
			for _, t := range rd.Tables {
				for s, id := range t.Seats {
					if id != p.ID {
						continue
					}
					opp := t.Seats[1-s]
					result := map[int]string{-1: "1", 0: "=", 1: "0"}[sign(t.Places[s]-t.Places[1-s])]
					put(col, fmt.Sprintf("%4d %c %s", start[opp], "wb"[s], result))
				}
			}
		}
		b.Write(bytes.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	return b.Flush()
}

func roundPlayed(rd Round) bool {
	for _, t := range rd.Tables {
		if !t.Played() {
			return false
		}
	}
	return true
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// ascii keeps printable ASCII, writes '?' for the rest and cuts at width.
func ascii(s string, width int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == width {
			break
		}
		if r < 0x20 || r > 0x7e {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ReadTRF reads what WriteTRF writes (and the same lines from other
// programs): the name, the format (092, as WriteTRF writes it), the
// rounds (XXR), and the players' lines. A player's id is their start
// number ("1", "2", ...), their name is kept. Results 1, = and 0 are
// games; U and F are byes; Z is a bye in a round robin and "not paired"
// otherwise; forfeits (+, -) and half-point byes (H) are refused, as
// Tessera does not record them. The first round's colour (XXC) is not
// read back into Seed.
func ReadTRF(r io.Reader) (Event, error) {
	var e Event
	type cell struct {
		opp    int
		colour byte
		result byte
	}
	lines := map[int][]cell{}
	var order []int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if len(line) < 3 {
			continue
		}
		rest := ""
		if len(line) > 4 {
			rest = strings.TrimSpace(line[4:])
		}
		switch line[:3] {
		case "012":
			e.Name = rest
		case "092":
			e.Format = Format(rest)
		case "XXR":
			v, err := strconv.Atoi(rest)
			if err != nil || v < 0 {
				return Event{}, fmt.Errorf("tournament: TRF line %d: XXR %q is not a number of rounds", n, rest)
			}
			e.Rounds = v
		case "001":
			if len(line) < 84 {
				return Event{}, fmt.Errorf("tournament: TRF line %d: a player line of %d characters is too short", n, len(line))
			}
			id, err := strconv.Atoi(strings.TrimSpace(line[4:8]))
			if err != nil || id < 1 {
				return Event{}, fmt.Errorf("tournament: TRF line %d: start number %q", n, line[4:8])
			}
			if _, dup := lines[id]; dup {
				return Event{}, fmt.Errorf("tournament: TRF line %d: start number %d twice", n, id)
			}
			rating := 0
			if s := strings.TrimSpace(line[48:52]); s != "" {
				if rating, err = strconv.Atoi(s); err != nil || rating < 0 {
					return Event{}, fmt.Errorf("tournament: TRF line %d: rating %q", n, s)
				}
			}
			e.Players = append(e.Players, Player{ID: strconv.Itoa(id), Name: strings.TrimSpace(line[14:47]), Rating: rating})
			order = append(order, id)
			var cells []cell
			for at := 91; at < len(line); at += 10 {
				f := line[at:min(at+8, len(line))] + "        "
				if strings.TrimSpace(f) == "" {
					cells = append(cells, cell{})
					continue
				}
				opp, err := strconv.Atoi(strings.TrimSpace(f[:4]))
				if err != nil || opp < 0 {
					return Event{}, fmt.Errorf("tournament: TRF line %d, round %d: opponent %q", n, len(cells)+1, f[:4])
				}
				c := cell{opp: opp, colour: f[5], result: f[7]}
				if c.opp == id {
					return Event{}, fmt.Errorf("tournament: TRF line %d, round %d: the player meets themself", n, len(cells)+1)
				}
				switch {
				case opp > 0 && (c.colour == 'w' || c.colour == 'b') && strings.IndexByte("10=", c.result) >= 0:
				case opp == 0 && c.colour == '-' && strings.IndexByte("UFZ", c.result) >= 0:
				default:
					return Event{}, fmt.Errorf("tournament: TRF line %d, round %d: %q is not a game (w/b and 1, = or 0) nor a bye (0000 - U, F or Z); forfeits and half-point byes are not recorded", n, len(cells)+1, strings.TrimSpace(f))
				}
				cells = append(cells, c)
			}
			lines[id] = cells
		}
	}
	if err := sc.Err(); err != nil {
		return Event{}, err
	}
	// Keep the players in the file's order by start number, which is the
	// seed order when the file came from WriteTRF: ratings that tie keep it.
	sortInts(order)
	byID := map[string]Player{}
	for _, p := range e.Players {
		byID[p.ID] = p
	}
	e.Players = e.Players[:0]
	rounds := 0
	for _, id := range order {
		e.Players = append(e.Players, byID[strconv.Itoa(id)])
		rounds = max(rounds, len(lines[id]))
	}
	for r := 0; r < rounds; r++ {
		var rd Round
		for _, id := range order {
			if r >= len(lines[id]) {
				continue
			}
			c := lines[id][r]
			if c.colour == 0 {
				continue
			}
			if c.opp == 0 {
				if c.result != 'Z' || e.Format == FormatRoundRobin || e.Format == FormatDoubleRoundRobin {
					rd.Byes = append(rd.Byes, strconv.Itoa(id))
				}
				continue
			}
			other, ok := lines[c.opp]
			if !ok || r >= len(other) || other[r].opp != id || other[r].colour == c.colour || other[r].colour == 0 {
				return Event{}, fmt.Errorf("tournament: TRF round %d: %d meets %d, whose line does not say so", r+1, id, c.opp)
			}
			want := map[byte]byte{'1': '0', '0': '1', '=': '='}[c.result]
			if other[r].result != want {
				return Event{}, fmt.Errorf("tournament: TRF round %d: %d and %d disagree on their result", r+1, id, c.opp)
			}
			if c.colour != 'w' {
				continue // the white player's line makes the table
			}
			places := map[byte][]int{'1': {1, 2}, '0': {2, 1}, '=': {1, 1}}[c.result]
			rd.Tables = append(rd.Tables, Table{Seats: []string{strconv.Itoa(id), strconv.Itoa(c.opp)}, Places: places})
		}
		e.Played = append(e.Played, rd)
	}
	e.Seats = 2
	return e, nil
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
