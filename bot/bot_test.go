package bot_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/internal/wake"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// patience bounds every wait in the end-to-end tests. Passing tests take
// a few seconds; under -race on a busy machine one board can take several,
// and a wait only runs this long when something is wrong. It is Slowdown
// times longer under the race detector.
const patience = time.Minute * fakediscord.Slowdown

// world is a bot connected to a fake Discord, with two players.
type world struct {
	srv     *fakediscord.Server
	bot     *bot.Bot
	store   *watch.Store // the service's, so that waits wake on its writes
	svc     *service.Service
	opt     bot.Options
	loops   runner.Config // the intervals of the loops beside the bot (zero: 20 ms)
	stop    func()        // closes the loops beside the bot
	ana, bo *discordgo.User
	thread  string // the game's thread, once made
	clock   *fakeClock
	logs    *logBuffer
}

// logBuffer keeps the bot's log for assertions (and sends it to the test's log).
type logBuffer struct {
	t       *testing.T
	mu      sync.Mutex
	b       strings.Builder
	changes wake.Signal // woken by each line written
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.b.Write(p)
	l.mu.Unlock()
	l.changes.Wake()
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// waitLine waits until the log has a line containing s, woken by each
// line the bot logs.
func (l *logBuffer) waitLine(t *testing.T, s string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if l.changes.WaitFor(ctx, func() bool { return l.count(s) > 0 }) != nil {
		t.Fatalf("no log line with %q within %v", s, patience)
	}
}

// String is the whole log so far.
func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// count is how many log lines contain s.
func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

// fakeClock is the service's clock in these tests: it stands still until
// a test moves it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newWorld is what every world has before its bot: the fake Discord, a
// store in a temporary file, the logs, the clock and the service.
func newWorld(t *testing.T, opt bot.Options, fopts ...fakediscord.Option) (*world, *slog.Logger) {
	t.Helper()
	srv := fakediscord.New(t, fopts...)
	st := tempStore(t)
	logs := &logBuffer{t: t}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	clock := &fakeClock{now: time.Now().UTC()}
	w := &world{srv: srv, store: st, svc: newService(st, logger, clock.Now), opt: opt, ana: srv.User, clock: clock, logs: logs}
	return w, logger
}

// tempStore is a new store in a temporary file, closed after the test
// (after the bot's cleanup, registered later), which wakes waitStore.
func tempStore(t *testing.T) *watch.Store {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return watch.New(st)
}

func start(t *testing.T, opt bot.Options, fopts ...fakediscord.Option) *world {
	t.Helper()
	w, logger := newWorld(t, opt, fopts...)
	w.begin(t, opt, logger)
	return w
}

// begin starts the world's bot on its service, and adds bo.
func (w *world) begin(t *testing.T, opt bot.Options, logger *slog.Logger) {
	t.Helper()
	srv := w.srv
	opt.Token = "test-token"
	opt.Configure = srv.Configure
	opt.Logger = logger
	opt.RateLimit = fakeLimit(srv)
	if opt.AutocompleteBy == 0 {
		// Choices found late on a busy machine still reach the test (the
		// fake records the late answer, deadline.go); the tests of the
		// autocomplete deadline set their own.
		opt.AutocompleteBy = time.Minute
	}
	w.opt = opt
	w.launch(t, opt.Token)
	w.bo = srv.AddUser("bo")
}

// fakeLimit is the bot's global limit for the fake: the fake's (its
// clock runs faster than Discord's), where the bot's default would hold it
// to Discord's 50 per second.
func fakeLimit(srv *fakediscord.Server) bot.RateLimit {
	l := srv.RateLimits()
	return bot.RateLimit{Global: l.Global, Window: l.GlobalWindow}
}

// launch starts a bot with the token on the world's store and service.
func (w *world) launch(t *testing.T, token string) {
	t.Helper()
	opt := w.opt
	opt.Token = token
	b, err := bot.New(w.svc, opt)
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
	w.stop = startLoops(t, b, w.svc, w.opt.Logger, w.loops)
	w.bot = b
}

// close stops the world's bot as its process would: the loops beside it,
// then the bot.
func (w *world) close() {
	w.stop()
	w.bot.Close()
}

func (w *world) respond(t *testing.T, ib *fakediscord.InteractionBuilder) fakediscord.InteractionResponse {
	t.Helper()
	sent := ib.Send(t)
	// Wait for the final content: the callback, or the edit of a deferral.
	return w.srv.WaitInteraction(t, sent.ID, func(r fakediscord.InteractionResponse) bool {
		if !r.Acknowledged {
			return false
		}
		if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			return final(r) != nil && final(r).Flags&discordgo.MessageFlagsLoading == 0 &&
				final(r).Content != "Answered privately." && final(r).Content != "Done; see the channel."
		}
		return true
	}, patience)
}

