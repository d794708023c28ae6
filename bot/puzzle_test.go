package bot_test

import (
	"regexp"
	"strings"
	"testing"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
)

// TestPuzzleThroughDiscord: /puzzle starts a Knotwork puzzle at once in
// its own thread; /hint answers privately with a move that /move plays;
// undo takes a tile back (and autocomplete offers it); following the
// hints solves the puzzle, and the last post celebrates. Nobody is pinged
// or sent a direct message: there is nobody else to wait for.
func TestPuzzleThroughDiscord(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	r := w.respond(t, w.srv.Slash("puzzle", fakediscord.Str("level", "hard")).By(w.ana))
	if ephemeral(r) || len(buttons(r)) != 0 || !strings.Contains(text(r), "**Knotwork**, game #1, for alice alone, begins in its own thread") {
		t.Fatalf("/puzzle: %q (ephemeral %v, buttons %v)", text(r), ephemeral(r), buttons(r))
	}
	w.thread = w.threadOf(t, 1)
	if r.Original != nil && len(w.srv.RequestsTo("POST /channels/*/messages/*/threads")) > 0 && w.thread != r.Original.ID {
		t.Fatalf("thread %s, not from the /puzzle message %s", w.thread, r.Original.ID)
	}
	startPost := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "game #1 with puzzle=hard, for alice alone: no clock")
	}, patience)
	boardPNG(t, "start post", startPost)
	hintRE := regexp.MustCompile("^Try (.+) \\(game #1\\)\\.$")
	hint := func() string {
		t.Helper()
		r := w.respond(t, w.srv.Slash("hint").By(w.ana).In(w.srv.GuildID, w.thread))
		m := hintRE.FindStringSubmatch(text(r))
		if m == nil || !ephemeral(r) {
			t.Fatalf("/hint: %q (ephemeral %v)", text(r), ephemeral(r))
		}
		return m[1]
	}
	for i := 0; i < 3; i++ {
		w.play(t, w.ana, hint())
	}
	if cs := w.suggest(t, w.ana, "und"); len(cs) != 1 || cs[0].Value != "undo" {
		t.Fatalf("autocomplete for \"und\": %+v", cs)
	}
	w.play(t, w.ana, "undo")
	if g, _ := w.store.Game(t.Context(), 1); len(g.Moves) != 4 {
		t.Fatalf("%d record entries after 3 moves and undo", len(g.Moves))
	}
	var last *fakediscord.Message
	for i := 0; i < 25 && (last == nil || !strings.Contains(last.Content, "Solved")); i++ {
		last = w.play(t, w.ana, hint())
	}
	if last == nil || !strings.Contains(last.Content, "Solved! All 25 tiles form one single knot.") ||
		!strings.Contains(last.Content, "**Solved, well done alice!**") {
		t.Fatalf("the last post: %+v", last)
	}
	boardPNG(t, "solved post", last)
	g, err := w.store.Game(t.Context(), 1)
	if err != nil || g.Status != tessera.StatusFinished {
		t.Fatalf("game: %v %v", g.Status, err)
	}
	if st := w.status(t).Content; !strings.Contains(st, "Hard puzzle solved!") || strings.Contains(st, "wins") {
		t.Fatalf("status message: %q", w.status(t).Content)
	}
	for _, m := range w.srv.Messages(w.thread) {
		if !strings.Contains(m.Content, "** played `") && m != startPost {
			continue // the status message, edited since it was posted
		}
		if ids := w.pinged(t, m); len(ids) != 0 {
			t.Fatalf("%q pings %v", m.Content, ids)
		}
		if strings.Contains(m.Content, "against") || strings.Contains(m.Content, "your turn") {
			t.Fatalf("a post for a two-player game: %q", m.Content)
		}
	}
	if n := len(w.srv.DMs(w.ana.ID)); n != 0 {
		t.Fatalf("%d direct messages to the player alone", n)
	}
	r = w.respond(t, w.srv.Slash("hint").By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "is over") {
		t.Fatalf("/hint after the end: %q", text(r))
	}
}
