package mailer_test

import (
	"context"
	"fmt"
	netmail "net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"

	"tessera"
	"tessera/mail"
	"tessera/mailer"
	"tessera/service"
)

// dying is a handler of a process killed on its first mail, before the
// move's transaction or after it, before the 250: the sender sees 451.
func dying(after bool) func(tr *mailer.Transport) mail.Handler {
	return func(tr *mailer.Transport) mail.Handler {
		var once sync.Once
		return func(ctx context.Context, in mail.Incoming) error {
			died := false
			once.Do(func() {
				died = true
				if after {
					tr.Handle(ctx, in)
				}
			})
			if died {
				return mail.Temporary(fmt.Errorf("killed"))
			}
			return tr.Handle(ctx, in)
		}
	}
}

// link links u's address by the code mailed to it, and chooses mail.
func (w *world) link(u service.User, addr string) {
	w.t.Helper()
	w.ok(w.svc.Email(w.req(u), addr))
	w.deliver()
	got := w.mails()
	if len(got) != 1 {
		w.t.Fatalf("%d confirmation mails", len(got))
	}
	code := regexp.MustCompile(`code is (\d{6})`).FindStringSubmatch(body(w.t, got[0]))
	if code == nil {
		w.t.Fatal("no code")
	}
	w.ok(w.svc.ConfirmEmail(w.req(u), code[1]))
	w.ok(w.svc.Settings(w.req(u), "mail", ""))
}

// TestMailFiftyKills: two players play by mail alone; every reply meets
// a process killed on receiving it (alternately before and after its
// move is stored), and the sending server sends it again to a restarted
// process on the same store. Over 50 kills no move is lost or played
// twice, and each turn's notice reaches its player once.
func TestMailFiftyKills(t *testing.T) {
	w := newWorld(t, nil, nil, nil)
	w.link(ana, "ana@example.org")
	w.link(bo, "bo@example.org")
	w.start()
	addrOf := map[string]service.User{"ana@example.org": ana, "bo@example.org": bo}
	kills := 0
	for kills < 50 {
		w.deliver()
		got := w.mails()
		g, err := w.st.Game(t.Context(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != tessera.StatusPlaying {
			break
		}
		if len(got) != 1 {
			t.Fatalf("after %d moves: %d mails, want the one turn notice", len(g.Moves), len(got))
		}
		rcpt, _ := netmail.ParseAddress(got[0].Header.Get("To"))
		u := addrOf[rcpt.Address]
		if b := body(t, got[0]); !strings.Contains(b, fmt.Sprintf("(move %d)", len(g.Moves)+1)) {
			t.Fatalf("the notice after %d moves does not say so", len(g.Moves))
		}
		to, _ := netmail.ParseAddress(got[0].Header.Get("Reply-To"))
		choices := w.svc.MoveChoices(w.req(u), "1", "")
		if len(choices) == 0 || choices[0].Value == "?" {
			t.Fatalf("no move for %s: %+v", u.Name, choices)
		}
		msg := reply(to.Address, rcpt.Address, fmt.Sprintf("<k%d@example.org>", kills), choices[0].Value)
		before := len(g.Moves)
		dead := newWorld(t, w.st, w.relay, dying(kills%2 == 1))
		if err := send(dead.listen, rcpt.Address, to.Address, msg); smtpCode(err) != 451 {
			t.Fatalf("kill %d: the dying process answered %v", kills, err)
		}
		dead.lis.Close()
		kills++
		w = newWorld(t, w.st, w.relay, nil) // the restart
		if err := send(w.listen, rcpt.Address, to.Address, msg); err != nil {
			t.Fatalf("kill %d: the reply sent again: %v", kills, err)
		}
		if m := w.moves(); m != before+1 {
			t.Fatalf("kill %d: %d moves, want %d", kills, m, before+1)
		}
	}
	if kills < 20 {
		t.Fatalf("only %d kills before the game ended", kills)
	}
	t.Logf("%d kills, %d moves", kills, w.moves())
}
