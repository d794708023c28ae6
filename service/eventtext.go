package service

// The words of a tournament: its post (with Join, Leave and Start while
// it takes entries), its thread's name, its announcements, the list, the
// standings and the pairings. The courier asks for these when it
// delivers an event's announcements.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/storage"
	"tessera/tournament"
)

// eventTitle is "**Spring Swiss** (#3)".
func eventTitle(e *tessera.Event) string {
	return fmt.Sprintf("**%s** (#%d)", e.Pairing.Name, e.ID)
}

// formatLabel is a format as players read it.
func formatLabel(f tournament.Format, tableSeries bool) string {
	switch f {
	case tournament.FormatRoundRobin:
		if tableSeries {
			return "Table Series"
		}
		return "Round Robin"
	case tournament.FormatDoubleRoundRobin:
		return "Double Round Robin"
	case tournament.FormatSwiss:
		return "Swiss"
	case tournament.FormatKnockout:
		return "Knockout"
	case tournament.FormatTables:
		return "Swiss Tables"
	}
	return string(f)
}

// eventStatusWord is "open", "running", "finished", "cancelled".
func eventStatusWord(e *tessera.Event) string { return string(e.Status) }

// formatText is the format and what it plays: "Swiss, 4 rounds",
// "Knockout, best of 3", "Swiss Tables of 3, 4 rounds", "Round Robin at
// one table".
func formatText(e *tessera.Event) string {
	p := e.Pairing
	text := formatLabel(p.Format, false)
	switch p.Format {
	case tournament.FormatSwiss, tournament.FormatTables:
		if p.Format == tournament.FormatTables {
			text += fmt.Sprintf(" of %d", p.Seats)
		}
		if p.Rounds > 0 {
			text += ", " + plural(p.Rounds, "round")
		} else {
			text += ", rounds to fit the players"
		}
	case tournament.FormatKnockout:
		if e.BestOf > 1 {
			text += fmt.Sprintf(", matches best of %d", e.BestOf)
		}
	case tournament.FormatRoundRobin:
		if p.Seats > 2 {
			text += fmt.Sprintf(" at one table of up to %d, every seating", p.Seats)
		}
	}
	return text
}

// entrantNames are the players, in entry (or seed) order, "(left)" after
// a withdrawn one.
func entrantNames(e *tessera.Event) []string {
	var out []string
	for _, p := range e.Pairing.Players {
		n := p.Name
		if p.Withdrawn {
			n += " (left)"
		}
		out = append(out, n)
	}
	return out
}

// EventPostMessage is the event's post as it stands: what it is, who
// entered, and while it is open the Join, Leave and Start buttons (the
// courier edits the post to it after every AnnounceEventStatus).
func (s *Service) EventPostMessage(e *tessera.Event) Message {
	lines := []string{fmt.Sprintf("🏆 %s: **%s**, %s, %s, %s.", eventTitle(e), gameName(e.Game), formatText(e), ClockText(e.Clock), eventRatedText(e))}
	if len(e.Options) > 0 {
		lines[0] = strings.TrimSuffix(lines[0], ".") + ", with " + strings.Join(e.Options, ", ") + "."
	}
	organiser := User{ID: e.Organiser, Name: e.Organiser} // the transport's mention names them
	if n := entrantNamesByID(e)[e.Organiser]; n != "" {
		organiser.Name = n
	}
	lines = append(lines, fmt.Sprintf("Organised by %s.", s.mention(organiser)))
	players := fmt.Sprintf("Players (%d", len(e.Pairing.Players))
	if e.Max > 0 && e.Status == tessera.EventOpen {
		players += fmt.Sprintf(" of at most %d", e.Max)
	}
	players += "): "
	if len(e.Pairing.Players) == 0 {
		players += "nobody yet."
	} else {
		players += clipTo(strings.Join(entrantNames(e), ", "), 1200) + "."
	}
	lines = append(lines, players)
	var m Message
	switch e.Status {
	case tessera.EventOpen:
		when := fmt.Sprintf("It starts when the organiser presses Start, with at least %s.", plural(e.Min, "player"))
		if !e.Starts.IsZero() {
			when = fmt.Sprintf("It starts %s (or earlier by Start), with at least %s.", StampToken(e.Starts, time.UTC), plural(e.Min, "player"))
		}
		lines = append(lines, when+" Click Join to enter.")
		m.Buttons = []Button{
			{ID: buttonID(actEventJoin, e.ID), Label: "Join", Style: Success},
			{ID: buttonID(actEventLeave, e.ID), Label: "Leave", Style: Secondary},
			{ID: buttonID(actEventStart, e.ID), Label: "Start", Style: Primary},
		}
	case tessera.EventRunning:
		lines = append(lines, fmt.Sprintf("Under way: %s. Standings and pairings in its thread, or /tournament standings.", roundText(e)))
	case tessera.EventFinished:
		lines = append(lines, "Finished. "+s.winnerLine(e))
	case tessera.EventCancelled:
		lines = append(lines, "Cancelled: "+e.Note+".")
		m.Buttons = nil
	}
	m.Text = strings.Join(lines, "\n")
	return m
}

