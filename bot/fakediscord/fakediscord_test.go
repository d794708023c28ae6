package fakediscord_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
)

// open returns an opened session with the given intents (0: discordgo's default).
func open(t *testing.T, srv *fakediscord.Server, intents discordgo.Intent) *discordgo.Session {
	t.Helper()
	dg := srv.Session("test-token")
	if intents != 0 {
		dg.Identify.Intents = intents
	}
	if err := dg.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	return dg
}

func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return -1
}

func TestOpenHandshake(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")
	dg.Identify.Intents = discordgo.IntentGuilds | discordgo.IntentGuildMessages
	ready := make(chan *discordgo.Ready, 1)
	guild := make(chan *discordgo.GuildCreate, 1)
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	dg.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { guild <- g })
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	id := srv.WaitIdentify(t, 1, 0)
	if id.Intents != discordgo.IntentGuilds|discordgo.IntentGuildMessages {
		t.Errorf("intents = %d", id.Intents)
	}
	if id.Token != "Bot test-token" || id.Shard != [2]int{0, 1} {
		t.Errorf("identify = %+v", id)
	}
	r := <-ready
	if r.User.ID != srv.AppID || !r.User.Bot || r.SessionID != id.SessionID {
		t.Errorf("ready = %+v", r)
	}
	g := <-guild
	if g.ID != srv.GuildID || len(g.Channels) != 1 || g.Channels[0].ID != srv.ChannelID {
		t.Errorf("guild create = %+v", g.Guild)
	}
	gw := srv.RequestsTo("GET /gateway")
	if len(gw) != 1 || gw[0].Host != "discord.com" {
		t.Errorf("gateway requests = %v", gw)
	}
	me, err := dg.User("@me")
	if err != nil || me.ID != srv.AppID {
		t.Errorf("User(@me) = %v, %v", me, err)
	}
	srv.WaitGatewayFrame(t, func(f fakediscord.GatewayFrame) bool { return f.Op == 1 }, 0)
}

func TestSlashCommandAndButton(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := open(t, srv, 0)
	got := make(chan *discordgo.InteractionCreate, 4)
	dg.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic
		switch ic.Type {
		case discordgo.InteractionApplicationCommand:
			d := ic.ApplicationCommandData()
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content: "new " + d.Options[0].StringValue() + " game",
					Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Join", Style: discordgo.PrimaryButton, CustomID: "join:1"},
					}}},
				},
			})
		case discordgo.InteractionMessageComponent:
			_ = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "joined by " + ic.Member.User.Username},
			})
		}
	})

	sent := srv.Slash("play", fakediscord.Str("game", "hex"), fakediscord.Int("seats", 2)).Send(t)
	ic := <-got
	d := ic.ApplicationCommandData()
	if ic.ID != sent.ID || ic.GuildID != srv.GuildID || ic.ChannelID != srv.ChannelID || ic.Member.User.ID != srv.User.ID {
		t.Errorf("interaction = %+v", ic.Interaction)
	}
	if d.Name != "play" || d.Options[0].StringValue() != "hex" || d.Options[1].IntValue() != 2 {
		t.Errorf("data = %+v", d)
	}
	resp := sent.Response(t)
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Original == nil || resp.Original.Content != "new hex game" {
		t.Fatalf("response = %+v", resp)
	}
	if resp.Original.Interaction == nil || resp.Original.Interaction.ID != sent.ID {
		t.Errorf("original lacks interaction metadata: %+v", resp.Original.Message)
	}

	click := srv.Button("join:1").By(srv.AddUser("bob")).Send(t)
	if ic := <-got; ic.Message == nil || ic.Message.ID != resp.Original.ID || ic.MessageComponentData().CustomID != "join:1" {
		t.Errorf("click = %+v", ic.Interaction)
	}
	click.Wait(t, func(r fakediscord.InteractionResponse) bool {
		return r.Original != nil && r.Original.Content == "joined by bob"
	})
	msgs := srv.Messages(srv.ChannelID)
	if len(msgs) != 1 || msgs[0].Content != "joined by bob" || msgs[0].EditedTimestamp == nil {
		t.Errorf("messages = %+v", msgs)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}

