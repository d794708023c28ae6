package mailer_test

import (
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
)

// relayed is one message the test relay took.
type relayed struct {
	From, To string
	Data     string
}

// testRelay stands for the host's relay: a minimal SMTP server over real
// TCP (no STARTTLS, so the Sender is told it is a plain local relay). It
// records what it took; while tempFails > 0 it answers 451 at DATA's end
// and counts down.
type testRelay struct {
	Addr string
	Got  chan relayed
	ln   net.Listener
	mu   sync.Mutex
	temp int
	wg   sync.WaitGroup
}

func startRelay(t testing.TB) *testRelay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &testRelay{Addr: ln.Addr().String(), Got: make(chan relayed, 4096), ln: ln}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.wg.Add(1)
			go func() { defer r.wg.Done(); r.serve(c) }()
		}
	}()
	t.Cleanup(func() { ln.Close(); r.wg.Wait() })
	return r
}

// failNext makes the next n messages fail with 451.
func (r *testRelay) failNext(n int) {
	r.mu.Lock()
	r.temp = n
	r.mu.Unlock()
}

func (r *testRelay) serve(c net.Conn) {
	defer c.Close()
	tp := textproto.NewConn(c)
	tp.PrintfLine("220 relay.test ESMTP")
	var from string
	var to []string
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch {
		case verb == "EHLO":
			tp.PrintfLine("250-relay.test")
			tp.PrintfLine("250 8BITMIME")
		case verb == "HELO":
			tp.PrintfLine("250 relay.test")
		case strings.HasPrefix(strings.ToUpper(line), "MAIL FROM:"):
			from, to = addrOf(line[len("MAIL FROM:"):]), nil
			tp.PrintfLine("250 2.1.0 ok")
		case strings.HasPrefix(strings.ToUpper(line), "RCPT TO:"):
			to = append(to, addrOf(line[len("RCPT TO:"):]))
			tp.PrintfLine("250 2.1.5 ok")
		case verb == "DATA":
			tp.PrintfLine("354 go on")
			b, err := readDot(tp)
			if err != nil {
				return
			}
			r.mu.Lock()
			fail := r.temp > 0
			if fail {
				r.temp--
			}
			r.mu.Unlock()
			if fail {
				tp.PrintfLine("451 4.3.0 try again later")
				continue
			}
			for _, rc := range to {
				r.Got <- relayed{From: from, To: rc, Data: b}
			}
			tp.PrintfLine("250 2.0.0 queued")
		case verb == "RSET" || verb == "NOOP":
			tp.PrintfLine("250 ok")
		case verb == "QUIT":
			tp.PrintfLine("221 bye")
			return
		default:
			tp.PrintfLine("502 5.5.2 not here")
		}
	}
}

func readDot(tp *textproto.Conn) (string, error) {
	lines, err := tp.ReadDotLines()
	return strings.Join(lines, "\r\n") + "\r\n", err
}

// addrOf is the address in "<a@b> SIZE=..." or "a@b".
func addrOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '>'); strings.HasPrefix(s, "<") && i > 0 {
		return s[1:i]
	}
	return strings.Fields(s)[0]
}
