package bot_test

import (
	"bytes"
	"context"
	"image/png"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	_ "tessera/engine/games"
	"tessera/service"
	"tessera/storage"
)

// world is a bot connected to a fake Discord, with two players.
type world struct {
	srv     *fakediscord.Server
	bot     *bot.Bot
	store   *storage.Store
	ana, bo *discordgo.User
}

func start(t *testing.T, opt bot.Options, fopts ...fakediscord.Option) *world {
	t.Helper()
	srv := fakediscord.New(t, fopts...)
	st, err := storage.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(st, service.Config{Mention: bot.Mention, Seed: func() uint64 { return 7 }})
	opt.Token = "test-token"
	opt.Configure = srv.Configure
	opt.Logger = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	b, err := bot.New(svc, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Session().ShouldReconnectOnError = false
		b.Close()
		st.Close()
	})
	return &world{srv: srv, bot: b, store: st, ana: srv.User, bo: srv.AddUser("bo")}
}

func (w *world) respond(t *testing.T, ib *fakediscord.InteractionBuilder) fakediscord.InteractionResponse {
	t.Helper()
	sent := ib.Send(t)
	// Wait for the final content: the callback, or the edit of a deferral.
	return sent.Wait(t, func(r fakediscord.InteractionResponse) bool {
		if !r.Acknowledged {
			return false
		}
		if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			return (r.Original != nil && r.Original.Content != "") || len(r.Followups) > 0
		}
		return true
	})
}

// text is the content a player sees for a response.
func text(r fakediscord.InteractionResponse) string {
	switch {
	case r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource:
		return r.Data.Content
	case len(r.Followups) > 0:
		return r.Followups[len(r.Followups)-1].Content
	}
	return r.Original.Content
}

func ephemeral(r fakediscord.InteractionResponse) bool {
	if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return len(r.Followups) > 0 && r.Followups[0].Flags&discordgo.MessageFlagsEphemeral != 0
	}
	return r.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

// buttons are the custom ids of the buttons a response shows.
func buttons(r fakediscord.InteractionResponse) []string {
	var comps []discordgo.MessageComponent
	switch {
	case r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource:
		comps = r.Data.Components
	case r.Original != nil:
		comps = r.Original.Components
	}
	var ids []string
	for _, c := range comps {
		if row, ok := c.(*discordgo.ActionsRow); ok {
			for _, b := range row.Components {
				if bt, ok := b.(*discordgo.Button); ok {
					ids = append(ids, bt.CustomID)
				}
			}
		}
	}
	return ids
}

func files(r fakediscord.InteractionResponse) []fakediscord.File {
	if len(r.Files) > 0 {
		return r.Files
	}
	if r.Original != nil {
		return r.Original.Files
	}
	return nil
}

// newGame challenges bo to Elemental and has him accept.
func (w *world) newGame(t *testing.T) {
	t.Helper()
	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID), fakediscord.Str("options", "borders=RBGY")).By(w.ana))
	if !strings.Contains(text(r), "<@"+w.bo.ID+">") || len(buttons(r)) != 2 {
		t.Fatalf("challenge: %q", text(r))
	}
	if r.Data != nil && r.Type == discordgo.InteractionResponseChannelMessageWithSource {
		if am := r.Data.AllowedMentions; am == nil || len(am.Users) != 1 || am.Users[0] != w.bo.ID {
			t.Fatalf("the challenge must ping only bo: %+v", r.Data.AllowedMentions)
		}
	}
	r = w.respond(t, w.srv.Button("accept:1").By(w.bo))
	if r.Data == nil && r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("accept: type %d data %s", r.Type, r.DataJSON)
	}
	if !strings.Contains(text(r), "begins") || len(files(r)) != 1 {
		t.Fatalf("accept: %q", text(r))
	}
}

