package delivery_test

import (
	"strings"
	"testing"

	"tessera"
	"tessera/delivery"
	"tessera/service"
	"tessera/storage"
)

// plainSink is a transport with no presenter of its own.
type plainSink struct{ *fakeSink }

func (plainSink) Presenter() service.Presenter { return nil }

// TestCourierRendersPerTransport: the outbox holds neutral text, and each
// transport's Sink receives it in its own words: the Discord-like fake's
// "<@id>", a transport without a presenter "@name". A post stored by an
// older build, already in Discord's form, arrives as it was stored.
func TestCourierRendersPerTransport(t *testing.T) {
	for _, c := range []struct {
		why  string
		sink func(*fakeSink) delivery.Sink
		want string
	}{
		{"the fake's presenter mentions as Discord does", func(f *fakeSink) delivery.Sink { return f }, "<@1>, your turn"},
		{"without a presenter the courier renders plainly", func(f *fakeSink) delivery.Sink { return plainSink{f} }, "@Ana, your turn"},
	} {
		h := newHarnessWith(t, func(*service.Config) {})
		h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"}))
		h.ok(h.svc.Click(h.req(bo), "accept:1"))
		// An announcement as an older build stored it, words and all.
		if _, err := h.svc.Store().Modify(t.Context(), 1, func(g *tessera.Game, tx storage.Tx) error {
			return tx.Enqueue(t.Context(), tessera.Announcement{Kind: tessera.AnnouncePost, GameID: 1, Moves: len(g.Moves), Text: "<@1> said <t:1700000000:f>"})
		}); err != nil {
			t.Fatal(err)
		}
		f := newSink()
		log := h.deliverTo(c.sink(f), f)
		all := texts(log)
		if !strings.Contains(all, c.want) {
			t.Errorf("%s: want %q in\n%s", c.why, c.want, all)
		}
		if !strings.Contains(all, "<@1> said <t:1700000000:f>") {
			t.Errorf("%s: the stored post changed:\n%s", c.why, all)
		}
		if strings.ContainsAny(all, "\uFDD0\uFDD1\uFDD2") {
			t.Errorf("%s: a token reached the transport:\n%s", c.why, all)
		}
	}
}
