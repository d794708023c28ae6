package fakediscord_test

import (
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"tessera/bot/fakediscord"
)

// TestIntentCloseCodes: Discord closes an IDENTIFY with a privileged
// intent the app may not use with 4014, and one with bits that are no
// intent with 4013; discordgo's Open returns the close.
func TestIntentCloseCodes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		intents discordgo.Intent
		code    int
	}{
		{"disallowed", discordgo.IntentsGuilds | discordgo.IntentMessageContent, 4014},
		{"invalid", discordgo.IntentsGuilds | 1<<30, 4013},
		{"allowed", discordgo.IntentsGuilds | discordgo.IntentsGuildMessages, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := fakediscord.New(t, fakediscord.WithDisallowedIntents(discordgo.IntentMessageContent))
			dg := srv.Session("test-token")
			dg.ShouldReconnectOnError = false
			dg.Identify.Intents = c.intents
			err := dg.Open()
			var ce *websocket.CloseError
			switch {
			case c.code == 0 && err != nil:
				t.Fatalf("Open: %v", err)
			case c.code != 0 && (!errors.As(err, &ce) || ce.Code != c.code):
				t.Fatalf("Open: %v, want close %d", err, c.code)
			case c.code != 0:
				if r := srv.RefusedIdentifies(); len(r) != 1 || r[0].Code != c.code {
					t.Errorf("refused identifies %+v", r)
				}
			}
		})
	}
}

// TestDisallowIntentsWhileConnected: a live session identified with the
// intent is closed with 4014 at once, and its RESUME is refused with 4014
// too (it keeps the intents it identified with).
func TestDisallowIntentsWhileConnected(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")
	dg.ShouldReconnectOnError = false
	dg.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentMessageContent
	closed := make(chan struct{}, 1)
	dg.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { closed <- struct{}{} })
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	if n := srv.DisallowIntents(discordgo.IntentMessageContent); n != 1 {
		t.Fatalf("closed %d connections, want 1", n)
	}
	<-closed
	err := dg.Open() // a RESUME
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4014 {
		t.Fatalf("RESUME: %v, want close 4014", err)
	}
	if r := srv.Resumes(); len(r) != 1 || r[0].OK {
		t.Errorf("resumes %+v", r)
	}
}