func TestCommandsRegistered(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{GuildID: ""})
	cmds := w.srv.Commands("")
	byName := map[string]*discordgo.ApplicationCommand{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	for _, name := range []string{"new", "move", "hand", "board", "games", "resign", "rules"} {
		if byName[name] == nil {
			t.Fatalf("command /%s not registered (got %d commands)", name, len(cmds))
		}
	}
	move := byName["move"]
	if len(move.Options) != 2 || move.Options[0].Name != "notation" || !move.Options[0].Autocomplete || !move.Options[0].Required {
		t.Fatalf("/move options: %+v", move.Options)
	}
	if g := move.Options[1]; g.Name != "game" || !g.Autocomplete || g.Required {
		t.Fatalf("/move game option: %+v", g)
	}
	newc := byName["new"]
	var games []string
	for _, c := range newc.Options[0].Choices {
		games = append(games, c.Value.(string))
	}
	if strings.Join(games, ",") != "closure,elemental,glorieta,knotwork,tilingking" {
		t.Fatalf("/new game choices: %v", games)
	}
	if newc.Options[1].Type != discordgo.ApplicationCommandOptionUser || !newc.Options[1].Required {
		t.Fatalf("/new opponent: %+v", newc.Options[1])
	}
	id := w.srv.Identifies()[0]
	if id.Intents&discordgo.IntentsGuilds == 0 {
		t.Fatalf("intents %d", id.Intents)
	}
}

// TestWholeGame plays a whole Elemental Connection game between two users,
// every step an interaction through the gateway.
func TestWholeGame(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	cy := w.srv.AddUser("cy")

	// Wrong turn, bad notation, a non-player: one ephemeral line each.
	for _, c := range []struct {
		who  *discordgo.User
		move string
		want string
	}{
		{w.bo, "d5 RGBY", "It is alice's turn"},
		{w.ana, "hello", "like d5 RGBY"},
		{w.ana, "d9 RGBY", "d9 is off the board (a1-h8)"},
		{cy, "d5 RGBY", "not playing"},
	} {
		r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", c.move)).By(c.who))
		if !ephemeral(r) || !strings.Contains(text(r), c.want) || strings.Contains(text(r), "\n") {
			t.Fatalf("%s plays %q: %q (ephemeral %v), want one private line with %q", c.who.Username, c.move, text(r), ephemeral(r), c.want)
		}
	}

	// /hand: ephemeral, only the caller's tiles, as a picture.
	r := w.respond(t, w.srv.Slash("hand").By(w.ana))
	if !ephemeral(r) || len(files(r)) != 1 || files(r)[0].Format != "png" {
		t.Fatalf("/hand: ephemeral %v files %d", ephemeral(r), len(files(r)))
	}
	g, _ := w.store.Game(1)
	_ = g
	players := []*discordgo.User{w.ana, w.bo}
	for turn := 0; turn < 64; turn++ {
		u := players[turn%2]
		typed := ""
		if turn%9 == 3 {
			// Typing the start of a suggestion narrows the list to it.
			ac := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(u))
			typed = ac.Data.Choices[len(ac.Data.Choices)-1].Value.(string)[:4]
		}
		ac := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", typed))).By(u))
		choices := ac.Data.Choices
		if len(choices) == 0 || len(choices) > 25 {
			t.Fatalf("turn %d: %d choices", turn, len(choices))
		}
		for _, c := range choices {
			if !strings.HasPrefix(c.Value.(string), typed) {
				t.Fatalf("turn %d: choice %v does not start with %q", turn, c.Value, typed)
			}
		}
		move := choices[0].Value.(string)
		r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(u))
		if ephemeral(r) {
			t.Fatalf("turn %d: %q refused: %s", turn, move, text(r))
		}
		fs := files(r)
		if len(fs) != 1 || fs[0].Format != "png" {
			t.Fatalf("turn %d: no board PNG", turn)
		}
		if img, err := png.Decode(bytes.NewReader(fs[0].Data)); err != nil || img.Bounds().Dx() < 700 {
			t.Fatalf("turn %d: board picture: %v", turn, err)
		}
		if !strings.Contains(text(r), "played `"+move+"`") || !strings.Contains(text(r), "Scores: alice ") {
			t.Fatalf("turn %d: %q", turn, text(r))
		}
		if turn < 63 {
			next := players[(turn+1)%2]
			if am := r.Data.AllowedMentions; am == nil || len(am.Users) != 1 || am.Users[0] != next.ID {
				t.Fatalf("turn %d: must ping exactly the next player: %+v", turn, am)
			}
		}
		if turn == 10 {
			b := w.respond(t, w.srv.Slash("board").By(cy))
			if len(files(b)) != 1 || ephemeral(b) || len(b.Data.AllowedMentions.Users) != 0 {
				t.Fatalf("/board: files %d, pings %v", len(files(b)), b.Data.AllowedMentions)
			}
			gs := w.respond(t, w.srv.Slash("games").By(w.bo))
			if !ephemeral(gs) || !strings.Contains(text(gs), "#1 Elemental Connection vs alice") {
				t.Fatalf("/games: %q", text(gs))
			}
		}
		if turn == 63 && !strings.Contains(text(r), "Game over") {
			t.Fatalf("the end is not announced: %q", text(r))
		}
	}
	g, _ = w.store.Game(1)
	if g.Status != "finished" || len(g.Moves) != 64 {
		t.Fatalf("status %s after %d moves", g.Status, len(g.Moves))
	}
}

