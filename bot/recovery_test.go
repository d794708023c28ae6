package bot_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
	"tessera/service"
)

// What real Discord does to a game over weeks, one test each: the game
// goes on to its end afterwards, and every announcement arrives exactly
// once where the players can see it.

// toMove is the player whose turn it is in game 1.
func (w *world) toMove(t *testing.T) *discordgo.User {
	t.Helper()
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	st, err := service.Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	if st.ToMove() == engine.Seat(0) {
		return w.ana
	}
	return w.bo
}

// moveFrom plays n moves of game 1 with game:1, from channel where (""
// for direct messages), and returns them. It waits until the bot
// delivered everything.
func (w *world) moveFrom(t *testing.T, where string, n int) []string {
	t.Helper()
	var moves []string
	for range n {
		u := w.toMove(t)
		ac := w.srv.Autocomplete("move", fakediscord.Str("game", "1"), fakediscord.Focused(fakediscord.Str("notation", ""))).By(u)
		mv := w.srv.Slash("move", fakediscord.Str("game", "1"), fakediscord.Str("notation", "")).By(u)
		if where == "" {
			ac, mv = ac.InDM(), mv.InDM()
		} else {
			ac, mv = ac.In(w.srv.GuildID, where), mv.In(w.srv.GuildID, where)
		}
		choices := w.respond(t, ac).Data.Choices
		if len(choices) == 0 {
			t.Fatal("no legal move offered")
		}
		move := choices[0].Value.(string)
		mv = w.srv.Slash("move", fakediscord.Str("game", "1"), fakediscord.Str("notation", move)).By(u)
		if where == "" {
			mv = mv.InDM()
		} else {
			mv = mv.In(w.srv.GuildID, where)
		}
		r := w.respond(t, mv)
		if !ephemeral(r) || !strings.Contains(text(r), "You played `"+move+"`") {
			t.Fatalf("%s plays %q: %q", u.Username, move, text(r))
		}
		w.settle(t)
		moves = append(moves, move)
	}
	return moves
}

// resign ends game 1: bo resigns from where ("" for direct messages).
func (w *world) resignFrom(t *testing.T, where string) {
	t.Helper()
	ib := w.srv.Slash("resign", fakediscord.Str("game", "1")).By(w.bo)
	if where == "" {
		ib = ib.InDM()
	} else {
		ib = ib.In(w.srv.GuildID, where)
	}
	w.respond(t, ib)
	w.respond(t, w.srv.Button("resign:1").By(w.bo))
	w.settle(t)
	if g, _ := w.store.Game(t.Context(), 1); g.Status != "finished" {
		t.Fatalf("the game is %s after bo resigned", g.Status)
	}
}

// count is how many messages of the channels contain s.
func (w *world) count(s string, channels ...string) int {
	n := 0
	for _, ch := range channels {
		for _, m := range w.srv.Messages(ch) {
			if strings.Contains(m.Content, s) {
				n++
			}
		}
	}
	return n
}

// dmChannel is a user's direct-message channel with the bot.
func (w *world) dmChannel(t *testing.T, u *discordgo.User) string {
	t.Helper()
	dms := w.srv.DMs(u.ID)
	if len(dms) == 0 {
		t.Fatalf("%s has no direct messages", u.Username)
	}
	return dms[0].ChannelID
}

// onceEach checks that every move of game 1, and its end, was posted
// exactly once in the channels together.
func (w *world) onceEach(t *testing.T, channels ...string) {
	t.Helper()
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range g.Moves {
		if m.Text == "resign" {
			continue
		}
		if n := w.count("** played `"+m.Text+"`", channels...); n != 1 {
			t.Fatalf("move %s posted %d times in %v, want once", m.Text, n, channels)
		}
	}
	if g.Status == "finished" {
		if n := w.count("resigns", channels...); n != 1 {
			t.Fatalf("the end posted %d times, want once", n)
		}
	}
}