func eventRatedText(e *tessera.Event) string {
	if e.Rated {
		return "rated"
	}
	return "unrated"
}

// roundText is "round 2 of 4" (or "round 2" when the count is not known).
func roundText(e *tessera.Event) string {
	n := len(e.Pairing.Played)
	total := e.Pairing.Rounds
	switch e.Pairing.Format {
	case tournament.FormatRoundRobin, tournament.FormatDoubleRoundRobin:
		return fmt.Sprintf("all %s at once", plural(n, "round"))
	case tournament.FormatKnockout:
		return fmt.Sprintf("round %d", n)
	}
	if total > 0 {
		return fmt.Sprintf("round %d of %d", n, total)
	}
	return fmt.Sprintf("round %d", n)
}

// progressText says how far the standings go: the last round of which
// every game is over, and the rounds still in play with the games they
// have left. "after round 1; round 2 in play (1 game left)" while round
// 2's last game is played, "after round 2 of 4" once it is over, "round
// 1 of 3 in play (2 games left)" before any round is. A round robin,
// whose rounds are all made at the start, may have several in play:
// "after round 1; rounds 2 to 5 in play (7 games left)".
func progressText(e *tessera.Event) string {
	played := e.Pairing.Played
	done := 0
	for done < len(played) && roundOver(played[done]) {
		done++
	}
	of := ""
	if e.Pairing.Rounds > 0 {
		of = fmt.Sprintf(" of %d", e.Pairing.Rounds)
	}
	if len(played) == 0 {
		return "round 1" + of + " in play"
	}
	if done == len(played) {
		return fmt.Sprintf("after round %d%s", done, of)
	}
	first, last, left := 0, 0, 0
	for r := done; r < len(played); r++ {
		for _, t := range played[r].Tables {
			if !t.Played() {
				if first == 0 {
					first = r + 1
				}
				last = r + 1
				left++
			}
		}
	}
	open := fmt.Sprintf("round %d", first)
	if last > first {
		open = fmt.Sprintf("rounds %d to %d", first, last)
	}
	games := fmt.Sprintf("(%s left)", plural(left, "game"))
	if done == 0 {
		if last == first {
			open += of
		}
		return open + " in play " + games
	}
	return fmt.Sprintf("after round %d; %s in play %s", done, open, games)
}

// roundOver reports whether every game of a round has its result.
func roundOver(rd tournament.Round) bool {
	for _, t := range rd.Tables {
		if !t.Played() {
			return false
		}
	}
	return true
}

// EventThreadName is the name of the event's thread.
func (s *Service) EventThreadName(e *tessera.Event) string {
	return clipTo(fmt.Sprintf("🏆 %s (#%d)", e.Pairing.Name, e.ID), 100)
}

// EventAnnouncement is an AnnounceEventPost's message: its text, pings,
// and the standings picture when a.Board.
func (s *Service) EventAnnouncement(e *tessera.Event, a tessera.Announcement) (Message, error) {
	m := Message{Text: a.Text, Mentions: a.Ping}
	if a.Board {
		f, err := s.StandingsPicture(e)
		if err != nil {
			return Message{}, err
		}
		if f.Name != "" {
			m.Files = []File{f}
		}
	}
	return m, nil
}

// EventMessage records the message that carries an event's post, posted
// in channelID: its buttons are edited there, and its thread starts from
// it.
func (s *Service) EventMessage(ctx context.Context, eventID uint64, channelID, messageID string) error {
	_, err := s.changeEvent(ctx, eventID, "", func(e *tessera.Event, tx storage.Tx) error {
		if e.MessageID != "" {
			return errSame
		}
		e.MessageID = messageID
		if channelID != "" {
			e.ChannelID = channelID
		}
		// The post may have changed before its id was known.
		return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventStatus})
	})
	if errors.Is(err, errSame) {
		err = nil
	}
	s.poke()
	return err
}

