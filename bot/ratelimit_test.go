package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
	"tessera/render"
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
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Mention: bot.Mention, Link: bot.Link, Stamp: bot.Stamp, Logger: logger,
		RetryBase: 20 * time.Millisecond, Courier: service.CourierConfig{Workers: service.MaxCourierWorkers}})
	b, err := bot.New(svc, bot.Options{Token: "test-token", Logger: logger, Configure: srv.Configure,
		RetryEvery: 20 * time.Millisecond, TickEvery: time.Hour,
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
