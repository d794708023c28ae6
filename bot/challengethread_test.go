package bot_test

import (
	"testing"

	"tessera/bot/fakediscord"
)

// TestAIGameThreadStartsFromTheChallenge: a game against the computer
// begins as it is made, so its thread is owed before the bot has even
// read back the id of the challenge message it answered with. The thread
// must still start from that message (Discord shows the game under the
// challenge), not stand alone in the channel: the courier waits a moment
// for the id. Before the wait, about one run in four made a thread of its
// own.
func TestAIGameThreadStartsFromTheChallenge(t *testing.T) {
	t.Parallel()
	w, _ := startAI(t, nil)
	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "knotwork"), fakediscord.UserOpt("opponent", w.srv.Bot.ID), fakediscord.Str("level", "easy")).By(w.ana))
	if r.Original == nil {
		t.Fatalf("no challenge message: %q", text(r))
	}
	if th := w.threadOf(t, 1); th != r.Original.ID {
		t.Fatalf("thread %s, not the challenge message %s", th, r.Original.ID)
	}
}
