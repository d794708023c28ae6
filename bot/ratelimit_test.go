package bot_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// TestBacklogStaysUnderRateLimits: after an outage the outbox holds 5,000
// posts of 100 games, each game in its own channel. The courier's 64
// workers flush them against a fake that enforces Discord's limits (50
// requests per window in all, 5 posts per window per channel), on a clock
// 20 times faster than Discord's so that the flush takes seconds, not
// the 100 s that 5,000 requests at 50 a second take. Every post arrives
// once, and the fake never had to answer 429: the bot waited instead.
// (discordgo alone honours each channel's bucket but knows nothing of the
// global limit, and the workers together exceed it.)
func TestBacklogStaysUnderRateLimits(t *testing.T) {
	t.Parallel()
	const games, posts = 100, 50
	limits := fakediscord.DiscordRateLimits().Faster(20)
	srv := fakediscord.New(t, fakediscord.WithRateLimits(limits), fakediscord.WithoutPixels())
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	channels := map[string]bool{}
	for i := range games {
		ch := srv.AddChannel(srv.GuildID, fmt.Sprint("game-", i))
		channels[ch] = true
		g := &tessera.Game{Status: tessera.StatusPlaying, Setup: engine.Setup{Game: "elemental", Players: 2},
			Players: []tessera.Player{{ID: srv.User.ID, Name: "alice"}, {ID: "200", Name: "bo"}},
			GuildID: srv.GuildID, ChannelID: ch, ThreadID: ch, NoThread: true, StatusID: "1",
			Clock: tessera.Clock{Kind: "none"}, TurnStart: time.Now(), Created: time.Now(), Updated: time.Now()}
		err := st.CreateWith(t.Context(), g, "", func(g *tessera.Game, tx storage.Tx) error {
			for k := range posts {
				if err := tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnouncePost, GameID: g.ID, Moves: k, Text: fmt.Sprintf("move %d", k+1)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	logs := &logBuffer{t: t}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Logger: logger,
		RetryBase: 20 * time.Millisecond, Courier: service.CourierConfig{Workers: service.MaxCourierWorkers}})
	b, err := bot.New(svc, bot.Options{Token: "test-token", Logger: logger, Configure: srv.Configure,
		RateLimit: bot.RateLimit{Global: limits.Global, Window: limits.GlobalWindow}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience) // bounds a hang only
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Session().ShouldReconnectOnError = false
		b.Close()
	})
	startLoops(t, b, svc, logger, runner.Config{TickEvery: time.Hour})

	const want = games * posts
	srv.WaitRequests(t, func(r fakediscord.Request) bool {
		return r.Route == "POST /channels/{channel}/messages" && r.Status == 200 && channels[strings.Split(r.Path, "/")[2]]
	}, want, 10*time.Minute)
	seen := map[string]int{}
	for ch := range channels {
		for _, m := range srv.Messages(ch) {
			seen[m.Content]++
		}
	}
	if len(seen) != want {
		t.Errorf("%d different posts arrived, want %d", len(seen), want)
	}
	for c, n := range seen {
		if n != 1 {
			t.Errorf("%q arrived %d times", c, n)
		}
	}
	if n := srv.RateLimited(); n != 0 {
		t.Errorf("the fake answered %d requests with 429, want none", n)
	}
	t.Logf("%d posts, %d requests in all, %d answered 429", want, len(srv.Requests()), srv.RateLimited())
}

// TestBanHoldsEveryRoute: past the invalid request limit (here 3 answers
// 401, 403 or 429 within the hour), Discord's Cloudflare bans the
// address: every request gets 429 with no scope and no JSON, for the
// rest of the window. The bot learns it from the first such answer and
// sends nothing more, on any route, until the ban ends: each request
// fails at once with ErrBanned (before: the ban held only the bucket of
// the route that got it, and every other route went on sending into it).
func TestBanHoldsEveryRoute(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{}, fakediscord.WithRateLimits(fakediscord.RateLimits{Invalid: 3, InvalidWindow: time.Hour}), fakediscord.AllowViolations())
	s := w.bot.Session()
	ch, other := w.srv.AddChannel(w.srv.GuildID, "one"), w.srv.AddChannel(w.srv.GuildID, "two")
	w.srv.Inject("GET /users/*", fakediscord.Fault{Status: 403, Times: 3})
	for i := range 3 {
		if _, err := s.User("@me", discordgo.WithContext(t.Context())); err == nil {
			t.Fatalf("invalid request %d was answered", i+1)
		}
	}
	if _, err := s.ChannelMessageSend(ch, "one", discordgo.WithContext(t.Context())); err == nil {
		t.Fatal("a post during the ban was taken")
	}
	banned := 0
	for _, r := range w.srv.Requests() {
		if r.Limited == "banned" {
			banned++
		}
	}
	if banned == 0 {
		t.Fatal("the fake never answered with its ban")
	}
	sent := len(w.srv.Requests())
	for _, try := range []func() error{
		func() error {
			_, err := s.ChannelMessageSend(other, "two", discordgo.WithContext(t.Context()))
			return err
		},
		func() error { _, err := s.User("@me", discordgo.WithContext(t.Context())); return err },
		func() error { _, err := s.Guild(w.srv.GuildID, discordgo.WithContext(t.Context())); return err },
	} {
		if err := try(); !errors.Is(err, bot.ErrBanned) {
			t.Errorf("a request during the ban: %v, want ErrBanned", err)
		}
	}
	if n := len(w.srv.Requests()); n != sent {
		t.Errorf("%d requests sent during the ban, want none", n-sent)
	}
}

// TestRateLimitRetriesAreBoundedAndCancellable: a route that answers 429
// to every request. The bot sends a request at most 1+2 times, then the
// caller has the error; and a caller that gives up while the bot waits
// to send again is let go at once (before: discordgo sent it again for
// ever, each time after a sleep that no context ended).
func TestRateLimitRetriesAreBoundedAndCancellable(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	s := w.bot.Session()
	ch := w.srv.AddChannel(w.srv.GuildID, "limited")
	route := "POST /channels/" + ch + "/messages"
	w.srv.Inject(route, fakediscord.Fault{Status: 429, RetryAfter: 10 * time.Millisecond, Times: -1})
	var rle *discordgo.RateLimitError
	if _, err := s.ChannelMessageSend(ch, "hi", discordgo.WithContext(t.Context())); !errors.As(err, &rle) {
		t.Fatalf("a post answered 429 each time: %v, want discordgo's RateLimitError", err)
	}
	if n := len(w.srv.RequestsTo(route)); n != 3 {
		t.Fatalf("sent %d times, want 3", n)
	}

	// Now the wait is an hour; the caller gives up after the first 429.
	w.srv.Inject(route, fakediscord.Fault{Status: 429, RetryAfter: time.Hour, Times: -1})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := s.ChannelMessageSend(ch, "again", discordgo.WithContext(ctx))
		done <- err
	}()
	w.srv.WaitRequests(t, func(r fakediscord.Request) bool {
		return r.Route == "POST /channels/{channel}/messages" && r.Status == 429
	}, 4, 0)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the given-up post: %v, want context.Canceled", err)
	}
}
