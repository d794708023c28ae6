package tournament

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// WriteTRF writes a two-player event as FIDE's tournament report file,
// TRF-16 (the form bbpPairings and JaVaFo read): "012" the name, "092"
// the format, "XXR" the rounds, "XXC" the first round's colour for the
// top seed (Swiss events), and one "001" line a player in seed order
// (start numbers 1, 2, ... as Seeded gives them), with the points, the
// rank (Standings) and each round's opponent, colour (w for seat 1, b
// for seat 2) and result (1, =, 0; + and - for a forfeit, the game not
// played). A round without a game is "0000 - " and its code: U the
// pairing-allocated bye (a win) in a Swiss event or a knockout, H a
// half-point bye, F a full-point bye, Z zero points (an absence, a round
// robin's bye, or a round the player was not paired in: withdrawn, out
// of a knockout). Only whole rounds are written: the file stops before
// the first round with a game in play. Names are written in ASCII ('?'
// for other letters), as the file's fixed columns count bytes.
func WriteTRF(w io.Writer, e Event) error { return writeTRF(w, e, false) }

// WriteTRF2026 writes the event as TRF-2026, the form FIDE's Technical
// Commission defined for the 2025 Dutch rules (bbpPairings v6 reads it):
// the same player lines as WriteTRF, with "142" the rounds, "152" the
// first round's colour (W or B), "192" the pairing system of a Swiss
// event paired by the 2025 rules (FIDE_DUTCH_2025; an event kept on the
// 2017 rules has no 192 line, as the format has no code for them), and
// one "240" line per kind of bye and round for the byes requested for
// rounds not yet paired ("240 H   4    3    7": players 3 and 7 asked
// for a half-point bye in round 4; a player withdrawn after the rounds
// written is listed with Z for the next round, so that a pairing
// program leaves them out).
func WriteTRF2026(w io.Writer, e Event) error { return writeTRF(w, e, true) }

