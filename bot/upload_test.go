package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
)

// TestSlowUploadStillAnswers: Discord must have an interaction's first
// answer within 3 s, and an answer that uploads a file arrives only once
// the file has. Here every upload takes longer than that window (the fake
// takes the request as arriving that much later; nothing waits), and the
// commands are quicker than the bot's deferral time. The window is 2
// minutes instead of 3 s, the deferral time 1 minute and an upload 5
// minutes, so that a loaded machine's slow command (a GIF under -race)
// cannot make it late by itself: only the upload can. Uploading the file
// in the first answer is refused as too late (10062), and the player sees
// "the application did not respond". The bot must defer an answer with a
// file at once, keeping its visibility, and edit the file in (a token
// lives 15 minutes): one visible answer, with its file.
func TestSlowUploadStillAnswers(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{DeferAfter: time.Minute}, fakediscord.WithInteractionDeadline(2*time.Minute))
	w.newGame(t)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	w.srv.Inject("", fakediscord.Fault{Upload: 5 * time.Minute, Times: -1})

	for _, c := range []struct {
		command string
		private bool   // the answer is the caller's alone
		format  string // the file's
	}{
		{"hand", true, "png"},    // a hand is private
		{"replay", false, "gif"}, // a replay is public in the game's server
	} {
		sent := w.srv.Slash(c.command).By(w.ana).In(w.srv.GuildID, w.thread).Send(t)
		first := w.srv.WaitFor(t, func(q fakediscord.Request) bool {
			return q.Method == "POST" && strings.HasPrefix(q.Path, "/interactions/"+sent.ID+"/")
		}, patience)
		if first.Status != http.StatusNoContent {
			t.Fatalf("/%s: the first answer (%d files) was refused: %d %s", c.command, len(first.Files), first.Status, first.Response)
		}
		r := w.srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool {
			return r.Acknowledged && r.Original != nil && r.Original.Flags&discordgo.MessageFlagsLoading == 0
		}, patience)
		if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || len(r.Followups) != 0 {
			t.Fatalf("/%s: answer of type %d with %d follow-ups, want a deferral edited in", c.command, r.Type, len(r.Followups))
		}
		fs := r.Original.Files
		if len(fs) != 1 || fs[0].Format != c.format || r.Original.Content == "" {
			t.Fatalf("/%s: the answer %q has %d files, want one %s", c.command, r.Original.Content, len(fs), c.format)
		}
		if got := r.Original.Flags&discordgo.MessageFlagsEphemeral != 0; got != c.private {
			t.Fatalf("/%s: private %v, want %v", c.command, got, c.private)
		}
	}
}
