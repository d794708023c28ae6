package delivery

// A game's analysis (/analyze) in its place: the progress line, posted
// once and then edited (its id kept in the analysis's record), and the
// result, posted once with the chart.

import (
	"context"
	"errors"
	"fmt"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// analyst is what the courier asks of the service for analyses; the
// service has it (service/analyze.go).
type analyst interface {
	AnalysisMessage(g *tessera.Game, a *tessera.Analysis, result bool) (service.Message, error)
}

// analysisMark recognises a game's progress line among its place's
// messages, so a crash between posting it and recording its id does not
// post a second one.
func analysisMark(g *tessera.Game) string { return fmt.Sprintf("game %d · analysis", g.ID) }

// deliverAnalysis sends an AnnounceAnalysis: the progress line as the
// analysis stands now (an older announcement shows the newer state, which
// is as good), or with a.Board the result's post.
func (s *Courier) deliverAnalysis(ctx context.Context, sink Sink, g *tessera.Game, a tessera.Announcement) error {
	an, ok := s.svc.(analyst)
	if !ok {
		return Permanent(errors.New("this service has no analyses"))
	}
	rec, err := s.store.Analysis(ctx, g.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // nothing to show
	}
	if err != nil {
		return err
	}
	m, err := an.AnalysisMessage(g, rec, a.Board)
	if err != nil {
		return Permanent(err)
	}
	if a.Board {
		m.Marker = marker(a)
		if g.InDMs {
			return s.postToPlayers(ctx, sink, g, a, m)
		}
		if s.alreadySent(ctx, sink, a, g.Place(), "") {
			return nil
		}
		_, err := sink.Post(ctx, g.Place(), m, nonce(a))
		return err
	}
	if g.InDMs {
		return nil // no progress lines in direct messages: the result comes
	}
	if rec.MessageID != "" {
		err := sink.Edit(ctx, g.Place(), rec.MessageID, m)
		if failureOf(err) != MessageGone {
			return err
		}
		s.log.Warn("the analysis's progress line was deleted; posting it again", "game", g.ID, "message", rec.MessageID)
	}
	mark := analysisMark(g)
	m.Marker = mark
	id := s.find(ctx, sink, g.Place(), "", mark)
	if id == "" {
		if id, err = sink.Post(ctx, g.Place(), m, nonce(a)); err != nil {
			return err
		}
	} else if err := sink.Edit(ctx, g.Place(), id, m); err != nil {
		return err
	}
	_, err = s.store.UpdateAnalysis(recording(ctx), g.ID, func(r *tessera.Analysis) error {
		r.MessageID = id
		return nil
	})
	return err
}
