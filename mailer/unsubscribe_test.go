package mailer_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tessera/svg"
	"tessera/web"
)

// TestMailUnsubscribeEndToEnd: the List-Unsubscribe URL of the notice the
// relay received, POSTed as a mailbox provider does (RFC 8058) to the
// pages, switches the player's mail off: her next turn comes by direct
// message only, and nothing more reaches the relay.
func TestMailUnsubscribeEndToEnd(t *testing.T) {
	w := newWorld(t, nil, nil, nil)
	pages, err := web.New(web.Config{Service: w.svc, Store: w.st, SVG: svg.New()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(pages.Handler())
	t.Cleanup(func() { srv.Close(); pages.Close() })
	w.linkAna()
	w.start()
	w.deliver()
	n := w.mails()
	if len(n) != 1 {
		t.Fatalf("%d notices", len(n))
	}
	u := strings.Trim(n[0].Header.Get("List-Unsubscribe"), "<>")
	if !strings.HasPrefix(u, "https://tessera.test/") {
		t.Fatalf("List-Unsubscribe %q", u)
	}
	res, err := http.Post(srv.URL+strings.TrimPrefix(u, "https://tessera.test"), "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the one-click POST: %d", res.StatusCode)
	}
	if s, _ := w.st.User(t.Context(), ana.ID); s.ByMail() || !s.ByDM() {
		t.Fatalf("after the POST: %+v", s)
	}
	// Ana moves, Bo moves: Ana's next turn is not mailed.
	move := w.svc.MoveChoices(w.req(ana), "1", "")[0].Value
	w.ok(w.svc.Move(w.req(ana), "1", move))
	w.deliver()
	move = w.svc.MoveChoices(w.req(bo), "1", "")[0].Value
	w.ok(w.svc.Move(w.req(bo), "1", move))
	w.deliver()
	if got := w.mails(); len(got) != 0 {
		t.Fatalf("%d mails after the unsubscribe", len(got))
	}
}
