package delivery

// A tournament's announcements (GameID 0, EventID set): the event's
// thread made from its post, the posts in that thread (results,
// pairings, the standings picture) and the edits of the post itself
// (its entries, status and buttons). They wait in the event's own queue
// of the outbox (tessera.Announcement.Queue), so they are delivered in
// order, one event at a time, as a game's are. The words and the picture
// are the service's (EventThreadName, EventAnnouncement,
// EventPostMessage).

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"tessera"
	"tessera/storage"
)

// isEvent reports whether a is a tournament's announcement.
func isEvent(a tessera.Announcement) bool { return a.GameID == 0 && a.EventID != 0 }

// queueAttr names a's queue in the logs: its game, or its event.
func queueAttr(a tessera.Announcement) slog.Attr {
	if isEvent(a) {
		return slog.Uint64("event", a.EventID)
	}
	return slog.Uint64("game", a.GameID)
}

// deliverEvent sends one of a tournament's announcements. As for a game's,
// an error of the store is retried, and only a refusal of the transport
// that no retry can change drops one.
func (s *Courier) deliverEvent(ctx context.Context, sink Sink, a tessera.Announcement) error {
	e, err := s.store.Event(ctx, a.EventID)
	if err != nil {
		return fmt.Errorf("reading event %d: %w", a.EventID, err)
	}
	switch a.Kind {
	case tessera.AnnounceEventThread:
		return s.makeEventThread(ctx, sink, s.awaitEventPost(ctx, sink, e), a)
	case tessera.AnnounceEventPost:
		return s.postInEvent(ctx, sink, e, a)
	case tessera.AnnounceEventStatus:
		return s.editEventPost(ctx, sink, e)
	}
	return Permanent(fmt.Errorf("unknown announcement kind %q of event %d", a.Kind, a.EventID))
}

// awaitEventPost waits, when the transport records the messages it
// answers with (StarterRecorder), until the event's post is recorded
// (EventMessage), so that its thread starts from the post; it gives up
// after the transport's wait (the answer may never have been posted) and
// returns the event as last read.
func (s *Courier) awaitEventPost(ctx context.Context, sink Sink, e *tessera.Event) *tessera.Event {
	r, ok := unwrap(sink).(StarterRecorder)
	if !ok || e.ThreadID != "" || e.MessageID != "" {
		return e
	}
	recorded := awaitRecord(ctx, r.StarterWait(), func() bool {
		ne, err := s.store.Event(ctx, e.ID)
		if err != nil {
			return false // the store hiccuped: look again
		}
		e = ne
		return e.MessageID != "" || e.ThreadID != ""
	})
	if !recorded && ctx.Err() == nil {
		s.log.Info("the event's post was not recorded in time; its thread starts on its own", "event", e.ID)
	}
	return e
}

// makeEventThread makes the event's thread from its post (or on its own
// in the event's channel when the post is not known) and records it at
// once. A thread started from a message is that message's only thread
// (the transport gives the same one again), so a retry after a crash
// before the record makes no second one. The announcement's text and
// standings, when it carries them, are then posted in the thread.
func (s *Courier) makeEventThread(ctx context.Context, sink Sink, e *tessera.Event, a tessera.Announcement) error {
	if e.ThreadID == "" {
		id, err := sink.Thread(ctx, e.ChannelID, e.MessageID, s.svc.EventThreadName(e))
		var perm *PermanentError
		switch f := failureOf(err); {
		case f == Gone:
			s.log.Warn("the event's channel is gone; it has no thread", "event", e.ID, "channel", e.ChannelID, "err", err)
			return nil
		case errors.As(err, &perm):
			s.log.Warn("cannot make the event's thread; its posts go to its channel", "event", e.ID, "err", err)
			return nil
		case err != nil:
			return err
		}
		if e, err = s.recordEventThread(ctx, e.ID, id); err != nil {
			return err
		}
	}
	if a.Text == "" && !a.Board {
		return nil
	}
	return s.postInEvent(ctx, sink, e, a)
}

// recordEventThread records the event's thread, reading the event again
// when another change wrote it meanwhile (a player joined, a game ended):
// the thread is made, so it must be recorded.
func (s *Courier) recordEventThread(ctx context.Context, id uint64, threadID string) (*tessera.Event, error) {
	ctx = recording(ctx)
	for {
		e, err := s.store.Event(ctx, id)
		if err != nil {
			return nil, err
		}
		if e.ThreadID != "" {
			return e, nil // recorded already (an earlier try)
		}
		e, err = s.store.UpdateEvent(ctx, id, e.Version, "", func(e *tessera.Event, _ storage.Tx) error {
			e.ThreadID = threadID
			return nil
		})
		if !errors.Is(err, storage.ErrConflict) {
			return e, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// postInEvent posts an announcement's message in the event's thread (in
// its channel while it has none, or when the thread is gone or locked).
// The post carries the announcement's nonce, and once the nonce window
// has passed it is looked for before it is sent again.
func (s *Courier) postInEvent(ctx context.Context, sink Sink, e *tessera.Event, a tessera.Announcement) error {
	m, err := s.svc.EventAnnouncement(e, a)
	if err != nil {
		return Permanent(err)
	}
	m.Marker = marker(a)
	place := e.ThreadID
	if place == "" {
		place = e.ChannelID
	}
	if s.alreadySent(ctx, sink, a, place, "") {
		return nil
	}
	_, err = sink.Post(ctx, place, m, nonce(a))
	if f := failureOf(err); (f == Gone || f == Locked) && place != e.ChannelID {
		s.log.Warn("the event's thread is gone or locked; posting in its channel", "event", e.ID, "thread", place, "err", err)
		if s.alreadySent(ctx, sink, a, e.ChannelID, "") {
			return nil
		}
		_, err = sink.Post(ctx, e.ChannelID, m, nonce(a))
	}
	if failureOf(err) == Gone {
		s.log.Warn("the event's channel is gone; a post is dropped", "event", e.ID, "channel", e.ChannelID, "err", err)
		return nil
	}
	return err
}

// editEventPost rewrites the event's post as it stands now (entries,
// status, buttons). Before the post's id is recorded there is nothing to
// edit: EventMessage, recording it, enqueues an edit of its own. A post
// someone deleted stays deleted.
func (s *Courier) editEventPost(ctx context.Context, sink Sink, e *tessera.Event) error {
	if e.MessageID == "" || e.ChannelID == "" {
		return nil
	}
	err := sink.Edit(ctx, e.ChannelID, e.MessageID, s.svc.EventPostMessage(e))
	switch failureOf(err) {
	case Gone, MessageGone:
		s.log.Info("the event's post is gone; not edited", "event", e.ID, "message", e.MessageID, "err", err)
		return nil
	}
	return err
}