// final is the message that holds a deferred answer: the last follow-up,
// or the loading message edited.
func final(r fakediscord.InteractionResponse) *fakediscord.Message {
	if len(r.Followups) > 0 {
		return r.Followups[len(r.Followups)-1]
	}
	return r.Original
}

// text is the content a player sees for a response.
func text(r fakediscord.InteractionResponse) string {
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return r.Data.Content
	}
	return final(r).Content
}

func ephemeral(r fakediscord.InteractionResponse) bool {
	if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return final(r) != nil && final(r).Flags&discordgo.MessageFlagsEphemeral != 0
	}
	return r.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

// buttons are the custom ids of the buttons a response shows.
func buttons(r fakediscord.InteractionResponse) []string {
	var comps []discordgo.MessageComponent
	switch {
	case r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource:
		comps = r.Data.Components
	case final(r) != nil:
		comps = final(r).Components
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
	switch {
	case len(r.Files) > 0:
		return r.Files
	case final(r) != nil: // a deferred answer
		return final(r).Files
	}
	return nil
}

// newGame challenges bo to Elemental and has him accept; the game's thread
// is made from the challenge message, with the status message first.
func (w *world) newGame(t *testing.T, extra ...fakediscord.Opt) {
	t.Helper()
	opts := append([]fakediscord.Opt{fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID), fakediscord.Str("options", "borders=RBGY")}, extra...)
	r := w.respond(t, w.srv.Slash("new", opts...).By(w.ana))
	if !strings.Contains(text(r), "<@"+w.bo.ID+">") || len(buttons(r)) != 3 {
		t.Fatalf("challenge: %q", text(r))
	}
	if am := w.answerMentions(t, r); am == nil || len(am.Users) != 1 || am.Users[0] != w.bo.ID {
		t.Fatalf("the challenge must ping only bo: %+v", am)
	}
	if r.Original == nil {
		t.Fatal("no challenge message")
	}
	challenge := r.Original.ID
	r = w.respond(t, w.srv.Button("accept:1").By(w.bo))
	if !strings.Contains(text(r), "begins in its own thread") {
		t.Fatalf("accept: %q", text(r))
	}
	// The thread starts from the challenge message (and so has its id)
	// unless bo accepted before the bot had recorded that message.
	w.thread = w.threadOf(t, 1)
	if w.thread != challenge && len(w.srv.RequestsTo("POST /channels/*/messages/*/threads")) > 0 {
		t.Fatalf("thread %s, not the challenge message %s", w.thread, challenge)
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "<@"+w.ana.ID+">, your turn") }, 0)
	if ch := w.srv.Channel(w.thread); ch == nil || !strings.Contains(ch.Name, "#1 Elemental Connection: alice vs bo") {
		t.Fatalf("thread: %+v", ch)
	}
	w.settle(t)
	msgs := w.srv.Messages(w.thread)
	if len(msgs) < 2 || !strings.Contains(msgs[0].Content, "game #1: alice vs bo") || len(msgs[0].Attachments) != 1 {
		t.Fatalf("the status message comes first, with the board: %+v", msgs)
	}
}

