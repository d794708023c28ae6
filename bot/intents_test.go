package bot_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
)

// refusedIntent is the line the bot logs, once, when Discord refuses the
// Message Content intent.
const refusedIntent = "plain-text moves need the privileged Message Content intent"

// plainTextOff checks that the bot runs on without plain-text moves after
// Discord refused their intent: it identified without it, said once what
// to change, and a game is played with slash commands.
func plainTextOff(t *testing.T, w *world, identifies int) {
	t.Helper()
	last := w.srv.WaitIdentify(t, identifies, 0)
	if last.Intents&(discordgo.IntentMessageContent|discordgo.IntentsGuildMessages) != 0 || last.Intents&discordgo.IntentsGuilds == 0 {
		t.Fatalf("identified again with intents %b, want guilds only", last.Intents)
	}
	refused := 0
	for _, r := range w.srv.RefusedIdentifies() {
		if r.Code == 4014 {
			refused++
		}
	}
	if refused > 1 {
		t.Errorf("%d IDENTIFYs refused with 4014, want at most one", refused)
	}
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	if n := w.logs.count(refusedIntent); n != 1 {
		t.Errorf("the refused intent was explained %d times, want once", n)
	}
}

// TestDisallowedIntentAtStart: the Message Content intent is off in the
// Developer Portal when the bot starts with plain-text moves. Discord
// closes its IDENTIFY with 4014; the bot identifies again without the
// intent and serves the slash commands (before: Open failed and the bot
// did not start).
func TestDisallowedIntentAtStart(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{PlainText: true, IdentifyWait: 10 * time.Millisecond},
		fakediscord.WithDisallowedIntents(discordgo.IntentMessageContent))
	w.newGame(t)
	plainTextOff(t, w, 1)
	if r := w.srv.RefusedIdentifies(); len(r) != 1 || r[0].Code != 4014 {
		t.Fatalf("refused identifies %+v, want the first one, with 4014", r)
	}
}

// TestDisallowedIntentWhileRunning: Discord's approval of the intent
// lapses while the bot runs: the live session is closed with 4014. The
// bot starts a new session without the intent, and the game goes on with
// slash commands (before: discordgo tried to RESUME forever and the bot
// ran with no gateway). It sends no RESUME: Discord forbids one after
// 4014, and the bot reads the code before it reconnects (before: it
// learned the code only from the RESUME Discord refused, a violation the
// fake records).
func TestDisallowedIntentWhileRunning(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{PlainText: true, IdentifyWait: 10 * time.Millisecond})
	w.newGame(t)
	if n := w.srv.DisallowIntents(discordgo.IntentMessageContent); n != 1 {
		t.Fatalf("closed %d gateway connections, want 1", n)
	}
	plainTextOff(t, w, 2)
	if n := w.logs.count("reconnecting to the gateway failed"); n != 0 {
		t.Errorf("%d failed reconnects logged: a refused intent is answered, not retried", n)
	}
	if r := w.srv.Resumes(); len(r) != 0 {
		t.Errorf("RESUMEs %+v after 4014, want none", r)
	}
}
