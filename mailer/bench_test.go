package mailer_test

import (
	"fmt"
	"testing"
	"time"

	"tessera/mail"
	"tessera/service"
)

// BenchmarkReplyToStoredMove: one reply sent over SMTP to the listener,
// from its MAIL FROM to the server's 250 after DATA, by which time its
// move is in the store (the handler commits before answering). Issue
// 46's target: within 1 s of DATA's end. Each iteration plays the first
// move of a new game (made outside the timing).
func BenchmarkReplyToStoredMove(b *testing.B) {
	w := newBenchWorld(b)
	tokens, _ := mail.NewTokens(secret)
	worst := time.Duration(0)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		id := w.game(b)
		tok, err := tokens.Make(mail.ReplyToken{GameID: id, Seat: 0, UserID: ana.ID})
		if err != nil {
			b.Fatal(err)
		}
		to := mail.ReplyAddress("play", tok, domain)
		move := w.svc.MoveChoices(w.req(ana), fmt.Sprint(id), "")[0].Value
		msg := reply(to, "ana@example.org", fmt.Sprintf("<bench%d@example.org>", i), move)
		b.StartTimer()
		start := time.Now()
		if err := send(w.listen, "ana@example.org", to, msg); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(start))
		b.StopTimer()
		if g, err := w.st.Game(b.Context(), id); err != nil || len(g.Moves) != 1 {
			b.Fatalf("game %d not moved: %v", id, err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

// BenchmarkNoticesThroughRelay: the courier delivers turn notices by
// mail (composed with the board inline, sent through the Sender to the
// test relay over TCP), b.N of them, one per game. Issue 46's target:
// 100 notices a second.
func BenchmarkNoticesThroughRelay(b *testing.B) {
	w := newBenchWorld(b)
	for i := 0; i < b.N; i++ {
		w.game(b)
	}
	w.mails() // the games' other announcements are Discord's
	b.ResetTimer()
	start := time.Now()
	w.deliver()
	d := time.Since(start)
	b.StopTimer()
	if got := len(w.mails()); got != b.N {
		b.Fatalf("%d notices reached the relay, want %d", got, b.N)
	}
	b.ReportMetric(float64(b.N)/d.Seconds(), "notices/s")
}

// newBenchWorld is a world whose Ana has linked her address and chose
// mail.
func newBenchWorld(b *testing.B) *world {
	w := newWorld(b, nil, nil, nil)
	w.linkAna()
	return w
}

// game starts a game of Ana's against Bo, Ana to move, and returns its id.
func (w *world) game(tb testing.TB) uint64 {
	tb.Helper()
	r, err := w.svc.NewGame(w.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"})
	if err != nil {
		tb.Fatal(err)
	}
	id := r.Challenge
	if _, err := w.svc.Click(w.req(bo), fmt.Sprint("accept:", id)); err != nil {
		tb.Fatal(err)
	}
	return id
}