// waitStore waits until cond holds, looking again after each write to
// the world's store; false when patience ran out first (the deadline only
// bounds a hang: the verdict is cond's).
func (w *world) waitStore(t *testing.T, cond func() bool) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	return w.store.WaitFor(ctx, cond) == nil
}

// threadOf waits until the game's thread is made and returns its id.
func (w *world) threadOf(t *testing.T, id uint64) string {
	t.Helper()
	thread := ""
	if !w.waitStore(t, func() bool {
		if g, err := w.store.Game(t.Context(), id); err == nil {
			thread = g.ThreadID
		}
		return thread != ""
	}) {
		t.Fatal("no thread made for the game")
	}
	return thread
}

// status is the game's status message (the thread's first message).
func (w *world) status(t *testing.T) *fakediscord.Message {
	t.Helper()
	return w.srv.Messages(w.thread)[0]
}

// play moves as u inside the game's thread (no game: option) and waits for
// the move's post, which it returns.
func (w *world) play(t *testing.T, u *discordgo.User, move string) *fakediscord.Message {
	t.Helper()
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(u).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "You played `"+move+"`") {
		t.Fatalf("%s plays %q: %q", u.Username, move, text(r))
	}
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+move+"`") }, 0)
	w.settle(t)
	return post
}

// settle waits until the bot delivered every announcement it owes. Its
// patience is for progress, not for the whole: it fails only when the
// outbox has not shrunk for that long, so that a long backlog on a busy
// machine (a whole game against the AI) is waited for as long as it
// moves.
func (w *world) settle(t *testing.T) {
	t.Helper()
	n, last := -1, -1
	for {
		if !w.waitStore(t, func() bool {
			var err error
			n, err = w.store.Outbox(t.Context())
			return err == nil && (n == 0 || last >= 0 && n < last)
		}) {
			t.Fatalf("%d announcements still undelivered, none delivered for %v", n, patience)
		}
		if n == 0 {
			return
		}
		last = n
	}
}

// suggest is the first autocomplete choice of u for what they typed.
func (w *world) suggest(t *testing.T, u *discordgo.User, typed string) []*discordgo.ApplicationCommandOptionChoice {
	t.Helper()
	// The bot answers with the choices ready by AutocompleteBy after the
	// interaction was made, none if they are not: on a machine too busy to
	// find them in time, the player sees none and types again. So does
	// the test, a bounded number of times (no test here expects none).
	for try := 0; ; try++ {
		ac := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", typed))).By(u).In(w.srv.GuildID, w.thread))
		if len(ac.Data.Choices) > 0 || try == 20 {
			return ac.Data.Choices
		}
	}
}

// answerMentions are the allowed mentions of an interaction's answer:
// those of the callback, or of the edit that wrote a deferred answer in
// (an answer with a picture is deferred).
func (w *world) answerMentions(t *testing.T, r fakediscord.InteractionResponse) *discordgo.MessageAllowedMentions {
	t.Helper()
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return r.Data.AllowedMentions
	}
	for _, q := range w.srv.RequestsTo("PATCH /webhooks/*/*/messages/@original") {
		var body struct {
			Content         string
			AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
		}
		if q.Decode(&body) == nil && body.Content == text(r) {
			return body.AllowedMentions
		}
	}
	t.Fatalf("no edit wrote the answer %q", text(r))
	return nil
}

// pinged are the users a bot message was allowed to ping.
func (w *world) pinged(t *testing.T, m *fakediscord.Message) []string {
	t.Helper()
	for _, r := range w.srv.RequestsTo("POST /channels/*/messages") {
		var body struct {
			Content         string
			AllowedMentions struct{ Users []string } `json:"allowed_mentions"`
		}
		if r.Decode(&body) == nil && body.Content == m.Content {
			return body.AllowedMentions.Users
		}
	}
	t.Fatalf("no request for message %q", m.Content)
	return nil
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
	// No opponent: an open challenge.
	if newc.Options[1].Type != discordgo.ApplicationCommandOptionUser || newc.Options[1].Required {
		t.Fatalf("/new opponent: %+v", newc.Options[1])
	}
	id := w.srv.Identifies()[0]
	if id.Intents&discordgo.IntentsGuilds == 0 {
		t.Fatalf("intents %d", id.Intents)
	}
}

