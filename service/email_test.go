package service_test

import (
	"strings"
	"testing"
	"time"

	"tessera"
	"tessera/service"
)

// mailCode is the code of the newest confirmation mail in the outbox.
func (h *harness) mailCode(to string) string {
	h.t.Helper()
	list, err := h.svc.Store().Pending(h.t.Context(), time.Now().Add(time.Hour), 100)
	if err != nil {
		h.t.Fatal(err)
	}
	code := ""
	for _, a := range list {
		if a.Kind == tessera.AnnounceMailConfirm && a.Target == to {
			code = a.Text
		}
	}
	if code == "" {
		h.t.Fatalf("no confirmation mail to %s in %+v", to, list)
	}
	return code
}

func (h *harness) user(id string) tessera.UserSettings {
	h.t.Helper()
	u, err := h.svc.Store().User(h.t.Context(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return u
}

// TestEmailDoubleOptIn: an address is linked only with the code mailed to
// it; until then nothing else is mailed and notices stay direct
// messages; a wrong or late code is refused; off unlinks it.
func TestEmailDoubleOptIn(t *testing.T) {
	h := newHarnessWith(t, func(c *service.Config) { c.Mail = true })
	settings := func(u service.User, args service.Args) (service.Reply, error) {
		cmd, _ := service.LookupCommand("settings")
		return cmd.Run(h.svc, h.req(u), args)
	}
	// Mail before any address: refused with what to do first.
	h.refused(tessera.EINVALID, "Link an address first")(settings(ana, service.Args{"notify": "mail"}))
	r := h.ok(settings(ana, service.Args{"email": "ana@example.org"}))
	if !r.Ephemeral || !strings.Contains(r.Text, "ana@example.org") {
		t.Fatalf("reply %+v: want the address to its owner alone", r)
	}
	if u := h.user(ana.ID); u.Email != "" || u.ByMail() || !u.ByDM() {
		t.Fatalf("before the code: %+v", u)
	}
	code := h.mailCode("ana@example.org")
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	h.refused(tessera.EINVALID, "not the code")(settings(ana, service.Args{"code": wrong}))
	// Bo cannot use Ana's code: it is bound to her and her address.
	h.refused(tessera.EINVALID, "No address waits")(settings(bo, service.Args{"code": code}))
	r = h.ok(settings(ana, service.Args{"code": code}))
	if u := h.user(ana.ID); u.Email != "ana@example.org" || !u.ByMail() || !u.ByDM() || u.EmailCode != "" {
		t.Fatalf("after the code: %+v (%q)", u, r.Text)
	}
	h.ok(settings(ana, service.Args{"notify": "mail"}))
	if u := h.user(ana.ID); !u.ByMail() || u.ByDM() {
		t.Fatalf("notify mail: %+v", u)
	}
	h.ok(settings(ana, service.Args{"email": "off"}))
	if u := h.user(ana.ID); u.Email != "" || u.ByMail() || !u.ByDM() {
		t.Fatalf("email off: %+v", u)
	}

	// A code a day old is refused.
	h.ok(settings(ana, service.Args{"email": "ana@example.org"}))
	code = h.mailCode("ana@example.org")
	h.now = h.now.Add(service.EmailCodeLife + time.Minute)
	h.refused(tessera.EINVALID, "expired")(settings(ana, service.Args{"code": code}))
}

// TestEmailRefusals: what is not one bare address is refused (a header
// injected by a newline, a name, two addresses), and without a mail
// transport the command says there is none.
func TestEmailRefusals(t *testing.T) {
	h := newHarnessWith(t, func(c *service.Config) { c.Mail = true })
	for _, bad := range []string{"ana", "ana@example.org\r\nBcc: eve@example.org", "Ana <ana@example.org>", "a@example.org, b@example.org", "ana@localhost", "ana@exa mple.org"} {
		h.refused(tessera.EINVALID, "is not a mail address")(h.svc.Email(h.req(ana), bad))
	}
	off := newHarness(t)
	off.refused(tessera.EINVALID, "sends no mail")(off.svc.Email(off.req(ana), "ana@example.org"))
	off.refused(tessera.EINVALID, "sends no mail")(off.svc.Settings(off.req(ana), "both", ""))
}

// TestMailBounced: a hard bounce for the linked address switches mail
// off (notices by direct message again) and tells the player; a bounce
// for another address changes nothing.
func TestMailBounced(t *testing.T) {
	h := newHarnessWith(t, func(c *service.Config) { c.Mail = true })
	h.ok(h.svc.Email(h.req(ana), "ana@example.org"))
	h.ok(h.svc.ConfirmEmail(h.req(ana), h.mailCode("ana@example.org")))
	h.ok(h.svc.Settings(h.req(ana), "mail", ""))
	if off, err := h.svc.MailBounced(t.Context(), ana.ID, "other@example.org"); err != nil || off {
		t.Fatalf("another address: %v %v", off, err)
	}
	if off, err := h.svc.MailBounced(t.Context(), ana.ID, "ANA@example.org"); err != nil || !off {
		t.Fatalf("her address: %v %v", off, err)
	}
	if u := h.user(ana.ID); u.Email != "" || u.ByMail() || !u.ByDM() {
		t.Fatalf("after the bounce: %+v", u)
	}
	list, _ := h.svc.Store().Pending(t.Context(), time.Now().Add(time.Hour), 100)
	if n := list[len(list)-1]; n.Kind != tessera.AnnounceNote || n.UserID != ana.ID || !strings.Contains(n.Text, "bounced") {
		t.Fatalf("the note: %+v", n)
	}
}
