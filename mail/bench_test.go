package mail_test

import (
	"context"
	"net/smtp"
	"sort"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	tmail "tessera/mail"
)

// BenchmarkSendNotices composes notices and sends each through a local
// relay over TCP with STARTTLS and AUTH PLAIN, one connection per notice
// as the Sender does: the courier's target is 100 notices a second.
func BenchmarkSendNotices(b *testing.B) {
	srvTLS, cliTLS := testTLS(b)
	r := startRelay(b, srvTLS, "tessera", "s3cret")
	s := testSender(b, r.Addr, cliTLS, nil)
	stop := drain(r)
	defer stop()
	n := testNotice()
	n.Board = make([]byte, 40<<10) // a board PNG's usual size
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n.Move = i
		msg, err := composer.Compose(n)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Send(context.Background(), n.ReplyTo, n.To.Address, msg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "notices/s")
}

// BenchmarkSendNoticesParallel is the same with the courier's workers
// sending at once (GOMAXPROCS goroutines).
func BenchmarkSendNoticesParallel(b *testing.B) {
	srvTLS, cliTLS := testTLS(b)
	r := startRelay(b, srvTLS, "tessera", "s3cret")
	s := testSender(b, r.Addr, cliTLS, nil)
	stop := drain(r)
	defer stop()
	var seq atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := testNotice()
		n.Board = make([]byte, 40<<10)
		for pb.Next() {
			n.Move = int(seq.Add(1))
			msg, err := composer.Compose(n)
			if err != nil {
				b.Error(err)
				return
			}
			if err := s.Send(context.Background(), n.ReplyTo, n.To.Address, msg); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "notices/s")
}

// drain empties the relay's record while a benchmark sends.
func drain(r *relay) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-r.Got:
			case <-done:
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}

// BenchmarkListenerReceipt: a reply sent by net/smtp over a new
// connection each time; latency is from the client's final dot to the
// handler's call (the target: the move stored within 1 s of the
// end of DATA; the store's part is the service's).
func BenchmarkListenerReceipt(b *testing.B) {
	at := make(chan time.Time, 1)
	addr := startListener(b, func(_ context.Context, in tmail.Incoming) error {
		at <- time.Now()
		return nil
	}, nil)
	to := replyAddress(b, 7, 0, "alice", 3)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg := replyMail(to, "<bench"+strconv.Itoa(i)+"@example.org>", "h1 YGYG\r\n\r\nOn Wed, Tessera wrote:\r\n> it is your move\r\n")
		c, err := smtp.Dial(addr)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Mail("alice@example.org"); err != nil {
			b.Fatal(err)
		}
		if err := c.Rcpt(to); err != nil {
			b.Fatal(err)
		}
		w, err := c.Data()
		if err != nil {
			b.Fatal(err)
		}
		w.Write([]byte(msg))
		t0 := time.Now()
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, (<-at).Sub(t0))
		c.Quit()
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "µs-p50-dot-to-handler")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "µs-p99-dot-to-handler")
}
