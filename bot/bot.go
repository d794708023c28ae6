// Package bot is the Discord transport: slash commands, autocomplete and
// buttons, through discordgo (its only importer). Every command is handled
// by the transport-free service; this package only translates.
package bot

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/delivery"
	"tessera/service"
)

// Options configure a Bot.
type Options struct {
	Token   string
	GuildID string // register commands on this guild only; "" = globally
	Logger  *slog.Logger
	// Configure is called on the session before it opens (tests point it
	// at a fake Discord here).
	Configure func(*discordgo.Session)
	// DeferAfter is how long after Discord made an interaction the bot
	// defers the answer of a command still running (Discord wants a
	// first answer within 3 s of then; deadline.go). Default 1.5 s.
	DeferAfter time.Duration
	// AutocompleteBy is how long after Discord made an autocomplete the
	// bot answers with the choices ready, none if they are not (an
	// autocomplete cannot be deferred). Default 2 s.
	AutocompleteBy time.Duration
	// Now is the clock the interactions' ages are read on (default
	// time.Now; tests give the fake Discord's).
	Now func() time.Time
	// PlainText lets players type moves as plain messages in a game's
	// thread; it needs the privileged message-content intent.
	PlainText bool
	// Shards are the gateway shards this process runs (default: all of
	// those Discord recommends, in one process).
	Shards Shards
	// IdentifyWait is how long the next bucket of shards waits after one
	// has identified (Discord allows max_concurrency IDENTIFYs per 5 s;
	// default 5 s).
	IdentifyWait time.Duration
	// ShardCheckEvery is how often the bot asks Discord again for the
	// recommended number of shards, to warn when it has outgrown its
	// own (default 6 h).
	ShardCheckEvery time.Duration
	// NoGateway runs the bot without a gateway connection, for
	// interactions that arrive over HTTP (Interactions): Open learns the
	// bot's user and registers the commands over REST. Plain-text moves
	// need the gateway, so it cannot be set with PlainText.
	NoGateway bool
	// InteractionsListen (host:port), with InteractionsKey (the
	// application's public key), makes Run serve Discord's interactions
	// over HTTP there (see Interactions).
	InteractionsListen string
	InteractionsKey    ed25519.PublicKey
	// RateLimit is the REST requests' global limit (default Discord's,
	// DefaultRateLimit); the per-route limits come from Discord's answers.
	RateLimit RateLimit
	// Meter receives Discord's 429s and the requests sent again, for the
	// operators' metrics (meter.go; nil: none).
	Meter Meter
	// Commands is the table of commands the bot registers and serves
	// (default service.Commands(); tests give a table of their own).
	Commands []service.Command
}

// Bot serves the service on Discord.
type Bot struct {
	svc     service.Players
	opt     Options
	log     *slog.Logger
	session *discordgo.Session // makes every REST request; the first shard's
	limiter *limiter           // every session's REST requests go through it
	shards  []*shard           // set by Open
	ready   chan struct{}      // closed once the commands are registered
	opened  chan struct{}      // closed once Open has every shard READY
	once    sync.Once
	wg      sync.WaitGroup
	stop    chan struct{} // closed by Close: stops the shard watch and the reconnections
	stopped sync.Once
	loops   sync.WaitGroup // the shard watch
	fatal   chan error     // the first error that ends Run (a refused token)
	refused sync.Once
	inline  sync.Map // *discordgo.Interaction -> *inlineAnswer, while its HTTP response waits
	dms     *dmChannels
	// plainOff: Discord refused the intent plain-text moves need.
	plainOff atomic.Bool
	// oldWarned is when an interaction that arrived too old was last
	// logged (unix nanoseconds; deadline.go).
	oldWarned atomic.Int64
	// reconnects are the gateway reconnections under way; reconnMu
	// orders starting one with closing stop.
	reconnMu   sync.Mutex
	reconnects sync.WaitGroup
	// closes are the gateway closes whose code forbids a RESUME
	// (closecodes.go).
	closes closeRecord
}

