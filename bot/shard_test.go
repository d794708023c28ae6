package bot_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/internal/wake"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// identifyWindow stands in for Discord's 5 s in these tests; the bots
// wait a little longer between buckets, as they wait 5 s for Discord's.
const identifyWindow = 100 * time.Millisecond

// arrivals counts, per process and shard, the interactions each gateway
// session received, by guild ("" for DMs).
type arrivals struct {
	mu      sync.Mutex
	got     map[string][]string // "process/shard" -> guild ids
	changes wake.Signal         // woken by each arrival
}

func (a *arrivals) watch(process string, b *bot.Bot) {
	for _, s := range b.Sessions() {
		key := fmt.Sprintf("%s/%d", process, s.ShardID)
		s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
			a.mu.Lock()
			defer a.mu.Unlock()
			if a.got == nil {
				a.got = map[string][]string{}
			}
			a.got[key] = append(a.got[key], ic.GuildID)
			a.changes.Wake()
		})
	}
}

// expect checks that the guild's interactions arrived on the sessions
// want ("process/shard", sorted) and nowhere else. The recording handler
// runs in its own goroutine, perhaps after the bot answered: it waits for
// the sessions to show up, woken by each arrival recorded.
func (a *arrivals) expect(t *testing.T, what, guild string, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	var got []string
	if a.changes.WaitFor(ctx, func() bool { got = a.where(guild); return slices.Equal(got, want) }) != nil {
		t.Errorf("%s: interactions arrived on %v, want %v", what, got, want)
	}
}

// where is the sessions ("process/shard") that received interactions of
// the guild, sorted.
func (a *arrivals) where(guild string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for key, guilds := range a.got {
		if slices.Contains(guilds, guild) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// TestFourShardsInOneProcess: a bot that Discord tells to run 4 shards,
// with max_concurrency 2, identifies shards 0 and 1 together, then 2 and
// 3, registers its commands once, and plays a game in a guild that lives
// on shard 3.
func TestFourShardsInOneProcess(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{IdentifyWait: 2 * identifyWindow},
		fakediscord.WithGatewayBot(4, 2), fakediscord.WithIdentifyWindow(identifyWindow), fakediscord.WithDefaultGuildOnShard(3, 4))
	var seen arrivals
	seen.watch("one", w.bot)
	ids := w.srv.Identifies()
	if len(ids) != 4 {
		t.Fatalf("%d IDENTIFYs, want 4: %+v", len(ids), ids)
	}
	var shards [][2]int
	for _, id := range ids {
		shards = append(shards, id.Shard)
	}
	slices.SortFunc(shards, func(a, b [2]int) int { return a[0] - b[0] })
	if fmt.Sprint(shards) != "[[0 4] [1 4] [2 4] [3 4]]" {
		t.Fatalf("shards identified: %v", shards)
	}
	// Buckets in order: both of the first bucket before either of the second.
	first := map[int]bool{ids[0].Shard[0]: true, ids[1].Shard[0]: true}
	if !first[0] || !first[1] {
		t.Errorf("identified in the order %+v: shards 0 and 1 come first", ids)
	}
	if r := w.srv.RefusedIdentifies(); len(r) != 0 {
		t.Fatalf("refused: %+v", r)
	}
	if n := len(w.srv.RequestsTo("PUT /applications/*/commands")); n != 1 {
		t.Errorf("commands registered %d times, want once per process", n)
	}
	if n := len(w.srv.RequestsTo("GET /gateway/bot")); n != 1 {
		t.Errorf("GET /gateway/bot asked %d times", n)
	}

	w.newGame(t)
	w.moveFrom(t, w.thread, 4)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
	seen.expect(t, "the guild on shard 3", w.srv.GuildID, "one/3")
	if w.logs.count("shards connected") != 2 {
		t.Errorf("want one log line per bucket")
	}
}

// TestOutgrownShardsWarned: when Discord comes to recommend more shards
// than the bot runs, the bot says so, once.
func TestOutgrownShardsWarned(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{ShardCheckEvery: 10 * time.Millisecond}, fakediscord.WithGatewayBot(1, 1))
	// waitChecks waits until the bot asked Discord three more times (each
	// request the fake records wakes the wait).
	waitChecks := func() {
		t.Helper()
		n := len(w.srv.RequestsTo("GET /gateway/bot"))
		w.srv.WaitRequests(t, func(r fakediscord.Request) bool { return r.Method == "GET" && r.Path == "/gateway/bot" }, n+3, patience)
	}
	waitChecks()
	if n := w.logs.count("recommends more shards"); n != 0 {
		t.Fatalf("%d warnings while the recommendation is the count run", n)
	}
	w.srv.SetRecommendedShards(2)
	w.logs.waitLine(t, "recommends more shards")
	waitChecks()
	if n := w.logs.count("recommends more shards"); n != 1 {
		t.Fatalf("%d warnings, want 1", n)
	}
	if w.logs.count("recommended=2 count=1") != 1 {
		t.Errorf("the warning does not say the numbers")
	}
}