// errSame aborts a change that has nothing to do.
var errSame = errorf(tessera.EINVALID, "nothing to change")

// eventListLine is one event in /tournament list.
func eventListLine(e *tessera.Event) string {
	state := eventStatusWord(e)
	if e.Status == tessera.EventRunning {
		state = roundText(e)
	}
	return clipTo(fmt.Sprintf("#%d **%s**: %s, %s, %s, %s", e.ID, e.Pairing.Name, gameName(e.Game), formatText(e), plural(len(e.Pairing.Players), "player"), state), maxListLine+40)
}

// standingsLines are the standings as text: rank, player, points,
// tie-breaks and games played.
func standingsLines(e *tessera.Event) ([]string, error) {
	st, err := Standings(e)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, p := range e.Pairing.Players {
		names[p.ID] = p.Name
		if p.Withdrawn {
			names[p.ID] += " (left)"
		}
	}
	var out []string
	for _, x := range st {
		var tbs []string
		for _, tb := range x.TieBreaks {
			tbs = append(tbs, tb.Name+": "+pointsText(tb.Value))
		}
		out = append(out, fmt.Sprintf("%d. %s: %s (%s; %s)", x.Rank, names[x.ID], pointsWord(x.Points), strings.Join(tbs, ", "), plural(x.Games, "game")))
	}
	return out, nil
}

// pointsText is 3, 2.5, 0.5.
func pointsText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func pointsWord(f float64) string {
	if f == 1 {
		return "1 point"
	}
	return pointsText(f) + " points"
}

// EventStandings answers /tournament standings: the standings as text and
// as the picture.
func (s *Service) EventStandings(req Request, ref string) (Reply, error) {
	e, err := s.eventByRef(req, ref)
	if err != nil {
		return Reply{}, err
	}
	if e.Status == tessera.EventOpen {
		return Reply{}, errorf(tessera.EINVALID, "%s has not started; its post lists who has entered.", eventTitle(e))
	}
	lines, err := standingsLines(e)
	if err != nil {
		return Reply{}, err
	}
	progress := progressText(e)
	head := fmt.Sprintf("Standings of %s %s:", eventTitle(e), progress)
	if !strings.HasPrefix(progress, "after") {
		head = fmt.Sprintf("Standings of %s, %s:", eventTitle(e), progress)
	}
	if e.Status == tessera.EventFinished {
		head = fmt.Sprintf("Final standings of %s. %s", eventTitle(e), s.winnerLine(e))
	}
	text := clipTo(head+"\n"+strings.Join(lines, "\n"), 1990)
	r := Reply{Text: text, Ephemeral: true}
	f, err := s.StandingsPicture(e)
	if err != nil {
		return Reply{}, err
	}
	if f.Name != "" {
		r.Files = []File{f}
	}
	return r, nil
}

// EventPairings answers /tournament pairings: a round's tables with their
// players and results or games (round 0: the latest).
func (s *Service) EventPairings(req Request, ref string, round int) (Reply, error) {
	e, err := s.eventByRef(req, ref)
	if err != nil {
		return Reply{}, err
	}
	n := len(e.Pairing.Played)
	switch {
	case n == 0:
		return Reply{}, errorf(tessera.EINVALID, "%s has no pairings yet: it has not started.", eventTitle(e))
	case round < 0 || round > n:
		return Reply{}, errorf(tessera.EINVALID, "%s has %s so far; give round: from 1 to %d.", eventTitle(e), plural(n, "round"), n)
	case round == 0:
		round = n
		if e.Pairing.Format == tournament.FormatRoundRobin || e.Pairing.Format == tournament.FormatDoubleRoundRobin {
			round = s.firstOpenRound(e)
		}
	}
	links := map[uint64]string{}
	if round-1 < len(e.Games) {
		for _, id := range e.Games[round-1] {
			if g, err := s.store.Game(req.Context(), id); err == nil && g.ThreadID != "" {
				links[id] = LinkToken(g.GuildID, g.Place())
			}
		}
	}
	text := clipTo(s.pairingsText(e, round-1, links), 1990)
	return Reply{Text: text, Ephemeral: true}, nil
}

