package fakediscord_test

import (
	"errors"
	"fmt"
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
// too (it keeps the intents it identified with), and recorded as a
// violation: Discord says not to reconnect after 4014.
func TestDisallowIntentsWhileConnected(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
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
	if v := srv.Violations(); len(v) != 1 || v[0].Path != "RESUME" || v[0].Code != 4014 {
		t.Errorf("violations %+v, want the RESUME after 4014", v)
	}
}

// TestNoResumeAfterCloseCodes: Discord's close codes say whether a client
// may reconnect with a RESUME: not after 4004 and 4010 to 4014
// (developers/topics/opcodes-and-status-codes.mdx, Gateway Close Event
// Codes). The fake refuses such a RESUME with the same code and records a
// violation; after another code (4000 unknown error, 4009 session timed
// out) the RESUME is taken.
func TestNoResumeAfterCloseCodes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		code      int
		resumable bool
	}{{4000, true}, {4009, true}, {4004, false}, {4010, false}, {4011, false}, {4012, false}, {4013, false}, {4014, false}} {
		t.Run(fmt.Sprint(c.code), func(t *testing.T) {
			t.Parallel()
			srv := fakediscord.New(t, fakediscord.AllowViolations())
			dg := srv.Session("test-token")
			dg.ShouldReconnectOnError = false
			closed := make(chan struct{}, 1)
			dg.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { closed <- struct{}{} })
			if err := dg.Open(); err != nil {
				t.Fatal(err)
			}
			srv.CloseGateway(c.code, "closed by the test")
			<-closed
			err := dg.Open() // a RESUME
			var ce *websocket.CloseError
			switch {
			case c.resumable && err != nil:
				t.Fatalf("RESUME after %d: %v", c.code, err)
			case !c.resumable && (!errors.As(err, &ce) || ce.Code != c.code):
				t.Fatalf("RESUME after %d: %v, want it closed with %d again", c.code, err, c.code)
			}
			v := srv.Violations()
			if c.resumable != (len(v) == 0) || !c.resumable && (v[0].Path != "RESUME" || v[0].Code != c.code) {
				t.Errorf("violations %+v", v)
			}
		})
	}
}
