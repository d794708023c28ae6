package mailer_test

import (
	"net"
	netmail "net/mail"
	"os"
	"os/exec"
	"testing"
)

// TestSwaksReply: a reply sent with swaks, an SMTP client not written in
// Go, plays the move end to end: the notice through the relay, the reply
// through the listener, the move in the store before swaks hears 250.
// Under CI it must run (.ci/run installs swaks).
func TestSwaksReply(t *testing.T) {
	path, err := exec.LookPath("swaks")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("swaks is not installed (.ci/run installs it from Debian's packages)")
		}
		t.Skip("swaks is not installed")
	}
	w := newWorld(t, nil, nil, nil)
	w.linkAna()
	w.start()
	w.deliver()
	n := w.mails()
	if len(n) != 1 {
		t.Fatalf("%d notices", len(n))
	}
	to, err := netmail.ParseAddress(n[0].Header.Get("Reply-To"))
	if err != nil {
		t.Fatal(err)
	}
	move := w.svc.MoveChoices(w.req(ana), "1", "")[0].Value
	host, port, _ := net.SplitHostPort(w.listen)
	cmd := exec.Command(path, "--silent", "2", "--server", host, "--port", port,
		"--from", "ana@example.org", "--to", to.Address, "--helo", "client.example.org",
		"--header", "From: Ana <ana@example.org>", "--header", "Subject: Re: your move", "--header", "Message-ID: <swaks1@example.org>",
		"--body", move+"\n\n-- \nAna, sent from her phone\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("swaks: %v\n%s", err, out)
	}
	if m := w.moves(); m != 1 {
		t.Fatalf("%d moves after swaks's reply, want 1", m)
	}
}