// New creates a bot; Open connects it.
func New(svc service.Players, opt Options) (*Bot, error) {
	if opt.Token == "" {
		return nil, errors.New("bot: no token (set DISCORD_TOKEN)")
	}
	if opt.NoGateway && opt.PlainText {
		return nil, errors.New("bot: plain-text moves arrive only over the gateway; keep it, or turn moves.plain_text off")
	}
	if opt.InteractionsListen != "" && len(opt.InteractionsKey) != ed25519.PublicKeySize {
		return nil, errors.New("bot: the interactions endpoint needs the application's public key")
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.DeferAfter == 0 {
		opt.DeferAfter = 1500 * time.Millisecond
	}
	if opt.AutocompleteBy == 0 {
		opt.AutocompleteBy = 2 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if err := opt.Shards.check(); err != nil {
		return nil, err
	}
	if opt.IdentifyWait == 0 {
		opt.IdentifyWait = 5 * time.Second
	}
	if opt.ShardCheckEvery == 0 {
		opt.ShardCheckEvery = 6 * time.Hour
	}
	if opt.Meter == nil {
		opt.Meter = noMeter{}
	}
	if opt.Commands == nil {
		opt.Commands = service.Commands()
	}
	b := &Bot{svc: svc, opt: opt, log: opt.Logger, ready: make(chan struct{}), opened: make(chan struct{}), stop: make(chan struct{}), fatal: make(chan error, 1),
		dms: newDMChannels(svc), limiter: newLimiter(opt.RateLimit)}
	b.limiter.log = opt.Logger
	s, err := b.newSession()
	if err != nil {
		return nil, err
	}
	b.session = s
	return b, nil
}

// newSession is a gateway session with the bot's intents and handlers,
// not yet opened; Open gives it its shard and the READY handler.
func (b *Bot) newSession() (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + b.opt.Token)
	if err != nil {
		return nil, err
	}
	s.Identify.Intents = b.intents()
	s.ShouldReconnectOnError = false // the bot reconnects (reconnect.go)
	s.ShouldRetryOnRateLimit = false // the limiter retries, boundedly (ratelimit.go)
	s.LogLevel = discordgo.LogWarning
	s.AddHandler(b.onInteraction)
	s.AddHandler(b.onChannelUpdate)
	s.AddHandler(b.onRoleUpdate)
	s.AddHandler(b.onDisconnect)
	if b.opt.PlainText {
		s.AddHandler(b.onMessage)
	}
	if b.opt.Configure != nil {
		b.opt.Configure(s)
	}
	b.watchDials(s) // to learn close codes before a RESUME (closecodes.go)
	// One limiter for every session: the courier's posts and the answers
	// to interactions count against the same limits on Discord.
	client := *s.Client
	client.Transport = b.limiter.transport(meterTransport{base: transportOr(client.Transport), m: b.opt.Meter})
	s.Client = &client
	return s, nil
}

// Session is the discordgo session that makes the REST requests, and the
// gateway session of this process's first shard (for tests).
func (b *Bot) Session() *discordgo.Session { return b.session }

// Sink is how the bot posts the service's announcements on Discord: the
// runner's courier delivers through it (runner.Config.Sink), once Opened.
func (b *Bot) Sink() delivery.Sink { return sink{s: b.session, dms: b.dms} }

// Opened is closed once Open has connected every shard and registered the
// commands (runner.Config.Ready: announcements, including those a
// previous run left undelivered, go out from then on).
func (b *Bot) Opened() <-chan struct{} { return b.opened }

// Open connects this process's shards to the gateway (all of them unless
// Options.Shards names some), in the buckets Discord allows; commands are
// registered, once, when the first shard is READY. It waits for every
// shard's READY and the registration, or ctx, then closes Opened. The
// loops that deliver through the bot's Sink, keep the clocks and run the
// computer's moves are not the bot's: the process starts them once
// (runner/, from cmd/tessera), however many shards and transports it
// serves. With NoGateway it asks who the bot is and registers the
// commands over REST instead.
func (b *Bot) Open(ctx context.Context) error {
	if b.opt.NoGateway {
		if err := b.openREST(ctx); err != nil {
			return err
		}
	} else if err := b.openShards(ctx); err != nil {
		return err
	}
	ready := []chan struct{}{b.ready}
	for _, sh := range b.shards {
		ready = append(ready, sh.ready)
	}
	for _, ch := range ready {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	select {
	case <-b.opened:
	default:
		close(b.opened)
	}
	if !b.opt.NoGateway { // without a gateway there are no shards to outgrow
		b.loops.Add(1)
		go b.shardWatch()
	}
	return nil
}

// Close waits for the interactions being handled, stops the shard watch
// and the reconnections, and disconnects. The runner that delivers
// through Sink is its starter's to close (cmd/tessera: once Run
// returns); a delivery it still makes goes over REST, which needs no
// gateway connection.
func (b *Bot) Close() error {
	b.wg.Wait()
	b.stopped.Do(func() {
		b.reconnMu.Lock()
		close(b.stop)
		b.reconnMu.Unlock()
	})
	b.loops.Wait()
	b.reconnects.Wait()
	defer gatewayCloses.forget(b)
	return b.closeSessions()
}

// ErrTokenRefused ends Run when Discord refuses the token (401): it was
// reset or revoked. Nothing pending is lost; a restart with the new token
// delivers it.
var ErrTokenRefused = errors.New("the token was refused: set DISCORD_TOKEN to the new token and restart")

// TokenRefused ends Run with ErrTokenRefused (Run closes the session and
// the process exits, which also ends discordgo's reconnect loop: it reads
// ShouldReconnectOnError unguarded, so that flag is not ours to change
// while it runs); the outbox keeps everything. Both the courier and the
// gateway's disconnect may find out: once is enough. It is the runner's
// Refused: the courier stops at a refused token and says so here.
func (b *Bot) TokenRefused(err error) {
	b.refused.Do(func() {
		b.log.Error(ErrTokenRefused.Error(), "err", err)
		b.endRun(ErrTokenRefused)
	})
}

// endRun makes Run return err, unless an earlier error already ends it.
func (b *Bot) endRun(err error) {
	select {
	case b.fatal <- err:
	default:
	}
}

// Run connects and serves until ctx is done, or until Discord refuses the
// token (then it returns ErrTokenRefused, and the process should exit
// non-zero).
func (b *Bot) Run(ctx context.Context) error {
	ln, err := b.listenInteractions()
	if err != nil {
		return err
	}
	if err := b.Open(ctx); err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	b.log.Info("connected to Discord", "user", b.session.State.User.Username, "gateway", !b.opt.NoGateway, "shards", b.shardList())
	stopHTTP := b.serveInteractions(ln)
	select {
	case <-ctx.Done():
		stopHTTP()
		return b.Close()
	case err := <-b.fatal:
		stopHTTP()
		b.Close()
		return err
	}
}

// onMessage offers a plain message in a game's thread to the service as a
// move; the bot's own messages and other bots are ignored.
func (b *Bot) onMessage(s *discordgo.Session, m *discordgo.MessageCreate) {
	if !b.plainText() {
		return // Discord refused the Message Content intent: no content to read
	}
	if m.Author == nil || m.Author.Bot || m.GuildID == "" {
		return
	}
	name := m.Author.DisplayName()
	if m.Member != nil && m.Member.Nick != "" {
		name = m.Member.Nick
	}
	req := service.Request{User: service.User{ID: m.Author.ID, Name: name}, GuildID: m.GuildID, ChannelID: m.ChannelID, InteractionID: "msg:" + m.ID}
	b.svc.PlainMove(req, m.ID, m.Content)
}

// onReady is called on each shard's READY. Only the first shard's
// registers the commands: a bulk overwrite is idempotent, but one per
// shard would be the same request again and again.
func (b *Bot) onReady(sh *shard, s *discordgo.Session, r *discordgo.Ready) {
	defer sh.once.Do(func() { close(sh.ready) })
	if s != b.session {
		// Challenging the bot itself is playing the AI: the service must
		// know the bot's id before the first interaction.
		b.svc.SetBot(service.User{ID: r.User.ID, Name: r.User.DisplayName()})
		return
	}
	b.introduce(r.User)
}

// introduce tells the service who the bot is and registers the commands;
// then Open may go on.
func (b *Bot) introduce(u *discordgo.User) {
	// Challenging the bot itself is playing the AI: the service must know
	// the bot's id before the first interaction.
	b.svc.SetBot(service.User{ID: u.ID, Name: u.DisplayName()})
	cmds, err := b.session.ApplicationCommandBulkOverwrite(u.ID, b.opt.GuildID, slashCommands(b.opt.Commands))
	if err != nil {
		b.log.Error("registering slash commands failed", "err", err)
	} else {
		b.log.Info("slash commands registered", "count", len(cmds), "guild", b.opt.GuildID)
	}
	b.once.Do(func() { close(b.ready) })
}

// request builds the service request of an interaction, on its context.
func request(ctx context.Context, i *discordgo.Interaction) service.Request {
	r := service.Request{User: interactionUser(i), GuildID: i.GuildID, ChannelID: i.ChannelID, InteractionID: i.ID,
		ManageServer: i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0}
	return r.WithContext(ctx)
}

func interactionUser(i *discordgo.Interaction) service.User {
	switch {
	case i.Member != nil && i.Member.User != nil:
		return service.User{ID: i.Member.User.ID, Name: i.Member.DisplayName()}
	case i.User != nil:
		return service.User{ID: i.User.ID, Name: i.User.DisplayName()}
	}
	return service.User{}
}

func (b *Bot) onInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	b.handle(ic.Interaction)
}

// handle answers an interaction, whichever transport brought it: the
// gateway (onInteraction) or an HTTP POST (webhook.go). Its first answer
// goes through initial; everything after it is REST on the interaction's
// token either way.
func (b *Bot) handle(i *discordgo.Interaction) {
	// The interaction's context: Close waits for the interactions under
	// way (wg) instead of cancelling them, so a move in flight is
	// finished; the database's own timeout bounds each query.
	ctx := context.Background()
	b.wg.Add(1)
	defer b.wg.Done()
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic handling an interaction", "panic", p, "stack", string(debug.Stack()))
			if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
				// An autocomplete may only be answered with choices (type 8).
				b.initial(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
					Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}})
				return
			}
			b.respond(ctx, i, b.svc.Fail(fmt.Errorf("panic: %v", p)), notDeferred)
		}
	}()
	switch i.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		b.autocomplete(ctx, i)
	case discordgo.InteractionApplicationCommand:
		b.command(ctx, i)
	case discordgo.InteractionMessageComponent:
		req := request(ctx, i)
		id := i.MessageComponentData().CustomID
		// The table says which answers are for everyone (accepting a
		// challenge starts a game all can see).
		action, _ := service.ButtonFor(id)
		public := action.Public
		b.answer(ctx, i, public, func() (service.Reply, error) { return b.svc.Click(req, id) })
	}
}

