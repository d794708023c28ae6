package service

import (
	"strings"

	"tessera"
	"tessera/engine"
)

// PlainMove handles a plain message in a game's place: when its author is
// the player to move and it reads like a move, it is played (the bot
// reacts with a check mark and posts the board) or answered with the
// error. Other chatter is ignored: it returns false.
func (s *Service) PlainMove(req Request, messageID, text string) bool {
	req, text = cleanRequest(req), CleanInput(text) // input.go
	ctx := req.Context()
	text = strings.TrimSpace(text)
	if text == "" || len(text) > 60 || strings.Count(text, " ") > 5 || strings.HasPrefix(text, "/") {
		return false
	}
	// Only the author's own games here can take their move: a chat line
	// by someone who plays nothing here reads no game at all.
	games, err := s.store.ByChannelPlayer(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return false
	}
	for _, g := range games {
		if g.Status != tessera.StatusPlaying || g.Place() != req.ChannelID {
			continue
		}
		seat := g.Seat(req.User.ID)
		p, err := s.state(g)
		if err != nil || seat < 0 || int(p.state.ToMove()) != seat {
			continue
		}
		if !looksLikeMove(text) {
			return false
		}
		st := p.state.Clone()
		m, err := st.Parse(text)
		var o engine.Outcome
		if err == nil {
			o, err = st.Apply(m)
		}
		if err != nil {
			// Answer the mistake in the thread, once (the message id). The
			// thread is public and the engine's reason may name the mover's
			// hidden pieces ("you hold BBBB and RYRY, not RRRR"), so the
			// answer says only what is public; /move gives the reason to
			// the mover alone.
			_, err := s.store.Modify(ctx, g.ID, func(g *tessera.Game, tx storageTx) error {
				return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceReply, GameID: g.ID, Moves: len(g.Moves), Target: messageID,
					Text: PlainMoveRefused})
			})
			if err == nil {
				s.poke()
			}
			return true
		}
		react := tessera.Announcement{Kind: tessera.AnnounceReact, Target: messageID, Emoji: "✅"}
		if _, err := s.commit(req, g, st, seat, m.String(), o, []tessera.Announcement{react}); err != nil {
			s.log.Info("plain-text move not stored", "err", err)
		}
		return true
	}
	return false
}

// PlainMoveRefused is the public answer to a plain-text move that is not
// legal. It names nothing hidden, whatever the reason was.
const PlainMoveRefused = "That is not a legal move. Use /move: its list shows your legal moves, and it tells you (only you) why a move is refused."

// looksLikeMove: a short text with a digit (a cell or a number) or a move
// word. Chatter such as "good move!" is not.
func looksLikeMove(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"pass", "flip", "discard", "swap"} {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	f := strings.Fields(t)
	if len(f) == 0 {
		return false
	}
	first := f[0]
	for i, r := range first {
		if r >= '0' && r <= '9' {
			// "d5", "17", "c3": letters then digits, from the start.
			for _, q := range first[:i] {
				if q < 'a' || q > 'z' {
					return false
				}
			}
			return i <= 2
		}
	}
	return false
}

// LooksLikeMove says whether a line of a mail may be a move (a short
// text with a cell, a number or a move word), for a transport that must
// find the move among other lines before it knows the game's notation.
func LooksLikeMove(line string) bool {
	line = strings.TrimSpace(line)
	return line != "" && len(line) <= 60 && strings.Count(line, " ") <= 5 && looksLikeMove(line)
}
