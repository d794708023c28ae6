package service

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"tessera"
	"tessera/engine"
)

// MaxChoices is Discord's limit on autocomplete choices.
const MaxChoices = 25

// words splits notation into lower-case words (spaces and commas).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// legalMoves builds (once per position) the mover's legal moves with their
// notation and what each gains, those that gain most first: a Gainer's
// words and rank, or a Previewer's points; without either, in the game's
// own order.
func (p *position) legalMoves() []legalMove {
	p.once.Do(func() {
		st := p.state
		moves := st.Legal() // one per position already: no dedupe needed
		// Moves a game accepts but does not list (a voluntary pass, a
		// puzzle's undo).
		for _, extra := range []string{"pass", "pass all", "undo"} {
			if m, err := st.Parse(extra); err == nil && !slices.ContainsFunc(moves, func(l engine.Move) bool { return l.String() == m.String() }) {
				moves = append(moves, m)
			}
		}
		p.legal = make([]legalMove, len(moves))
		for i, m := range moves {
			p.legal[i] = legalMove{move: m, text: m.String()}
		}
		if g, ok := st.(engine.Gainer); ok {
			for i, gain := range g.Gains(moves) {
				p.legal[i].points, p.legal[i].gain = gain.Rank, gain.Text
			}
		} else if prev, ok := st.(engine.Previewer); ok {
			for i := range p.legal {
				for _, d := range prev.Preview(p.legal[i].move) {
					if d.Seat == st.ToMove() {
						p.legal[i].points += d.Points
					}
				}
				p.legal[i].gain = fmt.Sprintf("%+d", p.legal[i].points)
			}
		}
		sort.SliceStable(p.legal, func(i, j int) bool { return p.legal[i].points > p.legal[j].points })
	})
	return p.legal
}

// matches reports whether a move's notation fits what the player typed:
// every typed word but the last is one of the move's words, and the last
// typed word starts one of them (so "c4 c3" finds "c3 c4 d4", and "d5 RG"
// finds "d5 RGBY"). Case does not matter. It allocates nothing: it runs on
// every legal move at every keystroke.
func matches(text string, typed []string) bool {
	var used uint64
	for i, w := range typed {
		last := i == len(typed)-1
		found := false
		k := 0
		for rest := text; rest != "" && !found; k++ {
			rest = strings.TrimLeft(rest, " ,")
			end := strings.IndexAny(rest, " ,")
			if end < 0 {
				end = len(rest)
			}
			tok := rest[:end]
			rest = rest[end:]
			if tok == "" || k < 64 && used&(1<<k) != 0 {
				continue
			}
			if strings.EqualFold(tok, w) || last && len(tok) >= len(w) && strings.EqualFold(tok[:len(w)], w) {
				if k < 64 {
					used |= 1 << k
				}
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// MoveChoices suggests the caller's legal moves that fit what they typed,
// at most 25, those that gain most first, each with what it gains ("d5
// RGBY (+4)", "c3 c4 d4 (+5: covers 3, captures 2 cells)"). When the caller
// cannot move, a single choice says why.
func (s *Service) MoveChoices(req Request, ref, typed string) []Choice {
	g, p, seat, err := s.playable(req, ref, true)
	if err != nil {
		return hint(tessera.ErrorMessage(err))
	}
	if to := p.state.ToMove(); int(to) != seat {
		return hint(fmt.Sprintf("It is %s's turn in game #%d.", g.Players[to].Name, g.ID))
	}
	tw := words(typed)
	var out []Choice
	legal := p.legalMoves()
	for i := range legal {
		lm := &legal[i]
		if !matches(lm.text, tw) {
			continue
		}
		name := lm.text
		if lm.gain != "" {
			name = fmt.Sprintf("%s (%s)", lm.text, lm.gain)
		}
		out = append(out, Choice{Name: clip(name), Value: clip(lm.text)})
		if len(out) == MaxChoices {
			break
		}
	}
	if len(out) == 0 && len(tw) > 0 {
		return hint("No legal move starts like that; clear it to see your moves.")
	}
	return out
}

// hint is a single choice that explains; picking it gives a clear error.
func hint(msg string) []Choice { return []Choice{{Name: clip(msg), Value: "?"}} }

func clip(s string) string {
	if len(s) <= 100 {
		return s
	}
	r := []rune(s)
	for len(string(r)) > 99 {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// GameChoices suggests the caller's games in play for a game: option.
func (s *Service) GameChoices(req Request, typed string) []Choice {
	ctx := req.Context()
	games, err := s.store.ByPlayer(ctx, req.User.ID)
	if err != nil {
		return nil
	}
	typed = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(typed)), "#")
	var out []Choice
	for i := len(games) - 1; i >= 0 && len(out) < MaxChoices; i-- { // newest first
		g := games[i]
		if g.Status != tessera.StatusPlaying {
			continue
		}
		seat := g.Seat(req.User.ID)
		turn := ""
		if p, err := s.state(g); err == nil && int(p.state.ToMove()) == seat {
			turn = " (your turn)"
		}
		name := fmt.Sprintf("#%d %s%s", g.ID, vsText(g, req.User.ID), turn)
		if typed != "" && !strings.Contains(strings.ToLower(name), typed) {
			continue
		}
		out = append(out, Choice{Name: clip(name), Value: fmt.Sprint(g.ID)})
	}
	return out
}

// GameIDs lists the registered games for a game: choice.
func GameIDs() []Choice {
	var out []Choice
	for _, g := range engine.Games() {
		out = append(out, Choice{Name: g.Name, Value: g.ID})
	}
	return out
}
