package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"tessera/engine"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// These tests take /analyze end to end through the fake Discord: games
// played with /move in their threads, the analysis asked for with
// /analyze, its progress line and its result arriving in the game's
// thread from the courier, and the result kept in the store.

// analysisIterations keeps the analyses cheap: these tests look at what
// reaches Discord and the store, not at how well the search judges
// (ai/analyze_test.go and the calibration in docs/ai.md do).
const analysisIterations = 32

// analysisWorld is a world whose service analyses at analysisIterations,
// calling hook (when set) as an analysis starts and after each position.
func analysisWorld(t *testing.T, hook func(ctx context.Context, id uint64, positions int)) (*world, *slog.Logger) {
	t.Helper()
	w, logger := newWorld(t, bot.Options{})
	w.svc = analysisService(w, logger, hook)
	w.begin(t, bot.Options{}, logger)
	return w, logger
}

// analysisService is a service on w's store that analyses at
// analysisIterations.
func analysisService(w *world, logger *slog.Logger, hook func(ctx context.Context, id uint64, positions int)) *service.Service {
	return newService(w.store, logger, w.clock.Now, func(c *service.Config) {
		c.AnalysisIterations = analysisIterations
		c.AnalysisHook = hook
	})
}

// progressHead starts game 1's progress line, whatever it says.
const progressHead = "Analysis of game #1: "

// resultHead starts game 1's result post.
func resultHead(name string) string { return "**Analysis** of " + name + ", game #1" }

// shown is a message's text without the courier's marker (the small
// last line by which it finds its own posts again).
func shown(m *fakediscord.Message) string {
	text, _, _ := strings.Cut(m.Content, "\n-# ")
	return text
}

// refusedInPlay checks that /analyze of game 1, in play, is refused
// privately with the reason, asked in its thread by a player and by
// number from the channel by someone else, and that nothing was queued.
func (w *world) refusedInPlay(t *testing.T, stranger *discordgo.User) {
	t.Helper()
	const reason = "Game #1 is still in play: it can be analysed once it is over (an analysis would reveal hidden tiles and coach a player)."
	for _, ib := range []*fakediscord.InteractionBuilder{
		w.srv.Slash("analyze").By(w.bo).In(w.srv.GuildID, w.thread),
		w.srv.Slash("analyze", fakediscord.Str("game", "1")).By(stranger),
	} {
		if r := w.respond(t, ib); !ephemeral(r) || text(r) != reason {
			t.Fatalf("/analyze of a game in play: %q (ephemeral %v), want privately %q", text(r), ephemeral(r), reason)
		}
	}
	if ids, err := w.store.AnalysisQueue(t.Context()); err != nil || len(ids) != 0 {
		t.Fatalf("a refused /analyze queued %v (%v)", ids, err)
	}
	if n := w.count(progressHead, w.thread); n != 0 {
		t.Fatalf("a refused /analyze posted %d progress lines", n)
	}
}

// askAnalysis asks for game 1's analysis as u, from the server's channel
// by number, and checks the answer says it has started.
func (w *world) askAnalysis(t *testing.T, u *discordgo.User) {
	t.Helper()
	r := w.respond(t, w.srv.Slash("analyze", fakediscord.Str("game", "1")).By(u))
	if want := "The analysis of game #1 has started. A progress line follows in the game's thread"; !strings.HasPrefix(text(r), want) {
		t.Fatalf("/analyze of the finished game: %q, want %q…", text(r), want)
	}
}