// process is one bot process of a sharded bot, in this test's process: it
// runs the given shards on the shared store.
func (w *world) process(t *testing.T, svc *service.Service, ids string, count int) *bot.Bot {
	t.Helper()
	sh, err := bot.ParseShards(ids, count)
	if err != nil {
		t.Fatal(err)
	}
	opt := w.opt
	opt.Shards = sh
	b, err := bot.New(svc, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	startLoops(t, b, svc, w.opt.Logger, w.loops) // each process runs its own
	return b
}

// TestTwoProcessesShareShards: the shards 0-1 and 2-3 of 4 run in two bot
// processes on one store. Each gets only its guilds' interactions (and
// answers them), DMs reach only the process with shard 0, and a game
// lives on in a guild of the second process while its players move by
// DM through the first.
//
// Until the store lets processes claim announcements (Claim and Release),
// the two share one service, so that one courier at a time delivers: two
// couriers reading the same bbolt outbox could both send an announcement.
func TestTwoProcessesShareShards(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{IdentifyWait: 2 * identifyWindow, Shards: bot.Shards{IDs: []int{0, 1}, Count: 4}},
		fakediscord.WithGatewayBot(4, 4), fakediscord.WithIdentifyWindow(identifyWindow), fakediscord.WithDefaultGuildOnShard(2, 4))
	one := w.bot
	two := w.process(t, w.svc, "2-3", 4)
	var seen arrivals
	seen.watch("one", one)
	seen.watch("two", two)
	if n := len(w.srv.Identifies()); n != 4 {
		t.Fatalf("%d IDENTIFYs, want 4", n)
	}
	if n := len(w.srv.RequestsTo("PUT /applications/*/commands")); n != 2 {
		t.Errorf("commands registered %d times, want once per process", n)
	}

	// A guild on shard 1: only the first process hears of it.
	guild1 := w.srv.AddGuildOnShard("one's guild", 1, 4)
	ch1 := w.srv.AddChannel(guild1, "general")
	r := w.respond(t, w.srv.Slash("rules", fakediscord.Str("game", "elemental")).In(guild1, ch1))
	if !strings.Contains(text(r), "Elemental") {
		t.Fatalf("/rules on shard 1: %q", text(r))
	}
	seen.expect(t, "the guild on shard 1", guild1, "one/1")

	// The default guild is on shard 2: the game is made by the second process.
	w.newGame(t)
	w.moveFrom(t, w.thread, 2)
	seen.expect(t, "the guild on shard 2", w.srv.GuildID, "two/2")
	// Moves by DM: DMs go to shard 0, in the first process.
	w.moveFrom(t, "", 2)
	seen.expect(t, "DMs", "", "one/0")
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// bare is a service on a new store, without a bot, and its log.
func bare(t *testing.T) (*service.Service, *slog.Logger, *logBuffer) {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &logBuffer{t: t}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	return service.New(st, service.Config{Renderer: render.Renderer{}, Logger: logger}), logger, logs
}

// TestProcessesStartedTogether: two processes with shards 0-1 and 2-3 of
// 4, started at the same moment, with max_concurrency 1 (every shard has
// rate-limit key 0). They keep to one schedule, each bucket one slot
// after the last, so Discord never sees two IDENTIFYs within its window.
// The schedule is the wall clock's, as in production: the bots wait ten
// windows (1 s), so that two IDENTIFYs of one key come closer than the
// fake's window only if a READY takes longer than 1.3 s (at five windows,
// 0.6 s, a busy machine under -race got there).
func TestProcessesStartedTogether(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithGatewayBot(4, 1), fakediscord.WithIdentifyWindow(identifyWindow))
	svc, logger, _ := bare(t)
	var wg sync.WaitGroup
	for _, ids := range []string{"0-1", "2-3"} {
		sh, err := bot.ParseShards(ids, 4)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bot.New(svc, bot.Options{Token: "test-token", Configure: srv.Configure, Logger: logger, Shards: sh, IdentifyWait: 10 * identifyWindow})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			if err := b.Open(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if r := srv.RefusedIdentifies(); len(r) != 0 {
		t.Fatalf("%d IDENTIFYs refused, the first %+v", len(r), r[0])
	}
	var order []int
	for _, id := range srv.Identifies() {
		order = append(order, id.Shard[0])
	}
	if !slices.Equal(order, []int{0, 1, 2, 3}) {
		t.Errorf("shards identified in the order %v", order)
	}
}

// TestSessionStartsRunningOut: with fewer session starts left than it has
// shards, the bot does not start (Discord resets the token of a bot that
// uses them all) and says when it may.
func TestSessionStartsRunningOut(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithGatewayBot(2, 2), fakediscord.WithSessionStartsLeft(1))
	svc, logger, _ := bare(t)
	b, err := bot.New(svc, bot.Options{Token: "test-token", Configure: srv.Configure, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	err = b.Open(context.Background())
	if err == nil || !strings.Contains(err.Error(), "only 1 of Discord's 1000 session starts a day are left (the count resets in 4h0m0s) and this process needs 2") {
		t.Fatalf("Open = %v", err)
	}
	if n := len(srv.Identifies()) + len(srv.RefusedIdentifies()); n != 0 {
		t.Errorf("%d IDENTIFYs sent", n)
	}
}

// TestShardingRequiredIsExplained: a bot told to run one shard while it is
// in more guilds than one session may handle gets 4011, and says what to
// change; the recommended count then connects.
func TestShardingRequiredIsExplained(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithGatewayBot(2, 2), fakediscord.WithGuildsPerShard(2), fakediscord.WithDefaultGuildOnShard(0, 2))
	srv.AddGuildOnShard("b", 0, 2)
	srv.AddGuildOnShard("c", 1, 2)
	svc, logger, logs := bare(t)
	opt := bot.Options{Token: "test-token", Configure: srv.Configure, Logger: logger, Shards: bot.Shards{Count: 1}}
	b, err := bot.New(svc, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	err = b.Open(context.Background())
	if !errors.Is(err, bot.ErrShardingRequired) {
		t.Fatalf("Open = %v, want ErrShardingRequired", err)
	}
	if logs.count("4011, sharding required") != 1 || logs.count("shards.count (TESSERA_SHARDS)") != 1 {
		t.Errorf("the log does not tell the host what to do")
	}
	if r := srv.RefusedIdentifies(); len(r) != 1 || r[0].Code != 4011 {
		t.Errorf("refused = %+v", r)
	}
	// Left to Discord's recommendation, the bot runs both shards.
	opt.Shards = bot.Shards{}
	b2, err := bot.New(svc, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b2.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := b2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(b2.Sessions()); n != 2 || len(srv.Identifies()) != 2 {
		t.Errorf("%d sessions, %d IDENTIFYs; want 2 and 2", n, len(srv.Identifies()))
	}
}