func TestTokenReset(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{}, fakediscord.WithToken("test-token"))
	w.newGame(t)
	w.moveFrom(t, w.thread, 1)
	// The bot runs as cmd/tessera runs it: Run returns only when it stops.
	w.close()
	b, err := bot.New(w.svc, w.opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() }) // its reconnect loop ends with the fake's link
	stop := startLoops(t, b, w.svc, w.opt.Logger, w.loops)
	ran := make(chan error, 1)
	go func() {
		err := b.Run(context.Background())
		stop() // as cmd/tessera stops the loops once the bot's Run returns
		ran <- err
	}()
	w.srv.WaitIdentify(t, 2, patience)
	w.bot = b
	// The token is reset while a move's post is on its way.
	w.srv.Slow("POST /channels/*/messages", 300*time.Millisecond, 1)
	u := w.toMove(t)
	move := w.suggest(t, u, "")[0].Value.(string)
	w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(u).In(w.srv.GuildID, w.thread))
	w.srv.WaitArrival(t, func(r fakediscord.Request) bool { return strings.Contains(string(r.Body), "played `"+move+"`") }, patience)
	w.srv.ResetToken("new-token")
	select {
	case err := <-ran:
		if !errors.Is(err, bot.ErrTokenRefused) {
			t.Fatalf("Run returned %v", err)
		}
	case <-time.After(patience):
		t.Fatal("the bot did not stop on a refused token")
	}
	if n, _ := w.store.Outbox(t.Context()); n == 0 {
		t.Fatal("the announcements were dropped")
	}
	if n := w.logs.count("the token was refused: set DISCORD_TOKEN to the new token and restart"); n != 1 {
		t.Fatalf("the clear error was logged %d times, want once", n)
	}
	if n := w.count("** played `"+move+"`", w.thread); n != 0 {
		t.Fatalf("posted %d times with a refused token", n)
	}
	// Restarted with the new token: everything pending arrives, once.
	w.launch(t, "new-token")
	w.settle(t)
	w.moveFrom(t, w.thread, 2)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// TestAnswerTakenTwice: Discord took the challenge but its answer was lost
// (a 500 after the fact); the bot's retry gets 40060, which means
// delivered, and the challenge message is still recorded, so the game's
// thread starts from it.
func TestAnswerTakenTwice(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.srv.Inject("POST /interactions/*/*/callback", fakediscord.Fault{Status: 500, Applied: true})
	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID)).By(w.ana))
	if !w.waitStore(t, func() bool {
		g, err := w.store.Game(t.Context(), 1)
		return err == nil && g.MessageID == r.Original.ID
	}) {
		t.Fatal("the challenge message was not recorded")
	}
	if n := len(w.srv.RequestsTo("POST /interactions/*/*/callback")); n != 2 {
		t.Fatalf("%d callbacks, want the lost one and the retry", n)
	}
	w.respond(t, w.srv.Button("accept:1").By(w.bo))
	w.thread = w.threadOf(t, 1)
	if w.thread != r.Original.ID {
		t.Fatalf("the thread %s did not start from the challenge %s", w.thread, r.Original.ID)
	}
	w.settle(t)
	w.moveFrom(t, w.thread, 2)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// TestAnswerTooLate: the answer reached Discord after its 3 s (10062);
// the move stays made, is logged with what was applied, and announced once.
func TestAnswerTooLate(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	u := w.toMove(t)
	move := w.suggest(t, u, "")[0].Value.(string)
	// Past the fake's 3 s (fakediscord.Slowdown times that under -race).
	w.srv.Slow("POST /interactions/*/*/callback", 3*time.Second*fakediscord.Slowdown+100*time.Millisecond, 1)
	w.srv.Slash("move", fakediscord.Str("notation", move)).By(u).In(w.srv.GuildID, w.thread).Send(t)
	w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "played `"+move+"`") }, patience)
	w.logs.waitLine(t, "applied=\"You played `"+move+"`") // the late answer, logged with what was applied
	var late int
	for _, v := range w.srv.Violations() {
		if v.Code == 10062 {
			late++
		}
	}
	if late != 1 {
		t.Fatalf("%d late answers, want 1", late)
	}
	w.srv.ClearViolations() // provoked on purpose
	w.settle(t)
	w.moveFrom(t, w.thread, 1)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// TestThreadDeleted: a new thread under the same channel, with the status
