package bot_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/bot/fakediscord"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// The crash test runs the bot in a child process (crashchild_test.go),
// kills it with SIGKILL between the store commit of a move and the delivery
// of its announcements, restarts it on the same database, and checks that
// every announcement arrives exactly once.

// TestCrashRestart restarts at once: the post that was in flight is sent
// again and Discord's nonce makes the second send a no-op.
func TestCrashRestart(t *testing.T) { crashRestart(t, 0) }

// TestCrashRestartLater restarts 10 minutes later on Discord's clock, when
// Discord no longer remembers the nonce: the bot finds the post that
// arrived (by its marker) and does not send it again.
func TestCrashRestartLater(t *testing.T) { crashRestart(t, 10*time.Minute) }

func crashRestart(t *testing.T, later time.Duration) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	srv := fakediscord.New(t)
	db := filepath.Join(t.TempDir(), "crash.db")
	ana, bo := srv.User, srv.AddUser("bo")
	proc := startChild(t, srv, db, childOptions{})

	answer := func(ib *fakediscord.InteractionBuilder) fakediscord.InteractionResponse {
		return ib.Send(t).Wait(t, func(r fakediscord.InteractionResponse) bool { return r.Acknowledged && r.Data != nil })
	}
	answer(srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", bo.ID)).By(ana))
	answer(srv.Button("accept:1").By(bo))
	start := srv.WaitFor(t, func(r fakediscord.Request) bool {
		return r.Method == "POST" && strings.Contains(string(r.Body), "your turn")
	}, 10*time.Second)
	thread := strings.Split(start.Path, "/")[2]
	srv.WaitDMs(t, ana.ID, 1, 10*time.Second)

	// Discord turns slow: the move's post will be in flight when the bot dies.
	srv.Inject("POST /channels/*/messages", fakediscord.Fault{Delay: 10 * time.Second, Times: -1})
	ac := answer(srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", ""))).By(ana).In(srv.GuildID, thread))
	move := ac.Data.Choices[0].Value.(string)
	r := answer(srv.Slash("move", fakediscord.Str("notation", move)).By(ana).In(srv.GuildID, thread))
	if !strings.Contains(r.Data.Content, "You played") {
		t.Fatalf("move: %q", r.Data.Content)
	}
	// The move is committed (the answer says so); its post is in flight.
	srv.WaitArrival(t, func(r fakediscord.Request) bool {
		return r.Method == "POST" && r.Path == "/channels/"+thread+"/messages" && strings.Contains(string(r.Body), "played `"+move+"`")
	}, 10*time.Second)
	proc.kill9(t)
	srv.ClearFaults()

	// What the dead process left: the move, and its announcements undelivered.
	st, err := boltdb.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := st.Game(t.Context(), 1)
	left, _ := st.Outbox(t.Context())
	st.Close()
	if len(g.Moves) != 1 || left == 0 {
		t.Fatalf("after the crash: %d moves, %d undelivered announcements; want 1 and some", len(g.Moves), left)
	}

	// Restart on the same database: everything owed is delivered, once.
	srv.Advance(later)
	proc = startChild(t, srv, db, childOptions{later: later})
	srv.WaitDMs(t, bo.ID, 1, 10*time.Second)
	srv.WaitMessage(t, thread, func(m *fakediscord.Message) bool {
		return m.EditedTimestamp != nil && strings.Contains(m.Content, "Moves so far: 1")
	}, 10*time.Second)
	// Everything owed delivered: anything sent twice has arrived by now.
	proc.drain(t)
	posts := 0
	for _, m := range srv.Messages(thread) {
		if strings.Contains(m.Content, "** played `"+move+"`") {
			posts++
		}
	}
	if posts != 1 {
		t.Fatalf("the move was posted %d times, want once", posts)
	}
	// The post in flight when the bot died reached Discord. Restarted at
	// once, the bot sent it again and the nonce made the second a no-op;
	// restarted later, it found the post and did not send it again.
	want := 2
	if later > fakediscord.DefaultNonceWindow {
		want = 1
	}
	sends := 0
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/channels/"+thread+"/messages" && strings.Contains(string(r.Body), "played `"+move+"`") {
			sends++
		}
	}
	if sends != want {
		t.Fatalf("the move's post was sent %d times, want %d", sends, want)
	}
	if n := len(srv.DMs(bo.ID)); n != 1 {
		t.Fatalf("bo got %d turn notices, want 1", n)
	}
	if n := len(srv.DMs(ana.ID)); n != 1 {
		t.Fatalf("ana got %d turn notices, want 1", n)
	}
	proc.Process.Kill()
	proc.Wait()
	st, err = boltdb.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if left, _ := st.Outbox(t.Context()); left != 0 {
		t.Fatalf("%d announcements still undelivered", left)
	}
}
