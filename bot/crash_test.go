package bot_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// The crash test runs the bot in a child process (this test binary, running
// only TestCrashChild), kills it with SIGKILL between the store commit of a
// move and the delivery of its announcements, restarts it on the same
// database, and checks that every announcement arrives exactly once.

const childEnv = "TESSERA_CRASH_CHILD" // the fake Discord's URL, set for the child

type rewrite struct{ base *url.URL }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.base.Scheme, r.base.Host
	return http.DefaultTransport.RoundTrip(req)
}

// TestCrashChild is the bot process of TestCrashRestart; it does nothing
// in a normal test run.
func TestCrashChild(t *testing.T) {
	api := os.Getenv(childEnv)
	if api == "" {
		t.Skip("the bot process of TestCrashRestart")
	}
	base, err := url.Parse(api)
	if err != nil {
		t.Fatal(err)
	}
	st, err := boltdb.Open(os.Getenv("TESSERA_CRASH_DB"), storage.Options{}) // with fsync, as in production
	if err != nil {
		t.Fatal(err)
	}
	// The restarted process may start "later" on the fake Discord's clock.
	later, _ := time.ParseDuration(os.Getenv("TESSERA_CRASH_LATER"))
	now := func() time.Time { return time.Now().Add(later) }
	cfg := service.Config{Renderer: render.Renderer{}, Mention: bot.Mention, Link: bot.Link, Stamp: bot.Stamp, Seed: func() uint64 { return 7 }, RetryBase: 20 * time.Millisecond, Now: now,
		AIThink: 50 * time.Millisecond}
	if os.Getenv(aiStallEnv) != "" {
		cfg.AIHook = stallAI // TestAICrashWhileThinking
	}
	if os.Getenv(pairStallEnv) != "" {
		cfg.PairHook = stallPairing // TestTournamentKilledWhilePairing
	}
	svc := service.New(st, cfg)
	b, err := bot.New(svc, bot.Options{Token: "crash-test", RetryEvery: 20 * time.Millisecond, TickEvery: time.Hour,
		Configure: func(s *discordgo.Session) { s.Client = &http.Client{Transport: rewrite{base}} }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("READY\n")
	// "drain" on stdin: answer DRAINED once every announcement owed is
	// delivered, after which nothing more can arrive from this process.
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if sc.Text() != "drain" {
			continue
		}
		for {
			if n, err := st.Outbox(context.Background()); err == nil && n == 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		os.Stdout.WriteString("DRAINED\n")
	}
	time.Sleep(60 * time.Second) // until the parent kills us
}

// botProcess is a bot running in a child process.
type botProcess struct {
	*exec.Cmd
	in    io.Writer
	lines chan string // what it prints after READY
}

// drain waits until the process has delivered every announcement it owes.
func (p *botProcess) drain(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(p.in, "drain\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case line, ok := <-p.lines:
		if !ok || line != "DRAINED" {
			t.Fatalf("the bot process answered %q (open %v) to drain", line, ok)
		}
	case <-time.After(patience):
		t.Fatal("the bot process did not deliver everything it owes")
	}
}

// child starts the bot process, its clock later ahead, and waits until it
// is connected.
func child(t *testing.T, srv *fakediscord.Server, db string, later time.Duration) *botProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), childEnv+"="+srv.URL(), "TESSERA_CRASH_DB="+db, "TESSERA_CRASH_LATER="+later.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = testWriter{t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan bool, 1)
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "READY" {
				ready <- true
				break
			}
		}
		for sc.Scan() {
			lines <- sc.Text()
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the bot process ended before it was ready")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the bot process did not start")
	}
	return &botProcess{Cmd: cmd, in: in, lines: lines}
}

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
	proc := child(t, srv, db, 0)

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
	if err := proc.Process.Kill(); err != nil { // SIGKILL: no clean shutdown
		t.Fatal(err)
	}
	proc.Wait()
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
	proc = child(t, srv, db, later)
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