func writeTRF(w io.Writer, e Event, v2026 bool) error {
	if e.seats() != 2 {
		return fmt.Errorf("tournament: a TRF holds two-player events, not tables of %d", e.seats())
	}
	if err := checkPlayers(e.Players); err != nil {
		return err
	}
	if err := checkRounds(e); err != nil {
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
	// Standings and points count only what is written.
	cut := e
	cut.Played = rounds
	st, err := Standings(cut)
	if err != nil {
		return err
	}
	rank := map[string]int{}
	for _, s := range st {
		rank[s.ID] = s.Rank
	}
	total := e.Rounds
	if total < len(rounds) {
		total = len(rounds)
	}
	roundRobin := e.Format == FormatRoundRobin || e.Format == FormatDoubleRoundRobin
	b := bufio.NewWriter(w)
	name := e.Name
	if name == "" {
		name = "Tessera event"
	}
	fmt.Fprintf(b, "012 %s\n", strings.TrimSpace(ascii(name, 80)))
	if e.Format != "" {
		fmt.Fprintf(b, "092 %s\n", e.Format)
	}
	white := firstColourWhite(e.Seed)
	switch {
	case !v2026:
		fmt.Fprintf(b, "XXR %d\n", total)
		if e.Format == FormatSwiss {
			fmt.Fprintf(b, "XXC %s1\n", map[bool]string{true: "white", false: "black"}[white])
		}
	default:
		fmt.Fprintf(b, "142 %d\n", total)
		if e.Format == FormatSwiss {
			fmt.Fprintf(b, "152 %s\n", map[bool]string{true: "W", false: "B"}[white])
			if e.PairingRules() == Dutch2025 {
				fmt.Fprintf(b, "192 FIDE_DUTCH_2025\n")
			}
		}
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
		points := 0.0
		for r := range rounds {
			res := cut.Result(p.ID, r+1)
			points += res.Points
			put(92+10*r, trfCell(res, start, roundRobin))
		}
		put(81, fmt.Sprintf("%4s", formatPoints(points)))
		put(86, fmt.Sprintf("%4d", rank[p.ID]))
		b.Write(bytes.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	if v2026 {
		writeByeLines(b, e, len(rounds), start)
	}
	return b.Flush()
}

// byeCode is TRF's letter for an absence's bye.
func byeCode(k ByeKind) byte {
	switch k {
	case ByeHalf:
		return 'H'
	case ByeFull:
		return 'F'
	}
	return 'Z'
}

// trfCell is one round of a player's line: opponent, colour, result.
func trfCell(r Result, start map[string]int, roundRobin bool) string {
	switch r.Kind {
	case KindGame, KindForfeitWin, KindForfeitLoss:
		code := map[Kind]string{KindForfeitWin: "+", KindForfeitLoss: "-"}[r.Kind]
		if code == "" {
			code = map[bool]string{true: "1", false: "0"}[r.Points == 1]
			if r.Points == 0.5 {
				code = "="
			}
		}
		return fmt.Sprintf("%4d %c %s", start[r.Opponents[0]], "wb"[r.Seat], code)
	case KindPairingBye:
		if roundRobin {
			return "0000 - Z"
		}
		return "0000 - U"
	case KindHalfBye:
		return "0000 - H"
	case KindFullBye:
		return "0000 - F"
	}
	return "0000 - Z" // a zero-point absence, withdrawn, or not in the round
}

// writeByeLines writes TRF-2026's 240 lines: the byes asked for rounds
// after the written ones, by round and kind, and the players withdrawn
// from the next round as absent from it.
func writeByeLines(b *bufio.Writer, e Event, written int, start map[string]int) {
	type key struct {
		round int
		code  byte
	}
	lists := map[key][]int{}
	var keys []key
	add := func(k key, n int) {
		if _, ok := lists[k]; !ok {
			keys = append(keys, k)
		}
		lists[k] = append(lists[k], n)
	}
	// Requests for rounds already paired but not yet whole are in those
	// rounds' Absent; for the next round they are requests.
	for r := written; r < len(e.Played); r++ {
		for _, a := range e.Played[r].Absent {
			add(key{r + 1, byeCode(a.Bye)}, start[a.ID])
		}
	}
	for _, rq := range e.Requests {
		if rq.Round > len(e.Played) {
			add(key{rq.Round, byeCode(rq.Bye)}, start[rq.ID])
		}
	}
	if written == len(e.Played) {
		for _, p := range Seeded(e.Players) {
			if p.Withdrawn && e.WithdrawnFrom(p.ID) <= written+1 {
				add(key{written + 1, 'Z'}, start[p.ID])
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].round != keys[j].round {
			return keys[i].round < keys[j].round
		}
		return keys[i].code < keys[j].code
	})
	for _, k := range keys {
		ns := lists[k]
		sort.Ints(ns)
		fmt.Fprintf(b, "240 %c %3d", k.code, k.round)
		for _, n := range ns {
			fmt.Fprintf(b, " %4d", n)
		}
		b.WriteByte('\n')
	}
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

// ReadTRF reads what WriteTRF and WriteTRF2026 write (and the same lines
// from other programs): the name, the format (092, as WriteTRF writes
// it), the rounds (XXR or 142), the pairing system (192: FIDE_DUTCH_2025
// or FIDE_DUTCH, the 2025 rules), the players' lines, and the byes
// asked for later rounds (240, as requests). A player's id is their
// start number ("1", "2", ...), their name is kept. Results 1, = and 0
// are games; + and - forfeits (a table marked Forfeited); U the
// pairing-allocated bye; H, F and Z absences with a half, full or zero
// point bye (Z is the bye in a round robin, and "not paired" in a
// knockout). The first round's colour (XXC, 152) is not read back into
// Seed.
func ReadTRF(r io.Reader) (Event, error) {
	var e Event
	type cell struct {
		opp    int
		colour byte
		result byte
	}
	lines := map[int][]cell{}
	var order []int
	var requests []ByeRequest
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	sc.Split(scanTRFLines)
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
			if strings.HasPrefix(rest, "FIDE_DUTCH") { // as bbpPairings writes it
				e.Format, e.Rules = FormatSwiss, Dutch2025
			}
		case "XXR", "142":
			v, err := strconv.Atoi(rest)
			if err != nil || v < 0 {
				return Event{}, fmt.Errorf("tournament: TRF line %d: %s %q is not a number of rounds", n, line[:3], rest)
			}
			e.Rounds = v
		case "192":
			switch rest {
			case "FIDE_DUTCH_2025", "FIDE_DUTCH":
				e.Rules = Dutch2025
			default:
				return Event{}, fmt.Errorf("tournament: TRF line %d: pairing system %q; Tessera pairs FIDE_DUTCH_2025", n, rest)
			}
		case "240":
			f := strings.Fields(line[3:])
			kinds := map[string]ByeKind{"H": ByeHalf, "Z": ByeZero, "F": ByeFull}
			if len(f) < 2 || kinds[f[0]] == "" {
				return Event{}, fmt.Errorf("tournament: TRF line %d: a 240 line is a bye (H, Z or F), a round and start numbers", n)
			}
			round, err := strconv.Atoi(f[1])
			if err != nil || round < 1 {
				return Event{}, fmt.Errorf("tournament: TRF line %d: round %q", n, f[1])
			}
			for _, v := range f[2:] {
				id, err := strconv.Atoi(v)
				if err != nil || id < 1 {
					return Event{}, fmt.Errorf("tournament: TRF line %d: start number %q", n, v)
				}
				requests = append(requests, ByeRequest{ID: strconv.Itoa(id), Round: round, Bye: kinds[f[0]]})
			}
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
				case opp > 0 && (c.colour == 'w' || c.colour == 'b') && strings.IndexByte("10=+-", c.result) >= 0:
				case opp > 0 && c.colour == '-' && strings.IndexByte("+-", c.result) >= 0:
				case opp == 0 && c.colour == '-' && strings.IndexByte("UHFZ", c.result) >= 0:
				default:
					return Event{}, fmt.Errorf("tournament: TRF line %d, round %d: %q is not a game (w/b and 1, = or 0), a forfeit (+ or -) nor a bye (0000 - U, H, F or Z)", n, len(cells)+1, strings.TrimSpace(f))
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
			// A round a line does not reach, or leaves blank, is a
			// player not in the round, which WriteTRF writes as
			// "0000 - Z": read as that, so that a file and the file
			// written from it read the same (FuzzReadTRF).
			c := cell{colour: '-', result: 'Z'}
			if r < len(lines[id]) && lines[id][r].colour != 0 {
				c = lines[id][r]
			}
			roundRobin := e.Format == FormatRoundRobin || e.Format == FormatDoubleRoundRobin
			if c.opp == 0 {
				pid := strconv.Itoa(id)
				switch {
				case c.result == 'U' || (c.result == 'Z' && roundRobin):
					rd.Byes = append(rd.Byes, pid)
				case c.result == 'Z' && e.Format == FormatKnockout: // not paired
				default:
					kind := map[byte]ByeKind{'H': ByeHalf, 'F': ByeFull, 'Z': ByeZero}[c.result]
					rd.Absent = append(rd.Absent, Absence{ID: pid, Bye: kind})
				}
				continue
			}
			other, ok := lines[c.opp]
			if !ok || r >= len(other) || other[r].opp != id || other[r].colour == 0 || (c.colour != '-' && other[r].colour == c.colour) {
				return Event{}, fmt.Errorf("tournament: TRF round %d: %d meets %d, whose line does not say so", r+1, id, c.opp)
			}
			forfeit := c.result == '+' || c.result == '-'
			want := map[byte]string{'1': "0", '0': "1", '=': "=", '+': "-", '-': "+-"}[c.result]
			if !strings.Contains(want, string(other[r].result)) || (c.colour == '-') != (other[r].colour == '-') {
				return Event{}, fmt.Errorf("tournament: TRF round %d: %d and %d disagree on their result", r+1, id, c.opp)
			}
			// The white player's line makes the table; a forfeit
			// without colours, the lower start number's.
			if c.colour == 'b' || (c.colour == '-' && id > c.opp) {
				continue
			}
			t := Table{Seats: []string{strconv.Itoa(id), strconv.Itoa(c.opp)}}
			switch {
			case !forfeit:
				t.Places = map[byte][]int{'1': {1, 2}, '0': {2, 1}, '=': {1, 1}}[c.result]
			case c.result == '+':
				t.Places, t.Forfeited = []int{1, 2}, []bool{false, true}
			case other[r].result == '+':
				t.Places, t.Forfeited = []int{2, 1}, []bool{true, false}
			default: // neither appeared
				t.Places, t.Forfeited = []int{1, 1}, []bool{true, true}
			}
			rd.Tables = append(rd.Tables, t)
		}
		e.Played = append(e.Played, rd)
	}
	for _, rq := range requests {
		if _, ok := lines[mustAtoi(rq.ID)]; !ok {
			return Event{}, fmt.Errorf("tournament: TRF: a bye is asked for start number %s, who has no line", rq.ID)
		}
		if rq.Round > len(e.Played) {
			e.Requests = append(e.Requests, rq)
		}
	}
	e.Seats = 2
	e.Rounds = max(e.Rounds, len(e.Played)) // as WriteTRF writes XXR
	return e, nil
}

// scanTRFLines splits a TRF at line feeds or carriage returns: FIDE's
// files end lines with CR LF, bbpPairings's with CR alone.
func scanTRFLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	for i, c := range data {
		if c == '\n' || c == '\r' {
			return i + 1, data[:i], nil
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
