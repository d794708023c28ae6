package fakediscord_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"tessera/bot/fakediscord"
)

// rawIdentify connects to the fake's gateway without discordgo, sends one
// IDENTIFY for shard (nil: no shard array) and returns what came back
// first: the op of a payload and its event name, or the close code.
func rawIdentify(t *testing.T, srv *fakediscord.Server, shard *[2]int) (op int, event string, closeCode int) {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	var hello struct{ Op int }
	if err := ws.ReadJSON(&hello); err != nil || hello.Op != 10 {
		t.Fatalf("hello: %+v, %v", hello, err)
	}
	d := map[string]any{"token": "Bot test-token", "intents": int(discordgo.IntentGuilds), "properties": map[string]any{"os": "linux"}}
	if shard != nil {
		d["shard"] = shard
	}
	if err := ws.WriteJSON(map[string]any{"op": 2, "d": d}); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(fakediscord.DefaultTimeout))
	var f struct {
		Op int
		T  string
	}
	if err := ws.ReadJSON(&f); err != nil {
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return 0, "", ce.Code
		}
		t.Fatalf("after IDENTIFY: %v", err)
	}
	return f.Op, f.T, 0
}

func TestGatewayBotRecommends(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithGatewayBot(4, 2))
	dg := srv.Session("test-token")
	gb, err := dg.GatewayBot()
	if err != nil {
		t.Fatal(err)
	}
	if gb.Shards != 4 || gb.SessionStartLimit.MaxConcurrency != 2 || gb.SessionStartLimit.Total != 1000 || gb.SessionStartLimit.Remaining != 1000 {
		t.Fatalf("GET /gateway/bot = %+v", gb)
	}
	if !strings.HasPrefix(gb.URL, "ws://") {
		t.Errorf("url %q", gb.URL)
	}
	dg.ShardID, dg.ShardCount = 1, 4
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	if gb, err = dg.GatewayBot(); err != nil || gb.SessionStartLimit.Remaining != 999 {
		t.Fatalf("after one IDENTIFY: %+v, %v", gb, err)
	}
	// Like Discord, the route needs the bot token.
	req, _ := srv.HTTPClient().Get("https://discord.com/api/v9/gateway/bot")
	if req.StatusCode != 401 {
		t.Errorf("without a token: %d", req.StatusCode)
	}
	req.Body.Close()
	srv.ClearViolations() // that 401 was asked for
	// Without WithGatewayBot a small bot is told 1 shard, max_concurrency 1.
	small := fakediscord.New(t)
	if gb, err := small.Session("test-token").GatewayBot(); err != nil || gb.Shards != 1 || gb.SessionStartLimit.MaxConcurrency != 1 {
		t.Fatalf("default GET /gateway/bot = %+v, %v", gb, err)
	}
}