func TestMultipartPNGAndBadPNG(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	dg := open(t, srv, 0)
	good := pngBytes(t)
	errs := make(chan error, 2)
	dg.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		data := good
		if ic.ApplicationCommandData().Name == "bad" {
			data = []byte("not a png")
		}
		errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: "board",
				Files:   []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(data)}},
			},
		})
	})
	sent := srv.Slash("board").Send(t)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	resp := sent.Response(t)
	if len(resp.Files) != 1 || resp.Files[0].Format != "png" || resp.Files[0].Image().Bounds().Dx() != 4 || resp.Files[0].Field != "files[0]" {
		t.Fatalf("files = %+v", resp.Files)
	}
	att := resp.Original.Attachments
	if len(att) != 1 || att[0].Filename != "board.png" || att[0].Width != 4 || att[0].Height != 3 {
		t.Errorf("attachments = %+v", att)
	}
	req := srv.RequestsTo("POST /interactions/*/*/callback")[0]
	if req.JSON()["type"] != float64(4) || len(req.Files) != 1 {
		t.Errorf("recorded request = %+v", req)
	}

	bad := srv.Slash("bad").Send(t)
	if err := <-errs; restCode(err) != 50035 {
		t.Fatalf("bad png: err = %v", err)
	}
	if r, _ := srv.InteractionResponse(bad.ID); r.Acknowledged {
		t.Error("rejected callback acknowledged the interaction")
	}
	v := srv.Violations()
	if len(v) != 1 || v[0].Field != "files[0]" {
		t.Errorf("violations = %v", v)
	}
}

func TestAutocompleteLimits(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	dg := open(t, srv, 0)
	errs := make(chan error, 3)
	dg.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		var focused *discordgo.ApplicationCommandInteractionDataOption
		for _, o := range ic.ApplicationCommandData().Options {
			if o.Focused {
				focused = o
			}
		}
		n, name := 5, "choice"
		switch focused.StringValue() {
		case "many":
			n = 26
		case "long":
			name = strings.Repeat("x", 101)
		}
		var choices []*discordgo.ApplicationCommandOptionChoice
		for i := 0; i < n; i++ {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: "v"})
		}
		errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		})
	})

	ok := srv.Autocomplete("play", fakediscord.Focused(fakediscord.Str("game", "he"))).Send(t)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if r := ok.Response(t); len(r.Data.Choices) != 5 || r.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		t.Errorf("response = %+v", r)
	}

	srv.Autocomplete("play", fakediscord.Focused(fakediscord.Str("game", "many"))).Send(t)
	err := <-errs
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 400 || re.Message.Code != 50035 || !strings.Contains(string(re.ResponseBody), `"choices"`) {
		t.Fatalf("26 choices: err = %v", err)
	}
	srv.Autocomplete("play", fakediscord.Focused(fakediscord.Str("game", "long"))).Send(t)
	if err := <-errs; restCode(err) != 50035 {
		t.Fatalf("long names: err = %v", err)
	}
	v := srv.Violations()
	if len(v) != 6 || v[0].Field != "data.choices" || v[0].Rule != "BASE_TYPE_MAX_LENGTH" || v[1].Field != "data.choices.0.name" {
		t.Errorf("violations = %v", v)
	}
}

func TestCallbackRules(t *testing.T) {
	t.Parallel()
	// Every answer is given Discord's 3 s on the fake's clock; the late
	// one has a server of its own, whose clock the test moves past the
	// deadline (the fake's clock, so a loaded machine changes nothing).
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	late := fakediscord.New(t, fakediscord.AllowViolations())
	got := make(chan *discordgo.InteractionCreate, 4)
	dg, dgLate := open(t, srv, 0), open(t, late, 0)
	for _, s := range []*discordgo.Session{dg, dgLate} {
		s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic })
	}
	respond := func(s *discordgo.Session, ic *discordgo.InteractionCreate, content string) error {
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: content},
		})
	}

	srv.Slash("twice").Send(t)
	ic := <-got
	if err := respond(dg, ic, "one"); err != nil {
		t.Fatal(err)
	}
	if err := respond(dg, ic, "two"); restCode(err) != 40060 {
		t.Errorf("second callback: %v", err)
	}

	srv.Slash("long").Send(t)
	if err := respond(dg, <-got, strings.Repeat("é", 2001)); restCode(err) != 50035 {
		t.Errorf("2001 characters: %v", err)
	}

	late.Slash("late").Send(t)
	ic = <-got
	late.Advance(3*time.Second*fakediscord.Slowdown + time.Millisecond) // the scenario: answer after Discord's 3 s (Slowdown times that under -race)
	err := respond(dgLate, ic, "too late")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 404 || re.Message.Code != 10062 {
		t.Errorf("late callback: %v", err)
	}
	_, err = dg.ChannelMessageSend(srv.ChannelID, strings.Repeat("a", 2001))
	if restCode(err) != 50035 {
		t.Errorf("long channel message: %v", err)
	}
	codes := map[int]int{}
	for _, v := range append(srv.Violations(), late.Violations()...) {
		codes[v.Code]++
	}
	if codes[40060] != 1 || codes[50035] != 2 || codes[10062] != 1 || len(late.Violations()) != 1 {
		t.Errorf("violations = %v, %v", srv.Violations(), late.Violations())
	}
}