// message, a line saying the old thread was lost, and the board.
func TestThreadDeleted(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	w.moveFrom(t, w.thread, 1)
	old := w.thread
	w.srv.DeleteChannel(old)
	w.moveFrom(t, w.srv.ChannelID, 1)
	w.thread = w.threadOf(t, 1)
	if w.thread == old || w.srv.Channel(w.thread) == nil || w.srv.Channel(w.thread).ParentID != w.srv.ChannelID {
		t.Fatalf("no new thread under the channel: %s (old %s)", w.thread, old)
	}
	msgs := w.srv.Messages(w.thread)
	if len(msgs) < 3 || !strings.Contains(msgs[0].Content, "game #1: alice vs bo") || len(msgs[0].Attachments) != 1 ||
		!strings.Contains(msgs[1].Content, "old thread of game #1 was lost") || !strings.Contains(msgs[2].Content, "** played `") {
		t.Fatalf("the new thread: %d messages, first %q", len(msgs), msgs[0].Content)
	}
	w.moveFrom(t, w.thread, 2)
	w.resignFrom(t, w.thread)
	if n := w.count("old thread of game #1 was lost", w.thread); n != 1 {
		t.Fatalf("the players were told %d times", n)
	}
	g, _ := w.store.Game(t.Context(), 1)
	for _, m := range g.Moves[1:] {
		if m.Text != "resign" && w.count("** played `"+m.Text+"`", w.thread) != 1 {
			t.Fatalf("move %s not posted once in the new thread", m.Text)
		}
	}
	if n := w.count("resigns", w.thread); n != 1 {
		t.Fatalf("the end posted %d times", n)
	}
}

// TestChannelDeleted: the game moves to the players' direct messages, with
// the board, saying where to continue; /move works from there with game:.
func TestChannelDeleted(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	w.srv.DeleteChannel(w.srv.ChannelID) // its threads go with it
	w.moveFrom(t, "", 1)
	for _, u := range []*discordgo.User{w.ana, w.bo} {
		ch := w.dmChannel(t, u)
		n := 0
		for _, m := range w.srv.Messages(ch) {
			if strings.Contains(m.Content, "was deleted, so the game goes on here, in direct messages") {
				n++
				if len(m.Files) != 1 || !strings.Contains(m.Content, "/move game:1") {
					t.Fatalf("%s's notice: %q, %d files", u.Username, m.Content, len(m.Files))
				}
			}
		}
		if n != 1 {
			t.Fatalf("%s was told %d times", u.Username, n)
		}
	}
	w.moveFrom(t, "", 2)
	w.resignFrom(t, "")
	for _, u := range []*discordgo.User{w.ana, w.bo} {
		w.onceEach(t, w.dmChannel(t, u))
	}
}

// TestStatusMessageDeleted: posted anew, and the new one is edited after.
func TestStatusMessageDeleted(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	old := w.status(t).ID
	w.srv.DeleteMessage(old)
	w.moveFrom(t, w.thread, 1)
	g, _ := w.store.Game(t.Context(), 1)
	if g.StatusID == old || w.srv.Message(g.StatusID) == nil || !strings.Contains(w.srv.Message(g.StatusID).Content, "Moves so far: 1") {
		t.Fatalf("status message %s (old %s)", g.StatusID, old)
	}
	w.moveFrom(t, w.thread, 2)
	w.resignFrom(t, w.thread)
	if n := w.count("Moves so far:", w.thread); n != 1 {
		t.Fatalf("%d status messages, want 1", n)
	}
	if st := w.srv.Message(g.StatusID); !strings.Contains(st.Content, "Moves so far: 4") {
		t.Fatalf("the new status message is not edited: %q", st.Content)
	}
	w.onceEach(t, w.thread)
}