// analysisResult waits for game 1's result in its thread and for
// everything owed to be delivered, and checks what arrived: one progress
// line, edited to say it is done; one result, with the chart as
// game-1-analysis.png and each player's course and the costliest moves
// in words, as the stored analysis has them. It returns the result post.
func (w *world) analysisResult(t *testing.T, name string) *fakediscord.Message {
	t.Helper()
	result := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.HasPrefix(m.Content, resultHead(name)) }, patience)
	w.settle(t)
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.store.Analysis(t.Context(), 1)
	if err != nil || a.Status != tessera.AnalysisDone || len(a.Positions) != len(g.Moves)+1 {
		t.Fatalf("stored analysis: %+v (%v), want done with %d positions", a, err, len(g.Moves)+1)
	}
	if n, m := w.count(progressHead, w.thread), w.count(resultHead(name), w.thread); n != 1 || m != 1 {
		t.Fatalf("%d progress lines and %d results in the thread, want one each", n, m)
	}
	progress := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.HasPrefix(m.Content, progressHead) }, 0)
	if want := fmt.Sprintf("%sdone, %d positions (the chart follows).", progressHead, len(g.Moves)+1); shown(progress) != want || progress.EditedTimestamp == nil || a.MessageID != progress.ID {
		t.Fatalf("the progress line %s: %q (edited %v), want %q edited, and recorded (%q)", progress.ID, progress.Content, progress.EditedTimestamp != nil, want, a.MessageID)
	}
	if len(result.Files) != 1 || result.Files[0].Format != "png" || result.Files[0].Name != "game-1-analysis.png" || result.Files[0].Image() == nil {
		t.Fatalf("the result's files: %+v", result.Files)
	}
	for _, who := range []string{"\n• alice: ", "\n• bo: "} { // each player's verdict
		if !strings.Contains(result.Content, who) {
			t.Fatalf("the result has no line %q: %q", who, result.Content)
		}
	}
	// The costliest moves are the decomposition's (its errors, judged
	// from what each mover knew), as the stored analysis gives them.
	d, ok := service.Decompose(g.Setup, g.Moves, a.Positions, engine.NoSeat)
	if !ok {
		t.Fatalf("the stored analysis does not decompose: %+v", a)
	}
	costly := d.Costliest(3)
	if len(costly) == 0 && !strings.Contains(result.Content, "No move lost its player a chance the AI could measure.") {
		t.Fatalf("no costly move, and the result does not say so: %q", result.Content)
	}
	for _, c := range costly {
		if want := fmt.Sprintf("\n• Move %d, %s %s: ", c.N, g.Names()[c.By], c.Played); !strings.Contains(result.Content, want) {
			t.Fatalf("the result does not name the costly move %q: %q", want, result.Content)
		}
	}
	return result
}

// askedAgain asks for game 1's analysis again, as a player in its thread:
// the answer is the stored result at once (the same words and the same
// picture), and nothing is queued or posted by the courier.
func (w *world) askedAgain(t *testing.T, result *fakediscord.Message) {
	t.Helper()
	posts := len(w.srv.RequestsTo("POST /channels/*/messages"))
	r := w.respond(t, w.srv.Slash("analyze").By(w.ana).In(w.srv.GuildID, w.thread))
	fs := files(r)
	// A player of a game with hidden hands also gets their own view,
	// below the stored result, in this reply only they see.
	own, _ := strings.CutPrefix(text(r), shown(result))
	if !strings.HasPrefix(text(r), shown(result)) || own != "" && !strings.HasPrefix(own, "\n**Your view** (only you see this)") ||
		len(fs) != 1 || string(fs[0].Data) != string(result.Files[0].Data) {
		t.Fatalf("asked again: %q with %d files, want the stored result %q with its picture", text(r), len(fs), shown(result))
	}
	if ids, err := w.store.AnalysisQueue(t.Context()); err != nil || len(ids) != 0 {
		t.Fatalf("asking again queued %v (%v)", ids, err)
	}
	w.settle(t)
	if n := len(w.srv.RequestsTo("POST /channels/*/messages")); n != posts {
		t.Fatalf("asking again made the courier post %d messages", n-posts)
	}
}

// TestAnalyzeEveryGame: a game of each of the five games, played with
// /move in its thread. While it is in play /analyze is refused with the
// reason; once it is over, the answer says the analysis has started, the
// progress line is posted in the thread and edited, the chart and the
// costly moves follow there, and asking again answers at once from the
// store with the same picture.
func TestAnalyzeEveryGame(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game, name, options string
		// moves are played from the first autocomplete choice before the
		// loser resigns; 0 plays the game to its own end.
		moves int
		// loser resigns after the moves (0 alice, 1 bo).
		loser int
	}{
		// Hidden hands, the reason /analyze waits for the end: bo resigns.
		{game: "elemental", name: "Elemental Connection", moves: 4, loser: 1},
		// first=1 has alice move first, as startGame expects; alice
		// resigns, so the chart ends at the first seat's loss.
		{game: "closure", name: "Closure", options: "first=1", moves: 4, loser: 0},
		// One or two stones a move: thousands of moves a position, the
		// most for the search to consider.
		{game: "glorieta", name: "Glorieta", moves: 4, loser: 1},
		// Short games: played to their own end, so the record ends with
		// a move rather than a resignation, and the last position is the
		// end's result.
		{game: "knotwork", name: "Knotwork", moves: 0},
		// Public hands of polyominoes on a 9x9 board: bo resigns.
		{game: "tilingking", name: "TilingKing", moves: 4, loser: 1},
	} {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			w, _ := analysisWorld(t, nil)
			w.startGame(t, c.game, c.name, c.options)
			cy := w.srv.AddUser("cy")
			players := []*discordgo.User{w.ana, w.bo}
			const maxTurns = 40
			for turn := 0; c.moves == 0 || turn < c.moves; turn++ {
				if turn == maxTurns {
					t.Fatalf("not over after %d turns of first choices", maxTurns)
				}
				u, next := players[turn%2], players[(turn+1)%2]
				move := w.choices(t, u, "")[0]
				if w.afterMove(t, move).Over() {
					if c.moves != 0 {
						t.Fatalf("the game ended by itself at move %d of %d", turn+1, c.moves)
					}
					next = nil
				}
				w.move(t, u, next, move)
				if turn == 1 {
					w.refusedInPlay(t, cy)
				}
				if next == nil {
					break
				}
			}
			if c.moves != 0 {
				w.resign(t, players[c.loser], players[1-c.loser])
			}
			if g, err := w.store.Game(t.Context(), 1); err != nil || g.Status != tessera.StatusFinished {
				t.Fatalf("the game is not over: %+v (%v)", g, err)
			}
			w.askAnalysis(t, cy)
			result := w.analysisResult(t, c.name)
			w.askedAgain(t, result)
		})
	}
}