func TestDeferredEditAndFollowup(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := open(t, srv, 0)
	got := make(chan *discordgo.InteractionCreate, 1)
	dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic })
	sent := srv.Slash("slow").Send(t)
	ic := <-got
	if err := dg.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	}); err != nil {
		t.Fatal(err)
	}
	content := "done"
	m, err := dg.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{
		Content: &content,
		Files:   []*discordgo.File{{Name: "b.png", ContentType: "image/png", Reader: bytes.NewReader(pngBytes(t))}},
	})
	if err != nil || m.Content != "done" || len(m.Attachments) != 1 {
		t.Fatalf("edit: %+v, %v", m, err)
	}
	f, err := dg.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "more"})
	if err != nil || f.Content != "more" {
		t.Fatalf("followup: %+v, %v", f, err)
	}
	r := sent.Response(t)
	if r.Original.Content != "done" || r.Original.Flags&discordgo.MessageFlagsEphemeral == 0 || len(r.Followups) != 1 || len(r.Original.Files) != 1 {
		t.Errorf("response = %+v", r)
	}
}

func TestRateLimitRetried(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")
	srv.RateLimit("POST /channels/*/messages", 50*time.Millisecond, false)
	start := time.Now()
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "hello"); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Error("discordgo did not wait retry_after")
	}
	reqs := srv.RequestsTo("POST /channels/*/messages")
	if len(reqs) != 2 || reqs[0].Status != 429 || reqs[1].Status != 200 {
		t.Errorf("requests = %v", reqs)
	}
	if msgs := srv.Messages(srv.ChannelID); len(msgs) != 1 || msgs[0].Content != "hello" {
		t.Errorf("messages = %v", msgs)
	}

	srv.RateLimit("", 50*time.Millisecond, true)
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "again"); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); reqs[len(reqs)-2].Status != 429 || !strings.Contains(reqs[len(reqs)-2].Fault, "global") {
		t.Errorf("requests = %v", reqs)
	}

	dg.ShouldRetryOnRateLimit = false
	srv.RateLimit("POST /channels/*/messages", time.Second, false)
	_, err := dg.ChannelMessageSend(srv.ChannelID, "no retry")
	var rle *discordgo.RateLimitError
	if !errors.As(err, &rle) || rle.RetryAfter != time.Second {
		t.Errorf("without retry: %v", err)
	}
}

func TestServerErrors(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")

	srv.FailNext("POST /channels/*/messages", 502, 2)
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "after 502s"); err != nil {
		t.Fatalf("502 is retried by discordgo: %v", err)
	}
	if n := len(srv.RequestsTo("POST /channels/*/messages")); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}

	srv.FailNext("POST /channels/*/messages", 502, 4)
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "lost"); err == nil || !strings.Contains(err.Error(), "Exceeded Max retries") {
		t.Errorf("4 x 502: %v", err)
	}

	srv.FailNext("POST /channels/*/messages", 500, 1)
	_, err := dg.ChannelMessageSend(srv.ChannelID, "after 500")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 500 {
		t.Errorf("500 is not retried: %v", err)
	}
	if msgs := srv.Messages(srv.ChannelID); len(msgs) != 1 {
		t.Errorf("messages = %d, want 1", len(msgs))
	}

	srv.Slow("GET /users/@me", 100*time.Millisecond, 1)
	start := time.Now()
	if _, err := dg.User("@me"); err != nil || time.Since(start) < 100*time.Millisecond {
		t.Errorf("slow: %v after %v", err, time.Since(start))
	}
}

func TestGatewayDropResumeReplays(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := open(t, srv, 0)
	got := make(chan string, 4)
	dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic.ApplicationCommandData().Name })

	if n := srv.DropGateway(); n != 1 {
		t.Fatalf("dropped %d connections", n)
	}
	// Sent while the bot is disconnected: queued and replayed on RESUME.
	srv.Slash("missed").Send(t)
	r := srv.WaitResume(t, 1, 0)
	if r.SessionID != srv.Identifies()[0].SessionID || r.Replayed < 1 {
		t.Errorf("resume = %+v", r)
	}
	if name := <-got; name != "missed" {
		t.Errorf("got %q", name)
	}
	srv.Slash("after").Send(t)
	if name := <-got; name != "after" {
		t.Errorf("got %q", name)
	}
	if n := len(srv.Identifies()); n != 1 {
		t.Errorf("%d identifies, want 1", n)
	}
}

