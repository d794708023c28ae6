package mail_test

import (
	"bytes"
	"net/mail"
	"sort"
	"strings"
	"testing"
)

// FuzzComposeNotice: whatever players are called and whatever their game
// is named, the notice parses back with exactly its own headers, one
// recipient, and the subject's words decoded from RFC 2047: no name can
// add a header, a recipient or a body.
func FuzzComposeNotice(f *testing.F) {
	f.Add("Alice", "Bob", "Glorieta #12")
	f.Add("Eve\r\nBcc: victim@example.org", "Bob\n\nbody", "=?utf-8?q?x?=")
	f.Add("\"quoted\" <x@y>", "Ünïcödé 🎲", strings.Repeat("long ", 100))
	want := []string{"Auto-Submitted", "Content-Type", "Date", "From", "In-Reply-To", "List-Unsubscribe", "List-Unsubscribe-Post",
		"Message-Id", "Mime-Version", "References", "Reply-To", "Subject", "To", "X-Auto-Response-Suppress"}
	f.Fuzz(func(t *testing.T, name, opponent, game string) {
		n := testNotice()
		n.To.Name, n.Opponent, n.GameName = name, opponent, game
		raw, err := composer.Compose(n)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("the notice does not parse: %v", err)
		}
		var keys []string
		for k, v := range msg.Header {
			if len(v) != 1 {
				t.Fatalf("header %s %d times", k, len(v))
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Fatalf("headers %v", keys)
		}
		to, err := msg.Header.AddressList("To")
		if err != nil || len(to) != 1 || to[0].Address != "alice@example.org" {
			t.Fatalf("To %v %v", to, err)
		}
	})
}