func TestResignThroughButtons(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	r := w.respond(t, w.srv.Slash("resign").By(w.bo))
	if !ephemeral(r) || strings.Join(buttons(r), ",") != "resign:1,cancel:1" {
		t.Fatalf("/resign must ask privately with a confirm button: %q %v", text(r), buttons(r))
	}
	r = w.respond(t, w.srv.Button("resign:1").By(w.bo))
	if !strings.Contains(text(r), "resigns") || !strings.Contains(text(r), "<@"+w.ana.ID+"> wins") {
		t.Fatalf("resign: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("rules", fakediscord.Str("game", "closure")).By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "Closure") {
		t.Fatalf("/rules: %q", text(r))
	}
}

// TestSlowCommandsAreDeferred forces the deferral path: the bot answers
// "thinking" within the limit, then edits the result in; an error after a
// deferral goes privately to the caller and the public placeholder is
// removed.
func TestSlowCommandsAreDeferred(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{DeferAfter: time.Nanosecond})
	w.newGame(t)
	hand := w.respond(t, w.srv.Slash("hand").By(w.ana))
	if hand.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !ephemeral(hand) || len(hand.Followups[0].Files) != 1 {
		t.Fatalf("deferred /hand: type %d ephemeral %v", hand.Type, ephemeral(hand))
	}
	if hand.Original != nil {
		t.Fatal("the public placeholder of a private answer was not removed")
	}
	ac := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(w.ana))
	move := ac.Data.Choices[0].Value.(string)
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana))
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || r.Original == nil || len(r.Original.Files) != 1 {
		t.Fatalf("deferred move: %+v", r)
	}
	if r.Latency > 3*time.Second {
		t.Fatalf("first answer after %v", r.Latency)
	}
}

// TestFaults: Discord rate-limits and fails; no move is lost or applied twice.
func TestFaults(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	// play asks autocomplete for a move, then has Discord misbehave while
	// the move is answered.
	play := func(u *discordgo.User, fault func()) fakediscord.InteractionResponse {
		ac := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(u))
		fault()
		defer w.srv.ClearFaults()
		return w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", ac.Data.Choices[0].Value.(string))).By(u))
	}
	// 429 on the callback route: discordgo waits retry_after and retries.
	r := play(w.ana, func() { w.srv.RateLimit("POST /interactions/*/*/callback", 100*time.Millisecond, false) })
	if ephemeral(r) || len(files(r)) != 1 {
		t.Fatalf("move under 429: %q", text(r))
	}
	// A 500 (which discordgo does not retry): the bot retries itself.
	r = play(w.bo, func() { w.srv.FailNext("POST /interactions/*/*/callback", 500, 1) })
	if ephemeral(r) || len(files(r)) != 1 {
		t.Fatalf("move under 500: %q", text(r))
	}
	// A 502 twice: discordgo retries.
	play(w.ana, func() { w.srv.FailNext("POST /interactions/*/*/callback", 502, 2) })
	// The autocomplete answer under a 500 is retried too.
	w.srv.FailNext("POST /interactions/*/*/callback", 500, 1)
	if ac := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(w.bo)); len(ac.Data.Choices) == 0 {
		t.Fatal("no choices after a 500")
	}
	g, _ := w.store.Game(1)
	if len(g.Moves) != 3 {
		t.Fatalf("%d moves stored, want 3 (none lost, none twice)", len(g.Moves))
	}
	// The gateway drops: the bot resumes and keeps serving.
	w.srv.DropGateway()
	w.srv.WaitResume(t, 1, 10*time.Second)
	r = play(w.bo, func() {})
	if ephemeral(r) {
		t.Fatalf("after reconnect: %q", text(r))
	}
	g, _ = w.store.Game(1)
	if len(g.Moves) != 4 {
		t.Fatalf("%d moves stored, want 4", len(g.Moves))
	}
}

// testWriter sends the bot's log to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
