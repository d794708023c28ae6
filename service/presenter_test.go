package service_test

import (
	"strings"
	"testing"
	"time"

	"tessera/service"
)

// discordish renders as the bot does, to see each token reach its method.
type discordish struct{}

func (discordish) Mention(u service.User) string              { return "<@" + u.ID + ">" }
func (discordish) Link(guild, channel string) string          { return "https://d/" + guild + "/" + channel }
func (discordish) Stamp(t time.Time, _ *time.Location) string { return "<t:" + t.Format("2006") + ">" }
func (discordish) Wording() service.Wording {
	return service.Wording{PickGame: "the game: option", MoveList: "autocomplete", Channel: "this channel", Server: "this server"}
}

func TestRender(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	paris, _ := time.LoadLocation("Europe/Paris")
	mention := service.MentionToken(service.User{ID: "42", Name: "Ana"})
	cases := []struct {
		why        string
		text       string
		plain, dis string
	}{
		{"a text without tokens is left alone: what an older build stored, in Discord's form, reads as before",
			"<@42>, your turn (until <t:1:f>)", "<@42>, your turn (until <t:1:f>)", "<@42>, your turn (until <t:1:f>)"},
		{"a mention names the user each transport's way", mention + ", your turn", "@Ana, your turn", "<@42>, your turn"},
		{"a link points to the place each transport's way", "see " + service.LinkToken("g", "c"), "see #c", "see https://d/g/c"},
		{"a moment keeps the reader's zone for the transport that writes it out",
			"until " + service.StampToken(at, paris), "until Sun 1 Mar 13:00 CET", "until <t:2026>"},
		{"a name cannot end its token early: the token characters in it are dropped",
			service.MentionToken(service.User{ID: "1", Name: "Bo\uFDD1\uFDD2x"}) + "!", "@Box!", "<@1>!"},
		{"a stray token character typed by someone is dropped, the rest kept", "a\uFDD1b\uFDD0c", "abc", "abc"},
		{"an unknown kind renders as nothing", "x\uFDD0z\uFDD2q\uFDD1y", "xy", "xy"},
	}
	for _, c := range cases {
		if got := service.Render(c.text, service.Plain{}); got != c.plain {
			t.Errorf("%s: plain %q, want %q", c.why, got, c.plain)
		}
		if got := service.Render(c.text, discordish{}); got != c.dis {
			t.Errorf("%s: discord %q, want %q", c.why, got, c.dis)
		}
	}
}

// TestRenderedRepliesCarryNoTokens: a refusal worded with the transport's
// syntax (capitalised at a sentence's start) renders in each transport's
// words, and nothing of the tokens is left.
func TestRenderedRepliesCarryNoTokens(t *testing.T) {
	h := newHarness(t)
	h.start()
	h.ok(h.svc.NewGame(h.req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY"}))
	h.ok(h.svc.Click(h.req(bo), "accept:2"))
	_, err := h.svc.Move(h.req(ana), "", "h1 YGYG")
	fail := h.svc.Fail(err)
	if !strings.ContainsRune(fail.Text, '\uFDD0') {
		t.Fatalf("refusal %q: want the neutral tokens before rendering", fail.Text)
	}
	mine := service.Render(fail.Text, service.Plain{Words: service.Wording{Channel: "the console", PickGame: "#id"}})
	if !strings.HasPrefix(mine, "The console has several games") || !strings.Contains(mine, "say which with #id") || strings.ContainsAny(mine, "\uFDD0\uFDD1\uFDD2") {
		t.Fatalf("rendered %q", mine)
	}
}