// TestShardRouting: four sessions, one per shard; each guild's events go
// to its shard only ((guild_id >> 22) % 4), DMs to shard 0, and READY
// lists only the shard's guilds.
func TestShardRouting(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithGatewayBot(4, 4), fakediscord.WithDefaultGuildOnShard(2, 4))
	guilds := []string{srv.AddGuildOnShard("zero", 0, 4), srv.AddGuildOnShard("one", 1, 4), srv.GuildID, srv.AddGuildOnShard("three", 3, 4)}
	type got struct {
		shard int
		what  string
	}
	events := make(chan got, 32)
	readies := make([][]string, 4)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for shard := 0; shard < 4; shard++ {
		dg := srv.Session("test-token")
		dg.ShardID, dg.ShardCount = shard, 4
		dg.Identify.Intents = discordgo.IntentGuilds
		// discordgo's state cache overwrites READY's guilds in place
		// (*g = *guild) when their GUILD_CREATE follows, while the READY
		// handler below reads them: a data race under -race. The test
		// needs no cache.
		dg.StateEnabled = false
		dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
			mu.Lock()
			defer mu.Unlock()
			for _, g := range r.Guilds {
				readies[shard] = append(readies[shard], g.ID)
			}
		})
		dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
			events <- got{shard, "interaction " + ic.GuildID}
		})
		dg.AddHandler(func(_ *discordgo.Session, cu *discordgo.ChannelUpdate) { events <- got{shard, "channel " + cu.GuildID} })
		wg.Add(1)
		go func() { // max_concurrency 4: all four identify at once
			defer wg.Done()
			if err := dg.Open(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if refused := srv.RefusedIdentifies(); len(refused) != 0 {
		t.Fatalf("refused: %+v", refused)
	}
	for shard, g := range guilds {
		srv.Slash("where").In(g, srv.NewID()).Send(t)
		if e := <-events; e != (got{shard, "interaction " + g}) {
			t.Errorf("guild on shard %d: %+v", shard, e)
		}
		ch := srv.AddChannel(g, "general")
		srv.DenyBot(ch, discordgo.PermissionAttachFiles) // a guild event: CHANNEL_UPDATE
		if e := <-events; e != (got{shard, "channel " + g}) {
			t.Errorf("guild on shard %d: %+v", shard, e)
		}
	}
	srv.Slash("dm").InDM().Send(t)
	if e := <-events; e != (got{0, "interaction "}) {
		t.Errorf("DM: %+v", e)
	}
	select {
	case e := <-events:
		t.Errorf("an extra event: %+v", e)
	case <-time.After(50 * time.Millisecond):
	}
	mu.Lock()
	defer mu.Unlock()
	for shard, g := range guilds {
		if len(readies[shard]) != 1 || readies[shard][0] != g {
			t.Errorf("READY of shard %d lists %v, want [%s]", shard, readies[shard], g)
		}
	}
}

// TestShardingRequired: a bot in more guilds than one session may handle
// is closed with 4011 when it identifies without sharding; split in two
// shards it connects.
func TestShardingRequired(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithGuildsPerShard(2), fakediscord.WithDefaultGuildOnShard(0, 2))
	srv.AddGuildOnShard("b", 0, 2)
	srv.AddGuildOnShard("c", 1, 2)
	dg := srv.Session("test-token")
	err := dg.Open()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4011 {
		t.Fatalf("unsharded Open = %v, want close 4011", err)
	}
	if r := srv.RefusedIdentifies(); len(r) != 1 || r[0].Code != 4011 || r[0].Shard != [2]int{0, 1} || !strings.Contains(r[0].Reason, "3 guilds") {
		t.Fatalf("refused = %+v", r)
	}
	if op, _, code := rawIdentify(t, srv, nil); code != 4011 || op != 0 {
		t.Errorf("raw unsharded IDENTIFY: op %d, close %d", op, code)
	}
	for shard := 0; shard < 2; shard++ {
		dg := srv.Session("test-token")
		dg.ShardID, dg.ShardCount = shard, 2
		if err := dg.Open(); err != nil {
			t.Fatalf("shard %d: %v", shard, err)
		}
	}
	if n := len(srv.Identifies()); n != 2 {
		t.Errorf("%d sessions identified, want 2", n)
	}
}

func TestInvalidShard(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	for _, shard := range [][2]int{{4, 4}, {-1, 4}, {0, 0}} {
		if _, _, code := rawIdentify(t, srv, &shard); code != 4010 {
			t.Errorf("shard %v: close %d, want 4010", shard, code)
		}
	}
	if n := len(srv.RefusedIdentifies()); n != 3 {
		t.Errorf("%d refusals recorded", n)
	}
}

// TestMaxConcurrency: with max_concurrency 2, shards 0 and 1 (rate-limit
// keys 0 and 1) may identify together; shards 2 and 3 have the same keys
// and are refused with INVALID SESSION until the window has passed.
func TestMaxConcurrency(t *testing.T) {
	t.Parallel()
	const window = 100 * time.Millisecond
	srv := fakediscord.New(t, fakediscord.WithGatewayBot(4, 2), fakediscord.WithIdentifyWindow(time.Hour), fakediscord.AllowViolations())
	for shard := 0; shard < 4; shard++ {
		op, event, code := rawIdentify(t, srv, &[2]int{shard, 4})
		switch {
		case shard < 2 && (op != 0 || event != "READY"):
			t.Errorf("shard %d: op %d %s close %d, want READY", shard, op, event, code)
		case shard >= 2 && op != 9:
			t.Errorf("shard %d: op %d %s close %d, want INVALID SESSION", shard, op, event, code)
		}
	}
	if r := srv.RefusedIdentifies(); len(r) != 2 || r[0].Code != 9 || r[0].Shard != [2]int{2, 4} || r[1].Shard != [2]int{3, 4} {
		t.Fatalf("refused = %+v", r)
	}
	if v := srv.Violations(); len(v) != 2 || !strings.Contains(v[0].String(), "IDENTIFY") {
		t.Errorf("violations = %v", v)
	}

	// A short window: the next bucket is accepted once it has passed.
	srv = fakediscord.New(t, fakediscord.WithGatewayBot(2, 1), fakediscord.WithIdentifyWindow(window))
	if op, _, _ := rawIdentify(t, srv, &[2]int{0, 2}); op != 0 {
		t.Fatalf("shard 0: op %d", op)
	}
	srv.Advance(window) // the fake's clock, past the window
	if op, event, _ := rawIdentify(t, srv, &[2]int{1, 2}); event != "READY" {
		t.Fatalf("shard 1 after the window: op %d %s", op, event)
	}
}