func TestReconnectAndInvalidSession(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := open(t, srv, 0)
	got := make(chan string, 4)
	dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic.ApplicationCommandData().Name })

	srv.SendReconnect()
	srv.WaitResume(t, 1, 0)
	srv.SendInvalidSession(false)
	id := srv.WaitIdentify(t, 2, 0)
	if id.SessionID == srv.Identifies()[0].SessionID {
		t.Error("invalid session kept the session id")
	}
	srv.Slash("ping").Send(t)
	if name := <-got; name != "ping" {
		t.Errorf("got %q", name)
	}
}

func TestUserMessagesAndIntents(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	plain := open(t, srv, discordgo.IntentGuilds|discordgo.IntentGuildMessages|discordgo.IntentDirectMessages)
	got := make(chan *discordgo.MessageCreate, 4)
	plain.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })

	srv.UserMessage(nil, "", "!play hex")
	if m := <-got; m.Content != "" || m.Author.ID != srv.User.ID || m.Member == nil {
		t.Errorf("without MESSAGE_CONTENT: %+v", m.Message)
	}
	srv.UserMessage(nil, "", "<@"+srv.AppID+"> play")
	if m := <-got; m.Content == "" {
		t.Error("a mention must carry content")
	}
	dm := srv.UserDM(nil, "hi")
	if m := <-got; m.Content != "hi" || m.GuildID != "" || m.ChannelID != dm.ChannelID {
		t.Errorf("DM: %+v", m.Message)
	}
	// The bot's own messages come back as MESSAGE_CREATE too.
	if _, err := plain.ChannelMessageSend(srv.ChannelID, "mine"); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m.Author.ID != srv.AppID || m.Content != "mine" {
		t.Errorf("own message: %+v", m.Message)
	}
}

func TestRESTResources(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	dg := srv.Session("test-token")

	cmds, err := dg.ApplicationCommandBulkOverwrite(srv.AppID, srv.GuildID, []*discordgo.ApplicationCommand{
		{Name: "play", Description: "Start a game", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game", Required: true, Autocomplete: true},
		}},
	})
	if err != nil || len(cmds) != 1 || cmds[0].ID == "" || cmds[0].GuildID != srv.GuildID {
		t.Fatalf("bulk overwrite: %+v, %v", cmds, err)
	}
	if got := srv.Commands(srv.GuildID); len(got) != 1 || got[0].ID != cmds[0].ID {
		t.Errorf("commands = %+v", got)
	}
	if _, err := dg.ApplicationCommandCreate(srv.AppID, "", &discordgo.ApplicationCommand{Name: "Play", Description: "x"}); restCode(err) != 50035 {
		t.Errorf("upper-case command name: %v", err)
	}

	m, err := dg.ChannelMessageSendComplex(srv.ChannelID, &discordgo.MessageSend{
		Content: "game",
		Files:   []*discordgo.File{{Name: "a.png", ContentType: "image/png", Reader: bytes.NewReader(pngBytes(t))}},
	})
	if err != nil || len(m.Attachments) != 1 || m.GuildID != srv.GuildID {
		t.Fatalf("send complex: %+v, %v", m, err)
	}
	if _, err := dg.ChannelMessageEdit(srv.ChannelID, m.ID, "game (edited)"); err != nil {
		t.Fatal(err)
	}
	if err := dg.MessageReactionAdd(srv.ChannelID, m.ID, "👍"); err != nil {
		t.Errorf("reaction: %v", err)
	}
	if err := dg.MessageReactionAdd(srv.ChannelID, m.ID, "thumbsup"); restCode(err) != 10014 {
		t.Errorf("named emoji without id: %v", err)
	}
	th, err := dg.MessageThreadStart(srv.ChannelID, m.ID, "Game thread", 60)
	if err != nil || th.ID != m.ID || th.ParentID != srv.ChannelID || !th.IsThread() {
		t.Fatalf("thread from message: %+v, %v", th, err)
	}
	th2, err := dg.ThreadStart(srv.ChannelID, "side", discordgo.ChannelTypeGuildPublicThread, 1440)
	if err != nil || th2.Type != discordgo.ChannelTypeGuildPublicThread {
		t.Fatalf("thread: %+v, %v", th2, err)
	}
	if _, err := dg.ChannelMessageSend(th.ID, "in thread"); err != nil {
		t.Fatal(err)
	}
	dm, err := dg.UserChannelCreate(srv.User.ID)
	if err != nil || dm.Type != discordgo.ChannelTypeDM || dm.Recipients[0].ID != srv.User.ID {
		t.Fatalf("DM: %+v, %v", dm, err)
	}
	if again, _ := dg.UserChannelCreate(srv.User.ID); again.ID != dm.ID {
		t.Error("DM channel not reused")
	}
	if ch, err := dg.Channel(srv.ChannelID); err != nil || ch.GuildID != srv.GuildID {
		t.Errorf("channel: %+v, %v", ch, err)
	}
	if _, err := dg.Channel("1"); restCode(err) != 10003 {
		t.Errorf("unknown channel: %v", err)
	}
	got := srv.Message(m.ID)
	if got.Content != "game (edited)" || len(got.Reactions) != 1 || got.Thread == nil || len(got.Files) != 1 {
		t.Errorf("stored message = %+v", got.Message)
	}
	if len(srv.Messages(th.ID)) != 1 {
		t.Error("thread message not stored")
	}
	srv.WaitFor(t, func(r fakediscord.Request) bool {
		return r.Route == "PATCH /channels/{channel}/messages/{message}" && r.JSON()["content"] == "game (edited)"
	}, 0)
	if n := len(srv.Violations()); n != 3 {
		t.Errorf("violations = %v", srv.Violations())
	}
}