// firstOpenRound is a round robin's first round with a game in play (its
// last when every game is played), from 1.
func (s *Service) firstOpenRound(e *tessera.Event) int {
	for r, rd := range e.Pairing.Played {
		for _, t := range rd.Tables {
			if !t.Played() {
				return r + 1
			}
		}
	}
	return len(e.Pairing.Played)
}

// pairingsText is round r's tables (from 0): players by seat, and each
// table's result, or its game while it is played (with a link to its
// place when links has one).
func (s *Service) pairingsText(e *tessera.Event, r int, links map[uint64]string) string {
	names := entrantNamesByID(e)
	rd := e.Pairing.Played[r]
	lines := []string{fmt.Sprintf("**Round %d** of %s:", r+1, eventTitle(e))}
	for t, table := range rd.Tables {
		var seats []string
		for _, id := range table.Seats {
			seats = append(seats, names[id])
		}
		line := fmt.Sprintf("Table %d: %s", t+1, strings.Join(seats, " v "))
		var game uint64
		if r < len(e.Games) && t < len(e.Games[r]) {
			game = e.Games[r][t]
		}
		if table.Played() {
			pts := tournament.Points(table)
			var res []string
			for _, p := range pts {
				res = append(res, pointsText(p))
			}
			line += " · " + strings.Join(res, "–")
		} else {
			line += " · in play"
		}
		if game != 0 {
			line += fmt.Sprintf(" (game #%d)", game)
			if l := links[game]; l != "" {
				line += " " + l
			}
		}
		lines = append(lines, line)
	}
	if len(rd.Byes) > 0 {
		var byes []string
		for _, id := range rd.Byes {
			byes = append(byes, names[id])
		}
		lines = append(lines, fmt.Sprintf("Bye (%s): %s.", pointsWord(tournament.ByePoints(e.Pairing)), strings.Join(byes, ", ")))
	}
	return strings.Join(lines, "\n")
}

// winnerLine names the winner (of a knockout, the final's), or those who
// share first place.
func (s *Service) winnerLine(e *tessera.Event) string {
	names := entrantNamesByID(e)
	if e.Pairing.Format == tournament.FormatKnockout {
		if w := tournament.KnockoutWinner(e.Pairing, e.BestOf); w != "" {
			return fmt.Sprintf("Winner: **%s**.", names[w])
		}
	}
	st, err := Standings(e)
	if err != nil || len(st) == 0 {
		return ""
	}
	var first []string
	for _, x := range st {
		if x.Rank == 1 {
			first = append(first, "**"+names[x.ID]+"**")
		}
	}
	if len(first) == 1 {
		return "Winner: " + first[0] + "."
	}
	return "Sharing first place: " + joinAnd(first) + "."
}

// Standings are the event's standings (tournament.Standings). A
// knockout's match plays several games in one round, which the library
// reads as a player seated twice: each match's k-th game is counted in a
// round of its own (the round's byes with its first games), which gives
// the same points and tie-breaks. Pictures of the standings read them
// here.
func Standings(e *tessera.Event) ([]tournament.Standing, error) {
	return tournament.Standings(LibraryView(e))
}

// LibraryView is the event as the library's standings and TRF read it:
// as stored, except that each round of a knockout is split so that a
// match's k-th game is in a round of its own (the byes with the first
// games). Export a knockout's TRF from it.
func LibraryView(e *tessera.Event) tournament.Event {
	if e.Pairing.Format != tournament.FormatKnockout {
		return e.Pairing
	}
	v := e.Pairing
	v.Played = nil
	for _, rd := range e.Pairing.Played {
		var split []tournament.Round
		for t, table := range rd.Tables {
			k := 0 // the match's games before this one
			for _, before := range rd.Tables[:t] {
				if len(table.Seats) > 0 && slices.Contains(before.Seats, table.Seats[0]) {
					k++
				}
			}
			for len(split) <= k {
				split = append(split, tournament.Round{})
			}
			split[k].Tables = append(split[k].Tables, table)
		}
		if len(split) == 0 {
			split = append(split, tournament.Round{})
		}
		split[0].Byes = rd.Byes
		v.Played = append(v.Played, split...)
	}
	return v
}

// entrantNamesByID are the entrants' names by their ids.
func entrantNamesByID(e *tessera.Event) map[string]string {
	names := make(map[string]string, len(e.Pairing.Players))
	for _, p := range e.Pairing.Players {
		names[p.ID] = p.Name
	}
	return names
}
