package bot_test

import (
	"strings"
	"testing"

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
	post, channel := r.Original.ID, r.Original.ChannelID
	// Recording the post (EventMessage) queues the courier's edit of the
	// recorded message, and nothing edits one before: its edit says the
	// record is made, and which message it names.
	w.srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Method == "PATCH" && strings.HasPrefix(q.Path, "/channels/"+channel+"/messages/")
	}, patience)
	if e := w.event(t, 1); e.MessageID != post {
		t.Fatalf("the post %s is recorded as %s", post, e.MessageID)
	}
	w.respond(t, w.srv.Button("tjoin:1").By(w.bo))
	w.srv.WaitMessage(t, channel, func(m *fakediscord.Message) bool {
		return m.ID == post && strings.Contains(m.Content, "): bo.") && len(m.Components) > 0
	}, 0)
	w.respond(t, w.srv.Button("tjoin:1").By(w.ana))
	w.respond(t, w.srv.Button("tstart:1").By(w.ana))
	// The courier posts in the event's thread only once it has recorded
	// it (the post's place is the stored ThreadID): round 1 in a thread
	// started from the post says both.
	w.srv.WaitMessage(t, post, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**Round 1**") && len(m.Files) == 1 && m.Files[0].Format == "png"
	}, patience)
	if e := w.event(t, 1); e.ThreadID != post {
		t.Fatalf("the event's thread %s does not start from its post %s", e.ThreadID, post)
	}
}

// event is the stored event id.
func (w *world) event(t *testing.T, id uint64) *tessera.Event {
	t.Helper()
	e, err := w.store.Event(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
