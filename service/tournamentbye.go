package service

import (
	"context"
	"fmt"
	"strings"

	"tessera"
	"tessera/storage"
	"tessera/tournament"
)

// EventBye answers /tournament bye: the caller asks to sit out a round
// of a Swiss event not yet paired (round 0: the next one), with a
// half-point bye (kind "half" or "") or a zero-point absence ("zero"),
// within the limits the organiser set at new; cancel takes the request
// back. The pairing leaves them out of that round and the standings
// count it as C.07 says (docs/tournaments.md). A refusal says why and
// what may be asked instead.
func (s *Service) EventBye(req Request, ref string, round int, kind string, cancel bool) (Reply, error) {
	ctx := req.Context()
	e, err := s.eventByRef(req, ref)
	if err != nil {
		return Reply{}, err
	}
	var k tournament.ByeKind
	switch strings.ToLower(strings.TrimSpace(kind)) {
	case "", "half":
		k = tournament.ByeHalf
	case "zero":
		k = tournament.ByeZero
	default:
		return Reply{}, errorf(tessera.EINVALID, "A bye is kind:half (half a point) or kind:zero (no points).")
	}
	var text string
	_, err = s.changeEvent(ctx, e.ID, req.InteractionID, func(e *tessera.Event, tx storage.Tx) error {
		if !e.Active() {
			return errorf(tessera.EINVALID, "%s is %s; there is no round to sit out.", eventTitle(e), eventStatusWord(e))
		}
		r := round
		if r == 0 {
			r = len(e.Pairing.Played) + 1
		}
		name := req.User.Name
		if cancel {
			if !e.Pairing.CancelBye(req.User.ID, r) {
				return errorf(tessera.EINVALID, "You have no bye asked for round %d of %s (a round already paired cannot change); /tournament bye round: asks for one.", r, eventTitle(e))
			}
			text = fmt.Sprintf("You will be paired in round %d of %s after all.", r, eventTitle(e))
			return s.byePost(ctx, tx, e, fmt.Sprintf("%s will play round %d after all.", name, r))
		}
		if err := e.Pairing.RequestBye(req.User.ID, r, k); err != nil {
			return errorf(tessera.EINVALID, "%s", strings.TrimSpace(libraryWords(err)+". "+byeHint(e, req.User.ID)))
		}
		worth := map[tournament.ByeKind]string{tournament.ByeHalf: "a half-point bye", tournament.ByeZero: "a zero-point bye"}[k]
		text = fmt.Sprintf("You will sit out round %d of %s with %s (%s). %s Take it back before the round is paired with /tournament bye round:%d cancel:true.",
			r, eventTitle(e), worth, pointsWord(tournament.RequestedByePoints(e.Pairing, k)), byeHint(e, req.User.ID), r)
		return s.byePost(ctx, tx, e, fmt.Sprintf("%s will sit out round %d (%s).", name, r, worth))
	})
	if err != nil {
		return Reply{}, err
	}
	s.poke()
	return Reply{Text: text, Ephemeral: true}, nil
}

// byePost records the change and, once the event runs, says it in the
// event's thread.
func (s *Service) byePost(ctx context.Context, tx storage.Tx, e *tessera.Event, line string) error {
	e.Updated = s.now().UTC()
	if e.Status != tessera.EventRunning {
		return nil
	}
	return enqueueEvent(ctx, tx, e, tessera.Announcement{Kind: tessera.AnnounceEventPost, Text: line})
}

// byeHint says what byes the player has left to ask for.
func byeHint(e *tessera.Event, id string) string {
	p := e.Pairing
	if i := entrantIndex(e, id); i < 0 || p.Players[i].Withdrawn {
		return ""
	}
	switch p.Format {
	case tournament.FormatSwiss, tournament.FormatTables:
	default:
		return ""
	}
	left := func(k tournament.ByeKind, limit int) int {
		n := 0
		for _, rd := range p.Played {
			for _, a := range rd.Absent {
				if a.ID == id && a.Bye == k {
					n++
				}
			}
		}
		for _, r := range p.Requests {
			if r.ID == id && r.Bye == k && r.Round > len(p.Played) {
				n++
			}
		}
		return max(0, limit-n)
	}
	h, z := left(tournament.ByeHalf, p.MaxHalfByes), left(tournament.ByeZero, p.MaxZeroByes)
	until := ""
	if p.LastByeRound > 0 {
		until = fmt.Sprintf(", up to round %d", p.LastByeRound)
	}
	return fmt.Sprintf("You may still ask for %s and %s%s.", plural(h, "half-point bye"), plural(z, "zero-point bye"), until)
}