// TestWholeGame plays a whole Elemental Connection game between two users,
// every step an interaction through the gateway, inside the game's thread.
func TestWholeGame(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	cy := w.srv.AddUser("cy")
	if dms := w.srv.WaitDMs(t, w.ana.ID, 1, 0); len(dms) != 1 || len(dms[0].Files) != 1 || !strings.Contains(dms[0].Content, "https://discord.com/channels/"+w.srv.GuildID+"/"+w.thread) {
		t.Fatalf("alice's turn notice: %+v", dms)
	}

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
		r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", c.move)).By(c.who).In(w.srv.GuildID, w.thread))
		if !ephemeral(r) || !strings.Contains(text(r), c.want) || strings.Contains(text(r), "\n") {
			t.Fatalf("%s plays %q: %q (ephemeral %v), want one private line with %q", c.who.Username, c.move, text(r), ephemeral(r), c.want)
		}
	}

	// /hand: ephemeral, only the caller's tiles, as a picture.
	r := w.respond(t, w.srv.Slash("hand").By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || len(files(r)) != 1 || files(r)[0].Format != "png" {
		t.Fatalf("/hand: ephemeral %v files %d", ephemeral(r), len(files(r)))
	}
	g, _ := w.store.Game(t.Context(), 1)
	if !strings.Contains(text(r), strings.Join(handOf(t, w, 0), ", ")) {
		t.Fatalf("/hand shows %q, not alice's tiles", text(r))
	}
	players := []*discordgo.User{w.ana, w.bo}
	for turn := 0; turn < 64; turn++ {
		u := players[turn%2]
		typed := ""
		if turn%9 == 3 {
			// Typing the start of a suggestion narrows the list to it.
			cs := w.suggest(t, u, "")
			typed = cs[len(cs)-1].Value.(string)[:4]
		}
		choices := w.suggest(t, u, typed)
		if len(choices) == 0 || len(choices) > 25 {
			t.Fatalf("turn %d: %d choices", turn, len(choices))
		}
		for _, c := range choices {
			if !strings.HasPrefix(c.Value.(string), typed) {
				t.Fatalf("turn %d: choice %v does not start with %q", turn, c.Value, typed)
			}
		}
		move := choices[0].Value.(string)
		post := w.play(t, u, move)
		if len(post.Files) != 1 || post.Files[0].Format != "png" {
			t.Fatalf("turn %d: no board PNG", turn)
		}
		if img := post.Files[0].Image(); img == nil || img.Bounds().Dx() < 700 {
			t.Fatalf("turn %d: board picture does not decode", turn)
		}
		if !strings.Contains(post.Content, "Scores: alice ") {
			t.Fatalf("turn %d: %q", turn, post.Content)
		}
		if turn < 63 {
			next := players[(turn+1)%2]
			if p := w.pinged(t, post); len(p) != 1 || p[0] != next.ID {
				t.Fatalf("turn %d: must ping exactly the next player: %v", turn, p)
			}
			// One direct message per turn, to the player to move only.
			want := turn/2 + 1 // bo: one per alice move so far
			if next == w.ana {
				want = 1 + (turn+1)/2 // alice: the first turn's, then one per bo move
			}
			w.srv.WaitDMs(t, next.ID, want, 0)
		}
		if turn == 10 {
			b := w.respond(t, w.srv.Slash("board").By(cy).In(w.srv.GuildID, w.thread))
			if am := w.answerMentions(t, b); len(files(b)) != 1 || ephemeral(b) || am == nil || len(am.Users) != 0 {
				t.Fatalf("/board: files %d, pings %v", len(files(b)), am)
			}
			gs := w.respond(t, w.srv.Slash("games").By(w.bo))
			if !ephemeral(gs) || !strings.Contains(text(gs), "#1 Elemental Connection vs alice") || !strings.Contains(text(gs), w.thread) {
				t.Fatalf("/games: %q", text(gs))
			}
			if st := w.status(t); st.EditedTimestamp == nil || !strings.Contains(st.Content, "Moves so far: 11") {
				t.Fatalf("the status message is not edited in place: %q", st.Content)
			}
		}
		if turn == 63 && !strings.Contains(post.Content, "Game over") {
			t.Fatalf("the end is not announced: %q", post.Content)
		}
	}
	g, _ = w.store.Game(t.Context(), 1)
	if g.Status != "finished" || len(g.Moves) != 64 {
		t.Fatalf("status %s after %d moves", g.Status, len(g.Moves))
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return m.EditedTimestamp != nil && strings.Contains(m.Content, "Game over")
	}, 0)
	// Exactly 32 turn notices each (alice's first included, none after the end).
	if a, b := len(w.srv.DMs(w.ana.ID)), len(w.srv.DMs(w.bo.ID)); a != 32 || b != 32 {
		t.Fatalf("turn notices: alice %d, bo %d; want 32 each", a, b)
	}
	if n := len(w.srv.DMs(cy.ID)); n != 0 {
		t.Fatalf("a non-player got %d direct messages", n)
	}
}

