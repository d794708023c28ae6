package bot

import (
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// The bot reconnects its gateway sessions itself (discordgo's
// ShouldReconnectOnError is off): discordgo's loop retries every failure
// forever and never says why, while the close codes Discord documents as
// not to be reconnected with the same IDENTIFY need an answer: 4004 (the
// token was reset) ends Run, and 4013 and 4014 (an invalid or disallowed
// intent: the Message Content intent that plain-text moves need is
// privileged, and Discord's approval of it lapses unless the app applies
// again each year) make the bot go on without plain-text moves, so that
// the slash commands keep working.

// reconnectWait bounds the wait between two failed reconnects (discordgo
// waits as long).
const reconnectWait = 10 * time.Minute

// intents are the gateway intents the bot identifies with.
func (b *Bot) intents() discordgo.Intent {
	in := discordgo.IntentsGuilds
	if b.plainText() {
		in |= discordgo.IntentsGuildMessages | discordgo.IntentMessageContent
	}
	return in
}

// plainText reports whether plain-text moves are on: configured, and
// Discord has not refused the intent they need.
func (b *Bot) plainText() bool { return b.opt.PlainText && !b.plainOff.Load() }

// intentClosed is the code of a gateway closed for its intents (4013
// invalid, 4014 disallowed), 0 for any other error.
func intentClosed(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) && (ce.Code == 4013 || ce.Code == 4014) {
		return ce.Code
	}
	return 0
}

// dropPlainText answers a session Discord closed for its intents: plain-
// text moves go off (they need the refused Message Content intent) and
// the first time it is said, once, what to change. It reports whether
// the session asked for that intent: one without it that is refused
// anyway cannot do better by trying again.
func (b *Bot) dropPlainText(s *discordgo.Session, code int, shard int) bool {
	if s.Identify.Intents&discordgo.IntentMessageContent == 0 {
		return false
	}
	if b.plainOff.CompareAndSwap(false, true) {
		b.log.Error("Discord closed the gateway with "+closeName(code)+": plain-text moves need the privileged Message Content intent, "+
			"which the application may not use. Turn it on under Privileged Gateway Intents on the Bot page of the Developer Portal "+
			"(an application in 100 or more servers needs Discord's approval, renewed each year) and restart, "+
			"or set moves.plain_text to false. Until then the bot runs without plain-text moves; slash commands work",
			"code", code, "shard", shard)
	}
	return true
}

func closeName(code int) string {
	if code == 4013 {
		return "4013 (invalid intents)"
	}
	return "4014 (disallowed intents)"
}

// openShard opens a shard's session; when Discord refuses its intents it
// opens again without plain-text moves, IdentifyWait later (the refused
// IDENTIFY counts against Discord's max_concurrency).
func (b *Bot) openShard(sh *shard) error {
	s := sh.get()
	s.Identify.Intents = b.intents()
	sh.setMark(b.closeMark())
	err := s.Open()
	if code := intentClosed(err); code != 0 && b.dropPlainText(s, code, sh.id) {
		select {
		case <-time.After(b.opt.IdentifyWait):
		case <-b.stop:
			return err
		}
		s.Identify.Intents = b.intents()
		err = s.Open()
	}
	return err
}

// reconnect brings a shard's dropped session back, until it is connected
// or the bot closes: RESUME on the same session (discordgo does that), at
// once and then after 1 s, 2 s, ... up to reconnectWait. If Discord
// refuses the session's intents it starts a new session (a RESUME keeps
// the intents it was identified with) without plain-text moves. When
// Discord closed the connection with a code that forbids a RESUME
// (closecodes.go), that code is answered as if the RESUME had been
// refused with it, and no RESUME is sent.
func (b *Bot) reconnect(sh *shard, s *discordgo.Session) {
	wait := time.Second
	for {
		select {
		case <-b.stop:
			return
		default:
		}
		var err error
		closed, mark := b.closedSince(sh.mark())
		sh.setMark(mark)
		if closed != nil && (closed.Code == 4013 || closed.Code == 4014) && s.Identify.Intents&discordgo.IntentMessageContent == 0 {
			closed = nil // refused intents this session never asked for
		}
		if closed != nil {
			err = closed
		} else {
			err = s.Open()
		}
		var ce *websocket.CloseError
		switch {
		case err == nil || errors.Is(err, discordgo.ErrWSAlreadyOpen):
			return
		case errors.As(err, &ce) && ce.Code == 4004:
			b.TokenRefused(err)
			return
		case errors.As(err, &ce) && (ce.Code == 4010 || ce.Code == 4011 || ce.Code == 4012):
			// Discord: do not reconnect (invalid shard, sharding
			// required, invalid API version); the same IDENTIFY would be
			// refused again, each try spending a session start. Say what
			// to change and end Run, so the host sees it.
			b.endRun(b.shardFailed(sh.id, s.ShardCount, err))
			return
		case intentClosed(err) != 0 && b.dropPlainText(s, intentClosed(err), sh.id):
			ns, nerr := b.newShardSession(sh, s)
			if nerr != nil {
				b.log.Error("making a new gateway session failed", "shard", sh.id, "err", nerr)
				return
			}
			s = ns
			select {
			case <-time.After(b.opt.IdentifyWait):
			case <-b.stop:
				return
			}
			continue
		}
		b.log.Warn("reconnecting to the gateway failed", "shard", sh.id, "err", err, "next try in", wait)
		select {
		case <-time.After(wait):
		case <-b.stop:
			return
		}
		wait = min(2*wait, reconnectWait)
	}
}

// newShardSession replaces a shard's session by a new one with the bot's
// intents of now, not yet opened. The old one stays closed (the first
// shard's also goes on making the REST requests).
func (b *Bot) newShardSession(sh *shard, old *discordgo.Session) (*discordgo.Session, error) {
	s, err := b.newSession()
	if err != nil {
		return nil, err
	}
	s.ShardID, s.ShardCount = old.ShardID, old.ShardCount
	s.AddHandler(func(s *discordgo.Session, r *discordgo.Ready) { b.onReady(sh, s, r) })
	sh.set(s)
	return s, nil
}

// onDisconnect runs when a gateway session drops (not when the bot closes
// it): it checks the token, since a reset token closes the gateway with
// 4004 (one REST request tells a refused token, 401, from a network
// failure, so a bot with nothing to deliver stops too), and reconnects.
func (b *Bot) onDisconnect(s *discordgo.Session, _ *discordgo.Disconnect) {
	b.reconnMu.Lock()
	select {
	case <-b.stop:
		b.reconnMu.Unlock()
		return // closing
	default:
	}
	b.reconnects.Add(1)
	b.reconnMu.Unlock()
	defer b.reconnects.Done()
	if _, err := s.User("@me"); err != nil && classifyRefused(err) {
		b.TokenRefused(err)
		return
	}
	for _, sh := range b.shards {
		if sh.get() == s {
			select {
			case <-sh.ready:
				b.reconnect(sh, s)
			default:
				// Never connected: Open is still trying this session, and
				// reports (or retries) what closed it. Reconnecting here
				// too would IDENTIFY twice for one refusal.
			}
			return
		}
	}
}
