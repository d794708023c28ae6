package service

// /replay: a game as an animated GIF, one frame per move. Every frame is
// the position's public board picture, the one the move posts show, so a
// replay of a game in play reveals nothing the thread does not: no hand,
// no supply, no seed.

import (
	"fmt"

	"tessera"
	"tessera/engine"
	"tessera/picture"
)

// Bounds of the moves one /replay animates (replay.max_moves): each frame
// costs a board drawing (about 10 ms of a core) and some kilobytes (a
// 64-move game weighs about 600 KB), and a GIF larger than the upload
// limit (MaxUpload) is refused with a shorter part to ask for. Longer
// games are replayed in parts with from: and to:.
const (
	DefaultReplayMoves = 160
	MaxReplayMoves     = 500
)

// MaxUpload is the largest file Discord takes everywhere: "The file upload
// size limit applies to each file in a request. The default limit is 10
// MiB for all users" (discord-api-docs, developers/reference.mdx,
// Uploading Files); Nitro and boosted servers allow more. The transport
// may say otherwise (Config.UploadLimit).
const MaxUpload = 10 << 20

// ReplayGIF answers with an animated GIF of moves from through to (1-based,
// inclusive; zero means the first and the last move): the position before
// move from, then one frame after each move, the last held longer.
// It is posted where a board would be: publicly in the game's server,
// privately to a player asking from elsewhere.
func (s *Service) ReplayGIF(req Request, ref string, from, to int) (Reply, error) {
	g, err := s.findGame(req, ref, inPlay)
	if err != nil {
		return Reply{}, err
	}
	switch g.Status {
	case tessera.StatusChallenge:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d has not started: everyone must accept the challenge first.", g.ID)
	case tessera.StatusDeclined, tessera.StatusWithdrawn, tessera.StatusExpired:
		return Reply{}, errorf(tessera.EINVALID, "Game #%d never started: the challenge was %s.", g.ID, g.Status)
	}
	n := len(g.Moves)
	if n == 0 {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d has no moves yet: there is nothing to replay.", g.ID)
	}
	if from == 0 {
		from = 1
	}
	if to == 0 {
		to = n
	}
	if from < 1 || from > n || to < from || to > n {
		return Reply{}, errorf(tessera.EINVALID, "Game #%d has %s: from: and to: must be move numbers with 1 ≤ from ≤ to ≤ %d.", g.ID, plural(n, "move"), n)
	}
	limit := s.cfg.ReplayMoves
	if limit == 0 {
		limit = DefaultReplayMoves
	}
	if to-from+1 > limit {
		return Reply{}, errorf(tessera.EINVALID, "A replay shows at most %s at a time; game #%d has %d. Pick a part with from: and to: (e.g. from:1 to:%d).", plural(limit, "move"), g.ID, n, limit)
	}
	leave, err := s.replays.enter(req.User.ID)
	if err != nil {
		return Reply{}, err
	}
	defer leave()
	frames, err := replayFrames(g, from, to)
	if err != nil {
		return Reply{}, err
	}
	data, err := s.renderer.ReplayGIF(frames)
	if err != nil {
		return Reply{}, err
	}
	if most := s.uploadLimit(); len(data) > most {
		// Frames weigh about the same: a part of the moves in proportion,
		// less a tenth, fits.
		fit := max(1, int(int64(to-from+1)*int64(most)*9/(int64(len(data))*10)))
		return Reply{}, errorf(tessera.EINVALID, "The replay of %s is %s, more than the %s a file may have. Ask for fewer moves with from: and to: (e.g. from:%d to:%d).",
			span(from, to), fileSize(len(data), true), fileSize(most, false), from, from+fit-1)
	}
	return Reply{
		Text:      fmt.Sprintf("Replay of **%s**, game #%d: %s of %d.", gameName(g.Setup.Game), g.ID, span(from, to), n),
		Ephemeral: elsewhere(g, req),
		Files:     []File{{Name: fmt.Sprintf("game-%d-replay-%d-%d.gif", g.ID, from, to), Data: data}},
	}, nil
}

// span is "moves 2 to 5", or "move 3".
func span(from, to int) string {
	if from == to {
		return fmt.Sprintf("move %d", from)
	}
	return fmt.Sprintf("moves %d to %d", from, to)
}

// uploadLimit is the largest file the transport takes.
func (s *Service) uploadLimit() int {
	if s.cfg.UploadLimit > 0 {
		return s.cfg.UploadLimit
	}
	return MaxUpload
}

// fileSize writes a size in bytes as "10 MiB", "12.3 MiB" or "35 KiB",
// rounded up (a file's size) or down (a limit), so that a file over a
// limit never reads as the same size.
func fileSize(n int, up bool) string {
	v, unit, name, tenths := int64(n), int64(1<<10), " KiB", false
	if v >= 1<<20 {
		v, unit, name, tenths = v*10, 1<<20, " MiB", true // in tenths
	}
	q := v / unit
	if up && v%unit != 0 {
		q++
	}
	if !tenths || q%10 == 0 {
		if tenths {
			q /= 10
		}
		return fmt.Sprintf("%d%s", q, name)
	}
	return fmt.Sprintf("%d.%d%s", q/10, q%10, name)
}

// replayFrames are the positions after moves from-1 through to, each with
// the panel its board picture has (see pictureOf) and a caption.
func replayFrames(g *tessera.Game, from, to int) ([]picture.ReplayFrame, error) {
	st, err := ReplayN(g, from-1)
	if err != nil {
		return nil, err
	}
	// A game whose picture shows only the part of the table in play
	// (Closure) draws every frame in the last one's frame: one framing,
	// one scale, for the whole replay.
	board := st.Board
	if _, ok := st.(engine.Framer); ok {
		last, err := ReplayN(g, to)
		if err != nil {
			return nil, err
		}
		board = func() engine.Scene { return st.(engine.Framer).BoardFramed(last) }
	}
	title := fmt.Sprintf("%s · game #%d", gameName(g.Setup.Game), g.ID)
	frame := func(n int) picture.ReplayFrame {
		caption := fmt.Sprintf("Start of %s", title)
		if n > 0 {
			m := g.Moves[n-1]
			caption = fmt.Sprintf("Move %d of %d · %s", n, len(g.Moves), moveCaption(g, m))
		}
		return picture.ReplayFrame{Scene: board(), Panel: panelOf(g, st, n), Caption: caption}
	}
	frames := []picture.ReplayFrame{frame(from - 1)}
	for n := from; n <= to; n++ {
		if err := applyEntry(st, g.Moves[n-1]); err != nil {
			return nil, fmt.Errorf("game %d: move %d %q: %w", g.ID, n, g.Moves[n-1].Text, err)
		}
		frames = append(frames, frame(n))
	}
	return frames, nil
}

// moveCaption is "Ana: d4 RGBY", "Ana resigned" or "Ana ran out of time".
func moveCaption(g *tessera.Game, m tessera.MoveEntry) string {
	name := fmt.Sprintf("seat %d", m.Seat+1)
	if m.Seat >= 0 && m.Seat < len(g.Players) {
		name = clipTo(g.Players[m.Seat].Name, 24)
	}
	switch m.End() {
	case tessera.EndResign:
		return name + " resigned"
	case tessera.EndTimeout:
		return name + " ran out of time"
	}
	return name + ": " + m.Text
}
