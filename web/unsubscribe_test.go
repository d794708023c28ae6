package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tessera"
	"tessera/service"
	"tessera/storage"
)

// TestUnsubscribeOneClick: the one-click unsubscribe of RFC 8058. A GET
// (a mail scanner's prefetch, or the player's click) shows a page with
// one button and changes nothing; the POST List-Unsubscribe=One-Click
// switches the player's mail off, once, and again answers 200 without
// change; a forged token, another user's link, a link of a replaced
// address or one from before /link reset change nothing.
func TestUnsubscribeOneClick(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	link := func(u service.User, address string) {
		t.Helper()
		if _, err := s.store.UpdateUser(ctx, u.ID, func(us *tessera.UserSettings, _ storage.Tx) error {
			us.Email, us.Notify = address, tessera.NotifyBoth
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	link(ana, "ana@example.org")
	link(bo, "bo@example.org")
	user := func(id string) tessera.UserSettings {
		t.Helper()
		u, err := s.store.User(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	u := user(ana.ID)
	full := s.svc.UnsubscribeURL(ana.ID, u.LinkEpoch, "Ana@Example.org") // a mail system may change the case
	path := strings.TrimPrefix(full, "http://tessera.test")
	if path == full || !strings.HasPrefix(path, service.UnsubscribePath) {
		t.Fatalf("the unsubscribe URL %q", full)
	}
	post := func(p, body string) (int, string) {
		t.Helper()
		res, err := http.Post(s.srv.URL+p, "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	outbox := func() int {
		n, err := s.store.Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// GET: the page and its button, nothing changed.
	for range 3 {
		res, body := s.get(nil, path)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `name="List-Unsubscribe" value="One-Click"`) || !strings.Contains(body, `method="post"`) {
			t.Fatalf("GET: %d\n%s", res.StatusCode, body)
		}
		if res.Header.Get("Cache-Control") != "no-store" {
			t.Fatal("the page may be cached")
		}
	}
	if !user(ana.ID).ByMail() || outbox() != 0 {
		t.Fatal("a GET switched mail off")
	}

	// Forgeries: each answered 404, nothing changed.
	other := strings.TrimPrefix(s.svc.UnsubscribeURL(bo.ID, 0, "bo@example.org"), "http://tessera.test")
	tok := strings.TrimPrefix(path, service.UnsubscribePath)
	flipped := []byte(tok)
	flipped[len(flipped)-3] ^= 1
	if flipped[len(flipped)-3] == tok[len(tok)-3] || !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", rune(flipped[len(flipped)-3])) {
		flipped[len(flipped)-3] = 'A'
	}
	forged := map[string]string{
		"a changed MAC":            service.UnsubscribePath + string(flipped),
		"ana's fields, bo's MAC":   service.UnsubscribePath + swapMAC(t, tok, strings.TrimPrefix(other, service.UnsubscribePath)),
		"another address":          strings.TrimPrefix(s.svc.UnsubscribeURL(ana.ID, u.LinkEpoch, "eve@example.org"), "http://tessera.test"),
		"another epoch":            strings.TrimPrefix(s.svc.UnsubscribeURL(ana.ID, u.LinkEpoch+1, "ana@example.org"), "http://tessera.test"),
		"not base64":               service.UnsubscribePath + "%0A" + tok,
		"empty":                    service.UnsubscribePath + "x",
		"long":                     service.UnsubscribePath + strings.Repeat("A", 4000),
		"bo's token on ana's path": other,
	}
	for why, p := range forged {
		if why == "bo's token on ana's path" {
			continue // bo's own link: valid for bo, checked below
		}
		if code, body := post(p, "List-Unsubscribe=One-Click"); code != http.StatusNotFound {
			t.Errorf("%s: POST answered %d\n%s", why, code, body)
		}
		if res, _ := s.get(nil, p); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: GET answered %d", why, res.StatusCode)
		}
	}
	if !user(ana.ID).ByMail() || !user(bo.ID).ByMail() || outbox() != 0 {
		t.Fatal("a forged token changed something")
	}
	// A POST without the one-click body is no unsubscribe.
	if code, _ := post(path, "List-Unsubscribe=Maybe"); code != http.StatusBadRequest || !user(ana.ID).ByMail() {
		t.Fatalf("a POST without One-Click: %d", code)
	}

	// The POST: mail off once, a direct message saying so; again: 200, nothing more.
	code, body := post(path, url.Values{"List-Unsubscribe": {"One-Click"}}.Encode())
	if code != http.StatusOK || !strings.Contains(body, "no more turn notices by mail") {
		t.Fatalf("POST: %d\n%s", code, body)
	}
	if a := user(ana.ID); a.ByMail() || !a.ByDM() || a.Email != "ana@example.org" {
		t.Fatalf("after the POST: %+v", a)
	}
	if user(bo.ID).ByMail() != true {
		t.Fatal("ana's link switched bo's mail off")
	}
	if n := outbox(); n != 1 {
		t.Fatalf("%d announcements after the POST, want the one direct message", n)
	}
	code, body = post(path, "List-Unsubscribe=One-Click")
	if code != http.StatusOK || !strings.Contains(body, "off already") || outbox() != 1 {
		t.Fatalf("the second POST: %d, outbox %d\n%s", code, outbox(), body)
	}
	if res, body := s.get(nil, path); res.StatusCode != http.StatusOK || strings.Contains(body, "<form") {
		t.Fatalf("GET once off: %d\n%s", res.StatusCode, body)
	}

	// RFC 8058 lets the provider send the body as multipart/form-data.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("List-Unsubscribe", "One-Click")
	mw.Close()
	res, err := http.Post(s.srv.URL+other, mw.FormDataContentType(), &form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || user(bo.ID).ByMail() {
		t.Fatalf("a multipart one-click POST: %d", res.StatusCode)
	}
	if _, err := s.store.UpdateUser(ctx, bo.ID, func(us *tessera.UserSettings, _ storage.Tx) error { us.Notify = tessera.NotifyBoth; return nil }); err != nil {
		t.Fatal(err)
	}

	// /link reset revokes it; a replaced address's link does nothing.
	if _, err := s.store.UpdateUser(ctx, ana.ID, func(us *tessera.UserSettings, _ storage.Tx) error {
		us.LinkEpoch, us.Notify = us.LinkEpoch+1, tessera.NotifyBoth
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if code, _ := post(path, "List-Unsubscribe=One-Click"); code != http.StatusNotFound || !user(ana.ID).ByMail() {
		t.Fatalf("a link from before the reset: %d", code)
	}
	link(bo, "bo@elsewhere.example")
	if code, _ := post(other, "List-Unsubscribe=One-Click"); code != http.StatusNotFound || !user(bo.ID).ByMail() {
		t.Fatalf("the link of bo's old address: %d", code)
	}
}

// swapMAC is token a with the last 16 bytes (the MAC) of token b.
func swapMAC(t *testing.T, a, b string) string {
	t.Helper()
	x, err := base64.RawURLEncoding.DecodeString(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := base64.RawURLEncoding.DecodeString(b)
	if err != nil {
		t.Fatal(err)
	}
	copy(x[len(x)-16:], y[len(y)-16:])
	return base64.RawURLEncoding.EncodeToString(x)
}
