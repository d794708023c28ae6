package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// shard is one gateway session of this process.
type shard struct {
	id      int
	mu      sync.Mutex
	session *discordgo.Session // replaced when Discord refuses its intents (reconnect.go)
	ready   chan struct{}      // closed on the session's first READY
	once    sync.Once
	// closeMark: the bot's closes that forbid a RESUME (closecodes.go)
	// counted when this shard last connected.
	closeMark int
}

func (sh *shard) mark() int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.closeMark
}

func (sh *shard) setMark(m int) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.closeMark = m
}

func (sh *shard) get() *discordgo.Session {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.session
}

func (sh *shard) set(s *discordgo.Session) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.session = s
}

// ErrShardingRequired ends Open when Discord closes the gateway with 4011:
// the bot is in too many guilds for the number of shards it asked for.
var ErrShardingRequired = errors.New("sharding required (gateway close code 4011): the bot is in too many guilds for its number of shards")

// ErrInvalidShard ends Open when Discord closes the gateway with 4010.
var ErrInvalidShard = errors.New("invalid shard (gateway close code 4010)")

// check refuses shards no process could run.
func (sh Shards) check() error {
	if sh.Count < 0 || sh.Count > MaxShards {
		return fmt.Errorf("bot: shard count %d: give from 1 to %d, or 0 for Discord's recommendation", sh.Count, MaxShards)
	}
	if len(sh.IDs) > 0 && sh.Count == 0 {
		return errors.New("bot: shard ids need a shard count")
	}
	for i, id := range sh.IDs {
		if id < 0 || id >= sh.Count || i > 0 && id <= sh.IDs[i-1] {
			return fmt.Errorf("bot: shard ids %v: give distinct ids from 0 to %d, ascending", sh.IDs, sh.Count-1)
		}
	}
	return nil
}

// openShards asks Discord for the recommended shard count and the
// identify concurrency (GET /gateway/bot), makes one session per shard of
// this process and identifies them bucket by bucket: the shards of a
// bucket at once, then IdentifyWait before the next (Discord:
// max_concurrency IDENTIFYs per 5 s, "you must start them by bucket in
// order"). The wait starts once the bucket is READY, so it is at least
// as long as Discord's window whatever the network's delay.
//
// Processes that share the shards keep to one schedule (below); it holds
// for processes started within a second or so of each other (at 5 s
// windows), not for one started at an arbitrary moment while another
// is still identifying.
func (b *Bot) openShards(ctx context.Context) error {
	start := time.Now()
	count, maxConcurrency := b.opt.Shards.Count, 1
	gb, err := b.session.GatewayBot(discordgo.WithContext(ctx))
	switch {
	case err != nil && classifyRefused(err):
		b.log.Error(ErrTokenRefused.Error(), "err", err)
		return ErrTokenRefused
	case err != nil && count == 0:
		return fmt.Errorf("ask Discord for the recommended number of shards (GET /gateway/bot): %w", err)
	case err != nil:
		b.log.Warn("could not ask Discord for max_concurrency (GET /gateway/bot); identifying one shard at a time", "err", err)
	default:
		if count == 0 {
			count = max(gb.Shards, 1)
		}
		maxConcurrency = max(gb.SessionStartLimit.MaxConcurrency, 1)
	}
	ids := b.opt.Shards.ids(count)
	if err == nil {
		// Discord resets the token of a bot that uses up its session
		// starts: better not to start at all.
		if l := gb.SessionStartLimit; l.Total > 0 && l.Remaining < len(ids) {
			return fmt.Errorf("only %d of Discord's %d session starts a day are left (the count resets in %v) and this process needs %d: wait, or run fewer shards",
				l.Remaining, l.Total, time.Duration(l.ResetAfter)*time.Millisecond, len(ids))
		}
		if count != gb.Shards && b.opt.Shards.Count != 0 {
			b.log.Info("running the configured number of shards, not Discord's recommendation", "count", count, "recommended", gb.Shards)
		}
	}

	byID := map[int]*shard{}
	b.shards = nil
	for i, id := range ids {
		s := b.session
		if i > 0 {
			if s, err = b.newSession(); err != nil {
				return err
			}
		}
		s.ShardID, s.ShardCount = id, count
		sh := &shard{id: id, session: s, ready: make(chan struct{})}
		s.AddHandler(func(s *discordgo.Session, r *discordgo.Ready) { b.onReady(sh, s, r) })
		b.shards = append(b.shards, sh)
		byID[id] = sh
	}
	// Bucket k (shards k*maxConcurrency and up) has its slot k slots after
	// the start, in whichever process runs it, so that processes that
	// share the shards and start together (a deploy) never identify two
	// shards of one rate-limit key at once: Discord would answer INVALID
	// SESSION, and discordgo answers that with another IDENTIFY at once,
	// again and again until the window has passed. A slot is a fifth
	// longer than Discord's window, room for a connection's delays, so
	// that one slow READY does not push every later bucket of the process
	// into the next process's slots. Within the process a bucket also
	// waits IdentifyWait after the last one was READY, however late.
	slotLen := b.opt.IdentifyWait + b.opt.IdentifyWait/5
	var lastReady time.Time
	for _, bucket := range identifyBuckets(ids, maxConcurrency) {
		at := start.Add(time.Duration(bucket[0]/maxConcurrency) * slotLen)
		if !lastReady.IsZero() && lastReady.Add(b.opt.IdentifyWait).After(at) {
			at = lastReady.Add(b.opt.IdentifyWait)
		}
		if wait := time.Until(at); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		errs := make([]error, len(bucket))
		var wg sync.WaitGroup
		for k, id := range bucket {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[k] = b.openShard(byID[id])
			}()
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				b.closeSessions()
				return b.shardFailed(bucket[k], count, err)
			}
		}
		lastReady = time.Now()
		if count > 1 {
			b.log.Info("shards connected", "shards", bucket, "count", count)
		}
	}
	return nil
}