// TestThreadLocked: the game's announcements go to the parent channel,
// once saying why; whether the locked thread is active (160005) or also
// archived (50083, it cannot be unarchived).
func TestThreadLocked(t *testing.T) {
	t.Parallel()
	for _, archived := range []bool{false, true} {
		w := start(t, bot.Options{})
		w.newGame(t)
		thread := w.thread
		w.srv.LockThread(thread)
		if archived {
			w.srv.ArchiveThread(thread)
		}
		w.moveFrom(t, w.srv.ChannelID, 3)
		w.resignFrom(t, w.srv.ChannelID)
		if n := w.count("thread of game #1 is locked, so its moves are posted here", w.srv.ChannelID); n != 1 {
			t.Fatalf("archived %v: told %d times why", archived, n)
		}
		w.onceEach(t, w.srv.ChannelID, thread)
		if n := w.count("** played `", thread); n != 0 {
			t.Fatalf("archived %v: %d posts in the locked thread", archived, n)
		}
	}
}

// TestIdleThreadArchived: eight days without a move, the thread archived
// itself (auto_archive_duration is a week); the next move's post
// unarchives it, and the status edit follows.
func TestIdleThreadArchived(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	w.srv.Advance(8 * 24 * time.Hour)
	w.clock.Add(8 * 24 * time.Hour)
	if archived, _ := w.srv.ThreadState(w.thread); !archived {
		t.Fatal("the thread is not archived after 8 idle days")
	}
	// Commands cannot be used in an archived thread: move from the channel.
	w.moveFrom(t, w.srv.ChannelID, 1)
	if archived, _ := w.srv.ThreadState(w.thread); archived {
		t.Fatal("the post did not unarchive the thread")
	}
	if st := w.status(t); !strings.Contains(st.Content, "Moves so far: 1") {
		t.Fatalf("status: %q", st.Content)
	}
	// Archived again (by a moderator): the next post unarchives it again.
	w.srv.ArchiveThread(w.thread)
	w.moveFrom(t, w.srv.ChannelID, 2)
	w.resignFrom(t, w.srv.ChannelID)
	w.onceEach(t, w.thread)
}

// TestMissingPermission: without Send Messages in Threads (or without
// View Channel) every post
// waits (nothing dropped), the players are told once where the game went;
// when the permission is back, everything arrives once, in order.
func TestMissingPermission(t *testing.T) {
	t.Parallel()
	// 50013 Missing Permissions, then 50001 Missing Access.
	for _, deny := range []int64{discordgo.PermissionSendMessagesInThreads, discordgo.PermissionViewChannel} {
		missingPermission(t, deny)
	}
}

func missingPermission(t *testing.T, deny int64) {
	w := start(t, bot.Options{})
	w.newGame(t)
	w.srv.DenyBot(w.srv.ChannelID, deny)
	var moves []string
	for range 2 {
		u := w.toMove(t)
		move := w.suggest(t, u, "")[0].Value.(string)
		w.respond(t, w.srv.Slash("move", fakediscord.Str("game", "1"), fakediscord.Str("notation", move)).By(u).In(w.srv.GuildID, w.srv.ChannelID))
		moves = append(moves, move)
	}
	for _, u := range []*discordgo.User{w.ana, w.bo} {
		w.srv.WaitMessage(t, w.dmChannelWait(t, u), func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "a permission is missing") }, patience)
	}
	if n, _ := w.store.Outbox(t.Context()); n == 0 {
		t.Fatal("nothing waits")
	}
	w.srv.SetBotPermissions(w.srv.ChannelID, fakediscord.AllPermissions)
	w.settle(t)
	for _, u := range []*discordgo.User{w.ana, w.bo} {
		if n := w.count("a permission is missing", w.dmChannel(t, u)); n != 1 {
			t.Fatalf("%s was told %d times", u.Username, n)
		}
	}
	msgs := w.srv.Messages(w.thread)
	var order []string
	for _, m := range msgs {
		for _, mv := range moves {
			if strings.Contains(m.Content, "played `"+mv+"`") {
				order = append(order, mv)
			}
		}
	}
	if strings.Join(order, ",") != strings.Join(moves, ",") {
		t.Fatalf("posts %v, want %v in order", order, moves)
	}
	w.moveFrom(t, w.thread, 1)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// dmChannelWait waits until a user has a direct-message channel.
