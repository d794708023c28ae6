package bot_test

import (
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
)

// TestTournamentPostRecorded: the answer to /tournament new is the
// event's post. The bot records its id (EventMessage), so that a Join
// edits that very message (the entries and the buttons) and, at the
// start, the event's thread starts from it.
func TestTournamentPostRecorded(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	r := w.respond(t, w.srv.Slash("tournament", fakediscord.Sub("new", fakediscord.Str("game", "closure"), fakediscord.Str("format", "swiss"), fakediscord.Str("name", "Cup"))).By(w.ana))
	if r.Original == nil || ephemeral(r) {
		t.Fatalf("no public post: %q", text(r))
	}
	post := r.Original.ID
	if e := w.eventWhen(t, 1, func(e *tessera.Event) bool { return e.MessageID != "" }); e.MessageID != post {
		t.Fatalf("the post %s is recorded as %s", post, e.MessageID)
	}
	w.respond(t, w.srv.Button("tjoin:1").By(w.bo))
	w.srv.WaitMessage(t, r.Original.ChannelID, func(m *fakediscord.Message) bool {
		return m.ID == post && strings.Contains(m.Content, "): bo.") && len(m.Components) > 0
	}, 0)
	w.respond(t, w.srv.Button("tjoin:1").By(w.ana))
	w.respond(t, w.srv.Button("tstart:1").By(w.ana))
	if e := w.eventWhen(t, 1, func(e *tessera.Event) bool { return e.ThreadID != "" }); e.ThreadID != post {
		t.Fatalf("the event's thread %s does not start from its post %s", e.ThreadID, post)
	}
	w.srv.WaitMessage(t, post, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**Round 1**") && len(m.Files) == 1 && m.Files[0].Format == "png"
	}, 0)
}

// eventWhen waits until the stored event id is as ready says (the bot
// records after answering, the courier after delivering), as threadOf
// waits for a game's thread.
func (w *world) eventWhen(t *testing.T, id uint64, ready func(e *tessera.Event) bool) *tessera.Event {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		if e, err := w.store.Event(t.Context(), id); err == nil && ready(e) {
			return e
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("event %d did not become ready", id)
	return nil
}