// resolvedName is a user option's display name.
func resolvedName(data discordgo.ApplicationCommandInteractionData, id string) string {
	name := id
	if data.Resolved != nil {
		if du := data.Resolved.Users[id]; du != nil {
			name = du.DisplayName()
		}
		if m := data.Resolved.Members[id]; m != nil && m.Nick != "" {
			name = m.Nick
		}
	}
	return name
}

func (b *Bot) autocomplete(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	req := request(ctx, i)
	c, ok := b.lookup(data.Name)
	if !ok {
		b.initialChoices(i, nil)
		return
	}
	// The option typed in is among the subcommand's options.
	inv, refusal := invoked(c, data)
	if refusal != "" {
		b.initialChoices(i, nil)
		return
	}
	// The choices are found beside, so that the answer goes by its
	// deadline with what is ready: none, when they are not.
	ready := make(chan []service.Choice, 1)
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("panic completing an option", "panic", p, "stack", string(debug.Stack()))
				ready <- nil
			}
		}()
		ready <- b.complete(req, inv, data)
	}()
	var choices []service.Choice
	if wait := b.untilAutocomplete(i); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case choices = <-ready:
		case <-t.C:
			b.log.Warn("autocomplete: no choices ready by its deadline; answered with none", "command", data.Name)
		}
	} else {
		select {
		case choices = <-ready:
		default:
			b.log.Warn("autocomplete: arrived past its deadline; answered with what was ready (none)", "command", data.Name)
		}
	}
	b.initialChoices(i, choices)
}