// shardWatch asks Discord now and then how many shards the bot should
// run, and warns when that is more than it runs. Discord counts a shard's
// guilds when it identifies, so a shard past 2,500 guilds is closed with
// 4011 at its next IDENTIFY (a restart, or a reconnect after Discord
// invalidated the session), and discordgo retries that forever, an
// IDENTIFY every few seconds: the host should restart with more shards
// before then.
func (b *Bot) shardWatch() {
	defer b.loops.Done()
	if len(b.shards) == 0 {
		return
	}
	count := b.shards[0].get().ShardCount
	t := time.NewTicker(b.opt.ShardCheckEvery)
	defer t.Stop()
	warned := count
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
		}
		gb, err := b.session.GatewayBot()
		switch {
		case err != nil:
			b.log.Debug("asking Discord for the recommended number of shards failed", "err", err)
		case gb.Shards > warned:
			warned = gb.Shards
			b.log.Warn("Discord now recommends more shards than the bot runs: restart it with shards left out of the configuration, "+
				"or with a higher shards.count (TESSERA_SHARDS) in every process, before a shard passes 2,500 guilds and Discord refuses it (close code 4011)",
				"recommended", gb.Shards, "count", count)
		}
	}
}

// shardFailed explains a shard that could not connect; the close codes
// that a configuration change cures get a line that says which.
func (b *Bot) shardFailed(id, count int, err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		switch ce.Code {
		case 4011:
			b.log.Error("Discord closed the gateway with 4011, sharding required: the bot is in too many guilds for "+
				fmt.Sprint(count)+" shard(s). Leave shards out of the configuration so that the bot runs as many as Discord recommends, "+
				"or set shards.count (TESSERA_SHARDS) higher; each shard may handle up to 2,500 guilds", "shard", id, "count", count)
			return fmt.Errorf("%w: shard %d of %d", ErrShardingRequired, id, count)
		case 4010:
			b.log.Error("Discord closed the gateway with 4010, invalid shard: a bot in very many guilds must run a multiple of the shard count Discord assigned it. "+
				"Leave shards.count out of the configuration (TESSERA_SHARDS) so that the bot runs the count Discord recommends", "shard", id, "count", count)
			return fmt.Errorf("%w: shard %d of %d", ErrInvalidShard, id, count)
		case 4004:
			b.log.Error(ErrTokenRefused.Error(), "err", err)
			return ErrTokenRefused
		}
	}
	if count == 1 {
		return fmt.Errorf("connect to Discord: %w", err)
	}
	return fmt.Errorf("connect shard %d of %d to Discord: %w", id, count, err)
}

// sessions are the gateway sessions of this process, the REST one first.
func (b *Bot) sessions() []*discordgo.Session {
	if len(b.shards) == 0 {
		return []*discordgo.Session{b.session}
	}
	out := make([]*discordgo.Session, len(b.shards))
	for i, sh := range b.shards {
		out[i] = sh.get()
	}
	return out
}

// Sessions are this process's gateway sessions, one per shard (for tests).
func (b *Bot) Sessions() []*discordgo.Session { return b.sessions() }

// closeSessions disconnects every shard, at once: discordgo's Close
// waits a second for Discord's answer.
func (b *Bot) closeSessions() error {
	ss := b.sessions()
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// shardList is the running shards in TESSERA_SHARDS's form, for the log.
func (b *Bot) shardList() string {
	sh := Shards{Count: 1}
	for _, x := range b.shards {
		sh.IDs = append(sh.IDs, x.id)
		sh.Count = x.get().ShardCount
	}
	return sh.String()
}