// TestAnalyzeResumedAfterRestart: a bot stopped while it analyses a
// finished game (after three of its positions) leaves the analysis queued
// with those positions; a new bot and service on the same store resume
// it from there, once: the progress line the first bot posted is edited
// to done (not posted again), the result arrives in the thread exactly
// once, and the stored analysis says it was resumed once.
func TestAnalyzeResumedAfterRestart(t *testing.T) {
	t.Parallel()
	const stopAt = 3
	reached := make(chan struct{})
	var once sync.Once
	// The first process stops under way: its hook holds the analysis
	// once stopAt positions are stored, until the bot's Close ends it.
	w, logger := analysisWorld(t, func(ctx context.Context, _ uint64, positions int) {
		if positions >= stopAt {
			once.Do(func() { close(reached) })
			<-ctx.Done()
		}
	})
	w.startGame(t, "elemental", "Elemental Connection", "")
	players := []*discordgo.User{w.ana, w.bo}
	for turn := range 4 {
		w.move(t, players[turn%2], players[(turn+1)%2], w.choices(t, players[turn%2], "")[0])
	}
	w.resign(t, w.bo, w.ana)
	w.askAnalysis(t, w.srv.AddUser("cy"))
	select {
	case <-reached:
	case <-time.After(patience):
		t.Fatalf("the analysis never reached %d positions", stopAt)
	}
	// The progress line is posted before the first position is searched;
	// once delivered its id is in the store.
	first := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool { return strings.HasPrefix(m.Content, progressHead) }, patience)
	w.settle(t)
	w.close()

	a, err := w.store.Analysis(t.Context(), 1)
	if err != nil || a.Status != tessera.AnalysisQueued || len(a.Positions) != stopAt || a.Owner != "" || !a.Started || a.Resumed != 0 || a.MessageID != first.ID {
		t.Fatalf("after the stop: %+v (%v), want queued with %d positions, the claim given back, the progress line %s recorded", a, err, stopAt, first.ID)
	}
	if n := w.count(resultHead("Elemental Connection"), w.thread); n != 0 {
		t.Fatalf("%d results posted before the analysis was done", n)
	}
	kept := fmt.Sprint(a.Positions)

	// The second process: the hook notes where each call stands.
	var mu sync.Mutex
	var seen []int
	w.svc = analysisService(w, logger, func(_ context.Context, _ uint64, positions int) {
		mu.Lock()
		seen = append(seen, positions)
		mu.Unlock()
	})
	w.launch(t, w.opt.Token)
	w.analysisResult(t, "Elemental Connection")
	w.onceEach(t, w.thread) // the restart posted no move again

	b, err := w.store.Analysis(t.Context(), 1)
	if err != nil || b.Resumed != 1 || fmt.Sprint(b.Positions[:stopAt]) != kept || b.MessageID != first.ID {
		t.Fatalf("after resuming: %+v (%v), want resumed once from the %d positions kept, with the same progress line", b, err, stopAt)
	}
	// Called as it starts, then after each position: from the kept ones
	// on, none searched again.
	var want []int
	for n := stopAt; n <= len(b.Positions); n++ {
		want = append(want, n)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(seen, want) {
		t.Fatalf("the second process's analysis went through %v positions, want %v", seen, want)
	}
}