func (w *world) dmChannelWait(t *testing.T, u *discordgo.User) string {
	t.Helper()
	return w.srv.WaitDMs(t, u.ID, 1, patience)[0].ChannelID
}

// TestNoAttachFiles: a post whose picture Discord refuses still delivers
// its text, saying what is missing; nothing waits.
func TestNoAttachFiles(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	w.srv.DenyBot(w.srv.ChannelID, discordgo.PermissionAttachFiles)
	w.moveFrom(t, w.thread, 1)
	// The move's post, not the mover's private answer, which the bot may
	// send before or after the courier posts (its order in the thread
	// is the scheduler's).
	var post *fakediscord.Message
	for _, m := range w.srv.Messages(w.thread) {
		if strings.Contains(m.Content, "** played `") {
			post = m
		}
	}
	if post == nil {
		t.Fatal("no post of the move in the thread")
	}
	if !strings.Contains(post.Content, "** played `") || len(post.Files) != 0 || !strings.Contains(post.Content, "I need the Attach Files permission") {
		t.Fatalf("post without Attach Files: %q, %d files", post.Content, len(post.Files))
	}
	if st := w.status(t); !strings.Contains(st.Content, "Moves so far: 1") {
		t.Fatalf("the status text was not edited: %q", st.Content)
	}
	w.srv.SetBotPermissions(w.srv.ChannelID, fakediscord.AllPermissions)
	w.moveFrom(t, w.thread, 1)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// TestNewNeedsPermissions: /new refuses a game the bot could not run,
// naming what is missing.
func TestNewNeedsPermissions(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.srv.DenyBot(w.srv.ChannelID, discordgo.PermissionAttachFiles|discordgo.PermissionCreatePublicThreads)
	r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID)).By(w.ana))
	want := "I need Attach Files and Create Public Threads in <#" + w.srv.ChannelID + ">"
	if !ephemeral(r) || !strings.Contains(text(r), want) {
		t.Fatalf("/new without permissions: %q", text(r))
	}
	if _, err := w.store.Game(t.Context(), 1); err == nil {
		t.Fatal("a game was created")
	}
	w.srv.SetBotPermissions(w.srv.ChannelID, fakediscord.AllPermissions)
	w.newGame(t)
	w.moveFrom(t, w.thread, 1)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}

// TestTokenResetIdle: with nothing to deliver, a reset token still stops
// the bot (the gateway's 4004 makes it check the token), and a restart
// with the new token serves again.
func TestTokenResetIdle(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{}, fakediscord.WithToken("test-token"))
	w.close()
	b, err := bot.New(w.svc, w.opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() }) // its reconnect loop ends with the fake's link
	stop := startLoops(t, b, w.svc, w.opt.Logger, w.loops)
	ran := make(chan error, 1)
	go func() {
		err := b.Run(context.Background())
		stop() // as cmd/tessera stops the loops once the bot's Run returns
		ran <- err
	}()
	w.srv.WaitIdentify(t, 2, patience)
	w.srv.ResetToken("new-token")
	select {
	case err := <-ran:
		if !errors.Is(err, bot.ErrTokenRefused) {
			t.Fatalf("Run returned %v", err)
		}
	case <-time.After(patience):
		t.Fatal("the bot did not stop on a refused token")
	}
	w.launch(t, "new-token")
	w.newGame(t)
	w.moveFrom(t, w.thread, 1)
	w.resignFrom(t, w.thread)
	w.onceEach(t, w.thread)
}