// handOf reads a seat's hand from the store.
func handOf(t *testing.T, w *world, seat int) []string {
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	st, err := service.Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	return st.Hand(engine.Seat(seat)).([]string)
}

func TestResignThroughButtons(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	r := w.respond(t, w.srv.Slash("resign").By(w.bo))
	if !ephemeral(r) || strings.Join(buttons(r), ",") != "resign:1,cancel:1" {
		t.Fatalf("/resign must ask privately with a confirm button: %q %v", text(r), buttons(r))
	}
	w.respond(t, w.srv.Button("resign:1").By(w.bo))
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "resigns") }, 0)
	if !strings.Contains(post.Content, "<@"+w.ana.ID+"> wins") {
		t.Fatalf("resign: %q", post.Content)
	}
	r = w.respond(t, w.srv.Slash("rules", fakediscord.Str("game", "closure")).By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "Closure") {
		t.Fatalf("/rules: %q", text(r))
	}
}

// TestSlowCommandsAreDeferred forces the deferral path: the bot answers
// "thinking" within the limit, then edits the result in. A private answer
// is deferred privately (the loading message is ephemeral, and the first
// follow-up after a deferral would only edit it); an error in a public
// command goes privately to the caller and the public placeholder is
// removed, saying nothing meanwhile.
func TestSlowCommandsAreDeferred(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{DeferAfter: time.Nanosecond})
	w.newGame(t)
	hand := w.respond(t, w.srv.Slash("hand").By(w.ana))
	if hand.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !ephemeral(hand) || len(files(hand)) != 1 {
		t.Fatalf("deferred /hand: type %d ephemeral %v", hand.Type, ephemeral(hand))
	}
	move := w.suggest(t, w.ana, "")[0].Value.(string)
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana))
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !ephemeral(r) {
		t.Fatalf("deferred move: %+v", r)
	}
	if r.Latency > 3*time.Second*fakediscord.Slowdown { // within the fake's deadline
		t.Fatalf("first answer after %v", r.Latency)
	}
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+move+"`") }, 0)

	// /board is public: deferred publicly, edited in publicly.
	b := w.respond(t, w.srv.Slash("board").By(w.bo).In(w.srv.GuildID, w.thread))
	if ephemeral(b) || len(files(b)) != 1 || len(b.Followups) != 0 {
		t.Fatalf("deferred /board: ephemeral %v, %d files, %d follow-ups", ephemeral(b), len(files(b)), len(b.Followups))
	}
	// A public command's private answer (an error): only the caller sees it.
	e := w.respond(t, w.srv.Slash("board", fakediscord.Str("game", "99")).By(w.bo))
	if !ephemeral(e) || !strings.Contains(text(e), "no game #99") {
		t.Fatalf("deferred /board error: ephemeral %v %q", ephemeral(e), text(e))
	}
	e = w.srv.WaitInteraction(t, e.ID, func(r fakediscord.InteractionResponse) bool { return r.Original == nil }, patience)
	for _, m := range w.srv.Messages(w.srv.ChannelID) {
		if strings.Contains(m.Content, "no game #99") && m.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Fatalf("a private answer is public: %q", m.Content)
		}
	}
}

