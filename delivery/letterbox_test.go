package delivery_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"tessera"
	"tessera/delivery"
	"tessera/service"
	"tessera/storage"
)

// fakeLetterbox records letters; fail answers the next tries (a relay's
// 4xx); sentThenFail sends and then fails the next tries, as a process
// that dies after the relay accepted a letter and before the outbox
// recorded it: the letter is sent again with the same nonce, which the
// receiver's dedup (mail: the Message-ID) collapses.
type fakeLetterbox struct {
	mu           sync.Mutex
	got          []delivery.Letter
	nonces       []string
	fail         int
	sentThenFail int
	perm         bool
}

func (f *fakeLetterbox) Presenter() service.Presenter { return service.Plain{} }

func (f *fakeLetterbox) Letter(_ context.Context, l delivery.Letter, nonce string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.perm {
		return delivery.Permanent(errors.New("550 no such user"))
	}
	if f.fail > 0 {
		f.fail--
		return errors.New("451 try later")
	}
	f.got = append(f.got, l)
	f.nonces = append(f.nonces, nonce)
	if f.sentThenFail > 0 {
		f.sentThenFail--
		return errors.New("killed after the relay's 250")
	}
	return nil
}

// distinct counts the letters by nonce: what a receiver keeps.
func (f *fakeLetterbox) distinct() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for _, n := range f.nonces {
		out[n]++
	}
	return out
}

// setNotify links an address to the user and sets their notice mode.
func (h *harness) setNotify(u service.User, mode string) {
	h.t.Helper()
	if _, err := h.svc.Store().UpdateUser(h.t.Context(), u.ID, func(s *tessera.UserSettings, _ storage.Tx) error {
		s.Email, s.Notify, s.NotifyOff = strings.ToLower(u.Name)+"@example.org", mode, mode == tessera.NotifyNone
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
}

// deliverWith runs the courier with a Letterbox until the outbox is empty.
func (h *harness) deliverWith(sink *fakeSink, lb delivery.Letterbox) []sent {
	h.t.Helper()
	c := delivery.New(h.svc, h.svc.Store()).WithLetterbox(lb)
	for range 50 {
		c.Deliver(context.Background(), sink)
		if n, err := h.svc.Store().Outbox(h.t.Context()); err != nil {
			h.t.Fatal(err)
		} else if n == 0 {
			return sink.Take()
		}
	}
	h.t.Fatal("the outbox is not empty after 50 rounds")
	return nil
}

// TestCourierLetters: each notice mode sends the turn notice where the
// player chose, once: a letter refused for now is retried without a
// second direct message; one sent before a crash is sent again with the
// same nonce only; a permanent refusal is dropped; the game's end goes by
// mail to who chose it.
func TestCourierLetters(t *testing.T) {
	for _, c := range []struct {
		why                string
		mode               string
		fail, sentThenFail int
		perm               bool
		dms, letter        int
	}{
		{"dm: the direct message only", tessera.NotifyDM, 0, 0, false, 1, 0},
		{"mail: the letter only", tessera.NotifyMail, 0, 0, false, 0, 1},
		{"both: one of each", tessera.NotifyBoth, 0, 0, false, 1, 1},
		{"none: nothing", tessera.NotifyNone, 0, 0, false, 0, 0},
		{"both, the relay refusing twice for now: still one of each", tessera.NotifyBoth, 2, 0, false, 1, 1},
		{"mail, killed after the relay took it, three times: the same letter again, never another", tessera.NotifyMail, 0, 3, false, 0, 1},
		{"mail refused for good: dropped, not retried", tessera.NotifyMail, 0, 0, true, 0, 0},
	} {
		t.Run(c.why, func(t *testing.T) {
			h := newHarnessWith(t, func(cfg *service.Config) { cfg.RetryBase = 1 })
			h.setNotify(ana, c.mode)
			h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"}))
			h.ok(h.svc.Click(h.req(bo), "accept:1"))
			sink := newSink()
			lb := &fakeLetterbox{fail: c.fail, sentThenFail: c.sentThenFail, perm: c.perm}
			log := h.deliverWith(sink, lb)
			if n := len(dmsTo(log, ana.ID)); n != c.dms {
				t.Errorf("%d direct messages to Ana, want %d", n, c.dms)
			}
			turns := 0
			for nonce, n := range lb.distinct() {
				turns++
				if lb.got[0].Kind != tessera.AnnounceTurn || lb.got[0].To != "ana@example.org" || len(lb.got[0].Message.Files) != 1 {
					t.Errorf("the letter %+v", lb.got[0])
				}
				if n != 1+c.sentThenFail {
					t.Errorf("letter %s sent %d times", nonce, n)
				}
			}
			if turns != c.letter {
				t.Errorf("%d distinct letters, want %d", turns, c.letter)
			}
		})
	}
}

// TestCourierLetterAtGameEnd: the game's end post goes by mail too, to
// the players who chose mail, with the final board.
func TestCourierLetterAtGameEnd(t *testing.T) {
	h := newHarnessWith(t, func(cfg *service.Config) { cfg.RetryBase = 1 })
	h.setNotify(ana, tessera.NotifyMail)
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"}))
	h.ok(h.svc.Click(h.req(bo), "accept:1"))
	lb := &fakeLetterbox{}
	h.deliverWith(newSink(), lb)
	h.ok(h.svc.ResignConfirm(h.req(bo), 1))
	h.deliverWith(newSink(), lb)
	if len(lb.got) != 2 || lb.got[1].Kind != tessera.AnnouncePost || lb.got[1].UserID != ana.ID || !strings.Contains(lb.got[1].Message.Text, "resign") || len(lb.got[1].Message.Files) != 1 {
		t.Fatalf("letters %+v", lb.got)
	}
	if strings.ContainsAny(lb.got[1].Message.Text, "\uFDD0\uFDD1") {
		t.Fatalf("the letter's text was not rendered: %q", lb.got[1].Message.Text)
	}
}