// complete suggests values for the option a player is typing in.
func (b *Bot) complete(req service.Request, inv invocation, data discordgo.ApplicationCommandInteractionData) []service.Choice {
	var focused *discordgo.ApplicationCommandInteractionDataOption
	for _, o := range inv.Values {
		if o.Focused {
			focused = o
		}
	}
	if focused == nil {
		return nil
	}
	o, ok := inv.Option(focused.Name)
	if !ok || o.Complete == nil {
		return nil
	}
	// What is typed, and the game it is typed for, are text:
	// StringValue panics on another type (no client sends one),
	// and handle answers the panic with no choices.
	typed := focused.StringValue()
	in, _ := b.args(inv, data)
	if in == nil {
		in = service.Args{}
	}
	delete(in, focused.Name) // the others' values
	if g := dataOption(inv.Values, "game"); g != nil && !g.Focused {
		in["game"] = g.StringValue()
	}
	return b.svc.CompleteOption(req, o, in, typed)
}

// initialChoices answers an autocomplete with at most MaxChoices choices.
func (b *Bot) initialChoices(i *discordgo.Interaction, choices []service.Choice) {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(choices))
	for _, c := range choices {
		if len(out) == service.MaxChoices {
			break
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: service.Render(c.Name, service.Plain{}), Value: c.Value})
	}
	err := retry5xx(func() error {
		return b.initial(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: out},
		})
	})
	if err != nil {
		b.log.Warn("autocomplete answer failed", "err", err)
	}
}

