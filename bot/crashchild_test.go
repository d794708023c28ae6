package bot_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/render"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest/watch"
)

// The crash tests (TestCrashRestart, TestAICrashWhileThinking,
// TestTournamentKilledWhilePairing) run the bot in a child process: this
// test binary, running only TestCrashChild. startChild starts it and
// botProcess reads what it prints: READY once connected, DRAINED when
// asked to "drain", and what a stall prints (THINKING, PAIRING).

const childEnv = "TESSERA_CRASH_CHILD" // the fake Discord's URL, set for the child

type rewrite struct{ base *url.URL }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.base.Scheme, r.base.Host
	return http.DefaultTransport.RoundTrip(req)
}

// TestCrashChild is the bot process of the crash tests; it does nothing
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
	file, err := boltdb.Open(os.Getenv("TESSERA_CRASH_DB"), storage.Options{}) // with fsync, as in production
	if err != nil {
		t.Fatal(err)
	}
	st := watch.New(file) // this process alone writes the file: "drain" waits on its writes
	// The restarted process may start "later" on the fake Discord's clock.
	later, _ := time.ParseDuration(os.Getenv("TESSERA_CRASH_LATER"))
	now := func() time.Time { return time.Now().Add(later) }
	cfg := service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, RetryBase: 20 * time.Millisecond, Now: now,
		AIThink: 50 * time.Millisecond}
	if os.Getenv(aiStallEnv) != "" {
		cfg.AIHook = stallAI // TestAICrashWhileThinking
	}
	if os.Getenv(pairStallEnv) != "" {
		cfg.PairHook = stallPairing // TestTournamentKilledWhilePairing
	}
	var store storage.Store = st
	if os.Getenv(leaveStallEnv) != "" {
		store = stallResign{st} // TestTournamentLeaveKilled
	}
	svc := service.New(store, cfg)
	b, err := bot.New(svc, bot.Options{Token: "crash-test",
		Configure: func(s *discordgo.Session) { s.Client = &http.Client{Transport: rewrite{base}} }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience) // bounds a hang only
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	startLoops(t, b, svc, slog.Default(), runner.Config{TickEvery: time.Hour})
	os.Stdout.WriteString("READY\n")
	// "drain" on stdin: answer DRAINED once every announcement owed is
	// delivered, after which nothing more can arrive from this process.
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if sc.Text() != "drain" {
			continue
		}
		// No deadline: the parent bounds how long it waits for DRAINED.
		st.WaitFor(context.Background(), func() bool {
			n, err := st.Outbox(context.Background())
			return err == nil && n == 0
		})
		os.Stdout.WriteString("DRAINED\n")
	}
	// Stdin is closed: the parent is done with this process (its cleanup
	// closes stdin, then kills), or is gone itself. Either way there is
	// nothing to wait for.
}

// childOptions says how startChild starts the bot process.
type childOptions struct {
	later time.Duration // how far its clock is ahead of the fake Discord's
	stall string        // the variable that makes it stall (aiStallEnv, pairStallEnv), or none
	early bool          // return at once, not once it is READY: the stall may come first
}

// botProcess is a bot running in a child process, and what it prints.
type botProcess struct {
	*exec.Cmd
	in    io.Writer
	lines <-chan string
}

// startChild starts the bot process on the database db and, unless
// opts.early, waits until it is connected.
func startChild(t *testing.T, srv *fakediscord.Server, db string, opts childOptions) *botProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), childEnv+"="+srv.URL(), "TESSERA_CRASH_DB="+db, "TESSERA_CRASH_LATER="+opts.later.String())
	if opts.stall != "" {
		cmd.Env = append(cmd.Env, opts.stall+"=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe() // the child reads "drain" from it
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = testWriter{t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	p := &botProcess{Cmd: cmd, in: in, lines: lines}
	if !opts.early {
		p.waitLine(t, "READY")
	}
	return p
}

// drain waits until the process has delivered every announcement it owes.
func (p *botProcess) drain(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(p.in, "drain\n"); err != nil {
		t.Fatal(err)
	}
	p.waitLine(t, "DRAINED")
}

// kill9 kills the process with SIGKILL: no clean shutdown.
func (p *botProcess) kill9(t *testing.T) {
	t.Helper()
	if err := p.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.Wait()
}

// waitLine waits for a line of the process's that starts with prefix.
func (p *botProcess) waitLine(t *testing.T, prefix string) string {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("the bot process ended before it printed %s", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			t.Fatalf("the bot process did not print %s", prefix)
		}
	}
}
