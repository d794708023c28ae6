package bot

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
	"tessera/delivery"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// TestButtonUpdateWithFileIsDeferred: a button's answer that replaces its
// message (a page turn) and carries a file. No button of the service
// answers so today, so the test gives the bot that answer itself, through
// the HTTP endpoint; the rest is the fake Discord. As in
// TestSlowUploadStillAnswers, Discord's window is 2 minutes, the
// deferral time 1 minute and an upload 5 minutes, so that only the
// upload can make the answer late. The update went out as the first
// answer (type 7) with its file, and the fake refused it as too late
// (10062): the click did nothing. The bot must acknowledge the click
// first (type 6, DEFERRED_UPDATE_MESSAGE) and edit the message with the
// file in.
func TestButtonUpdateWithFileIsDeferred(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithInteractionDeadline(2*time.Minute))
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Logger: logger})
	b, err := New(svc, Options{Token: "test-token", NoGateway: true, Configure: srv.Configure, Logger: logger, DeferAfter: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	loops := runner.Start(runner.Config{Service: svc, Courier: delivery.New(svc, svc.Store()), Sink: b.Sink(), Ready: b.Opened(), Refused: b.TokenRefused, Log: logger,
		RetryEvery: 20 * time.Millisecond, TickEvery: time.Hour}) // as cmd/tessera runs them beside the bot
	t.Cleanup(loops.Close)

	// The page with the button, as the bot posted it.
	ch := srv.AddChannel(srv.GuildID, "history")
	page, err := b.session.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "page 1",
		Components: components(service.Reply{Buttons: []service.Button{{ID: "page:2", Label: "Next"}}})})
	if err != nil {
		t.Fatal(err)
	}
	key, err := ParsePublicKey(srv.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	h := b.Interactions(key).(*webhook)
	h.dispatch = func(i *discordgo.Interaction, a *inlineAnswer) {
		b.inline.Store(i, a)
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			defer close(a.done)
			defer b.inline.Delete(i)
			b.answer(context.Background(), i, false, func() (service.Reply, error) {
				return service.Reply{Text: "page 2", Update: true, Files: []service.File{{Name: "board.png", Data: pngHeader}},
					Buttons: []service.Button{{ID: "page:1", Label: "Back"}}}, nil
			})
		}()
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	if err := srv.SetInteractionsEndpoint(hs.URL); err != nil {
		t.Fatal(err)
	}

	srv.Inject("", fakediscord.Fault{Upload: 5 * time.Minute, Times: -1})
	sent := srv.Button("page:2").OnMessage(page.ID).By(srv.User).Send(t)
	r := srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool {
		return r.Acknowledged && r.Original != nil && r.Original.Content == "page 2"
	}, 20*time.Second)
	if r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Fatalf("the click was answered with type %d, want 6 (deferred update) and an edit", r.Type)
	}
	m := srv.Message(page.ID)
	if len(m.Files) == 0 || m.Files[len(m.Files)-1].Name != "board.png" {
		t.Fatalf("the page has files %+v, want the board", m.Files)
	}
	if n := len(srv.Messages(ch)); n != 1 {
		t.Fatalf("%d messages in the channel, want the page alone (updated in place)", n)
	}
}

// pngHeader is enough of a PNG for the fake to take it as one.
var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