// command runs a slash command by the service's table of commands, or
// the subcommand it names.
func (b *Bot) command(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	req := request(ctx, i)
	c, ok := b.lookup(data.Name)
	if !ok {
		b.answer(ctx, i, false, func() (service.Reply, error) {
			return service.Reply{Text: "I do not know that command; try /rules.", Ephemeral: true}, nil
		})
		return
	}
	inv, refusal := invoked(c, data)
	if refusal == "" && inv.ServerOnly && i.GuildID == "" {
		// Discord offers the command here for its other subcommands.
		refusal = "/" + inv.Path + " works in a server channel, not in direct messages."
	}
	if refusal != "" {
		b.respond(ctx, i, service.Reply{Text: refusal, Ephemeral: true}, notDeferred)
		return
	}
	if inv.MakesThread {
		if why := b.missingPermissions(i); why != "" {
			b.respond(ctx, i, service.Reply{Text: why, Ephemeral: true}, notDeferred)
			return
		}
	}
	in, refusal := b.args(inv, data)
	if refusal != "" {
		b.respond(ctx, i, service.Reply{Text: refusal, Ephemeral: true}, notDeferred)
		return
	}
	if inv.Run == nil { // a table's mistake, not the player's
		b.respond(ctx, i, b.svc.Fail(fmt.Errorf("/%s has no Run", inv.Path)), notDeferred)
		return
	}
	b.answer(ctx, i, inv.Public, func() (service.Reply, error) { return b.svc.RunCommand(req, inv.Command, in) })
}

// lookup finds a command of the bot's table by name.
func (b *Bot) lookup(name string) (service.Command, bool) {
	for _, c := range b.opt.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return service.Command{}, false
}

// Presenter is Discord's: mentions ("<@id>"), jump links, timestamps
// every reader sees in their own zone, and Discord's wording (the
// service's default). The bot renders every reply, and the courier every
// post, through it.
type Presenter struct{}

// Mention is Mention.
func (Presenter) Mention(u service.User) string { return Mention(u) }

// Link is Link.
func (Presenter) Link(guildID, channelID string) string { return Link(guildID, channelID) }

// Stamp is Stamp.
func (Presenter) Stamp(t time.Time, loc *time.Location) string { return Stamp(t, loc) }

// Wording is Discord's.
func (Presenter) Wording() service.Wording { return service.Plain{}.Wording() }

// Mention is how Discord mentions a user.
func Mention(u service.User) string {
	if u.ID == "" || strings.ContainsFunc(u.ID, func(r rune) bool { return r < '0' || r > '9' }) {
		return "@" + u.Name
	}
	return "<@" + u.ID + ">"
}

// retry5xx retries a request that Discord answered with a server error
// (discordgo itself retries only 502 and 429), a few times with a short
// back-off that stays inside the 3-second answer window. A request that
// did reach Discord is refused the second time (already acknowledged), so
// nothing is sent twice.
func retry5xx(do func() error) error {
	var err error
	for attempt, wait := 0, 150*time.Millisecond; attempt < 3; attempt, wait = attempt+1, wait*2 {
		err = do()
		var re *discordgo.RESTError
		if err == nil || !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode < 500 {
			return err
		}
		time.Sleep(wait)
	}
	return err
}

// Link is a jump link to a channel or thread.
func Link(guildID, channelID string) string {
	if guildID == "" {
		guildID = "@me"
	}
	return "https://discord.com/channels/" + guildID + "/" + channelID
}

// Stamp is a Discord timestamp: every reader sees it in their own time
// zone and language.
func Stamp(t time.Time, _ *time.Location) string {
	return fmt.Sprintf("<t:%d:f>", t.Unix())
}