func TestShardsGetTheirGuilds(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	got := [2]chan string{make(chan string, 2), make(chan string, 2)}
	for shard := 0; shard < 2; shard++ {
		dg := srv.Session("test-token")
		dg.ShardID, dg.ShardCount = shard, 2
		ch := got[shard]
		dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { ch <- ic.GuildID })
		if err := dg.Open(); err != nil {
			t.Fatal(err)
		}
	}
	if ids := srv.Identifies(); len(ids) != 2 || ids[0].Shard != [2]int{0, 2} || ids[1].Shard != [2]int{1, 2} {
		t.Fatalf("identifies = %+v", ids)
	}
	id, _ := strconv.ParseUint(srv.NewID(), 10, 64)
	for i := uint64(0); i < 2; i++ {
		g := id + i<<22 // consecutive shards
		guild := strconv.FormatUint(g, 10)
		srv.Slash("where").In(guild, srv.NewID()).Send(t)
		shard := (g >> 22) % 2
		if gid := <-got[shard]; gid != guild {
			t.Errorf("shard %d got guild %s, want %s", shard, gid, guild)
		}
	}
	srv.Slash("dm").InDM().Send(t)
	if gid := <-got[0]; gid != "" {
		t.Errorf("DM interaction went to shard 0 with guild %q", gid)
	}
	for i := range got {
		select {
		case g := <-got[i]:
			t.Errorf("shard %d got an extra interaction for guild %s", i, g)
		default:
		}
	}
}

// answer is what the fake answered a request: its status and, for a
// refusal, Discord's error code and errors object.
type answer struct {
	Status int
	Code   int
	Errors json.RawMessage
}

// sendJSON sends a JSON body with a bot token to the fake's API (path
// without /api/v9) and reads the answer.
func sendJSON(t *testing.T, srv *fakediscord.Server, method, path, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, "https://discord.com/api/v9"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bot x")
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{Status: resp.StatusCode}
	_ = json.NewDecoder(resp.Body).Decode(&a)
	return a
}

// recorder is a testing.TB that records errors and runs cleanups on demand.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) finish() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func TestViolationsFailTheTestAtCleanup(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := fakediscord.New(rec)
	a := sendJSON(t, srv, "POST", "/channels/"+srv.ChannelID+"/messages", `{"content":"`+strings.Repeat("a", 2001)+`"}`)
	if a.Status != 400 || a.Code != 50035 || !strings.Contains(string(a.Errors), `"content"`) {
		t.Errorf("answer %+v", a)
	}
	rec.finish()
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "content") {
		t.Errorf("cleanup errors = %q", rec.errs)
	}
}

func TestSlashUsesRegisteredCommandID(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := open(t, srv, 0)
	cmd, err := dg.ApplicationCommandCreate(srv.AppID, "", &discordgo.ApplicationCommand{Name: "play", Description: "Play"})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic.ApplicationCommandData().ID })
	srv.Slash("play").Send(t)
	if id := <-got; id != cmd.ID {
		t.Errorf("command id %s, want %s", id, cmd.ID)
	}
}
