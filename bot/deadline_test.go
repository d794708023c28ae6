package bot_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// deadlineTable is a command that runs until release is closed, and one
// whose option's choices take as long.
func deadlineTable(release chan struct{}) []service.Command {
	return []service.Command{
		{Name: "slow", Description: "Takes its time", Run: func(*service.Service, service.Request, service.Args) (service.Reply, error) {
			<-release
			return service.Reply{Text: "done"}, nil
		}},
		{Name: "pick", Description: "Suggests slowly", Run: func(*service.Service, service.Request, service.Args) (service.Reply, error) {
			return service.Reply{Text: "picked"}, nil
		}, Options: []service.Option{{Type: service.StringOption, Name: "what", Description: "What", Required: true,
			Complete: func(*service.Service, service.Request, service.Args, string) []service.Choice {
				<-release
				return []service.Choice{{Name: "Late", Value: "late"}}
			}}}},
	}
}

// startDeadlines is a world on the table above whose bot reads the
// interactions' ages on the fake Discord's clock, and whose fake holds
// them to Discord's 3 s exactly, also under the race detector.
func startDeadlines(t *testing.T, release chan struct{}, opt bot.Options) *world {
	t.Helper()
	w, logger := newWorld(t, opt, fakediscord.WithInteractionDeadline(3*time.Second))
	opt.Commands = deadlineTable(release)
	opt.Now = w.srv.Now
	w.begin(t, opt, logger)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release) // before the bot's cleanup, which waits for the commands
		}
	})
	return w
}

// TestAgedInteractionDeferredAtOnce: an interaction that reaches the bot
// 2.5 s after Discord made it (it waited in a queue) has half a second
// left of its 3 s. The bot reads its age from its id and defers at once,
// before the command ends, instead of waiting its 1.5 s from when the
// handler began (which answered at 4 s, refused: 10062); the answer is
// edited in when the command ends.
func TestAgedInteractionDeferredAtOnce(t *testing.T) {
	release := make(chan struct{})
	w := startDeadlines(t, release, bot.Options{})
	sent := w.srv.Slash("slow").Aged(2500 * time.Millisecond).Send(t)
	r := w.srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool { return r.Acknowledged }, patience)
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("an aged interaction answered with type %d, want a deferral", r.Type)
	}
	close(release) // the command ends only once the deferral is seen
	w.srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool {
		return final(r) != nil && final(r).Content == "done"
	}, patience)
}

// TestAgedAutocompleteAnswersInTime: an autocomplete cannot be deferred.
// One that arrives 2.5 s old is answered at once with the choices ready
// (none: they are still being found); a fresh one whose choices take too
// long is answered with none by AutocompleteBy after it was made. Neither
// is late.
func TestAgedAutocompleteAnswersInTime(t *testing.T) {
	release := make(chan struct{})
	w := startDeadlines(t, release, bot.Options{AutocompleteBy: 100 * time.Millisecond})
	for _, age := range []time.Duration{2500 * time.Millisecond, 0} {
		sent := w.srv.Autocomplete("pick", fakediscord.Focused(fakediscord.Str("what", "l"))).Aged(age).Send(t)
		r := w.srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool { return r.Acknowledged }, patience)
		if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult || r.Data == nil || len(r.Data.Choices) != 0 {
			t.Fatalf("aged %v: answered with type %d and %+v, want no choices at once", age, r.Type, r.Data)
		}
	}
}