// TestSlowHandStaysPrivate: under Discord's deferral rule (the first
// follow-up after a deferral edits the loading message, whatever its
// flags) and with every deletion of an interaction message failing, a slow
// /hand is never in a message anyone but its owner can see.
func TestSlowHandStaysPrivate(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{DeferAfter: time.Nanosecond})
	w.newGame(t)
	w.srv.Inject("DELETE /webhooks/*/*/messages/*", fakediscord.Fault{Status: 500, Times: -1})
	for _, where := range []string{w.srv.ChannelID, w.thread} {
		hand := w.respond(t, w.srv.Slash("hand").By(w.ana).In(w.srv.GuildID, where))
		if hand.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !ephemeral(hand) || len(files(hand)) != 1 {
			t.Fatalf("deferred /hand in %s: type %d ephemeral %v files %d", where, hand.Type, ephemeral(hand), len(files(hand)))
		}
	}
	tiles := strings.Join(handOf(t, w, 0), ", ")
	for _, ch := range []string{w.srv.ChannelID, w.thread} {
		for _, m := range w.srv.Messages(ch) {
			public := m.Flags&discordgo.MessageFlagsEphemeral == 0
			if public && (strings.Contains(m.Content, tiles) || (len(m.Files) > 0 && strings.HasPrefix(m.Files[0].Name, "hand-"))) {
				t.Fatalf("alice's hand is public in %s: %q", ch, m.Content)
			}
		}
	}
}

// TestFaults: Discord rate-limits and fails; no move is lost or applied twice.
func TestFaults(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	// move asks autocomplete for a move, then has Discord misbehave while
	// the move is answered and announced.
	move := func(u *discordgo.User, fault func()) {
		m := w.suggest(t, u, "")[0].Value.(string)
		fault()
		defer w.srv.ClearFaults()
		w.play(t, u, m)
	}
	// 429 on the callback and on channel messages: discordgo waits
	// retry_after and retries.
	move(w.ana, func() {
		w.srv.RateLimit("POST /interactions/*/*/callback", 100*time.Millisecond, false)
		w.srv.RateLimit("POST /channels/*/messages", 100*time.Millisecond, false)
	})
	// A 500 (which discordgo does not retry): the bot retries the answer
	// itself, and the courier retries the post.
	move(w.bo, func() {
		w.srv.FailNext("POST /interactions/*/*/callback", 500, 1)
		w.srv.FailNext("POST /channels/*/messages", 500, 1)
	})
	// A 502 twice: discordgo retries.
	move(w.ana, func() { w.srv.FailNext("POST /channels/*/messages", 502, 2) })
	// The autocomplete answer under a 500 is retried too.
	w.srv.FailNext("POST /interactions/*/*/callback", 500, 1)
	if len(w.suggest(t, w.bo, "")) == 0 {
		t.Fatal("no choices after a 500")
	}
	g, _ := w.store.Game(t.Context(), 1)
	if len(g.Moves) != 3 {
		t.Fatalf("%d moves stored, want 3 (none lost, none twice)", len(g.Moves))
	}
	// The gateway drops: the bot resumes and keeps serving.
	w.srv.DropGateway()
	w.srv.WaitResume(t, 1, 10*time.Second)
	move(w.bo, func() {})
	g, _ = w.store.Game(t.Context(), 1)
	if len(g.Moves) != 4 {
		t.Fatalf("%d moves stored, want 4", len(g.Moves))
	}
	// Every move was posted exactly once.
	posts := 0
	for _, m := range w.srv.Messages(w.thread) {
		if strings.Contains(m.Content, "** played `") {
			posts++
		}
	}
	if posts != 4 {
		t.Fatalf("%d move posts, want 4", posts)
	}
}

// testWriter sends the bot's log to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
