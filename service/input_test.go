package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tessera/service"
)

// seer renders each token kind as a marker, so that a token forged in
// what a player typed shows as its marker.
type seer struct{}

func (seer) Mention(u service.User) string { return "MENTION(" + u.ID + ")" }
func (seer) Link(_, channel string) string { return "LINK(" + channel + ")" }
func (seer) Stamp(t time.Time, _ *time.Location) string {
	return "STAMP(" + t.UTC().Format("2006") + ")"
}
func (seer) Wording() service.Wording {
	return service.Wording{PickGame: "PICK", MoveList: "MOVES", Channel: "CHANNEL", Server: "SERVERWORD"}
}

// The forged tokens, one a kind, as presenter.go writes them (the
// noncharacters U+FDD0 open, U+FDD1 close, U+FDD2 separate), and the
// marker each would render as. Unix time 666 is in 1970, a year no text
// of the service names; no refusal below names the server.
var forgeries = []struct{ kind, token, marker string }{
	{"mention", "\uFDD0m\uFDD2666\uFDD2Victim\uFDD1", "MENTION(666)"},
	{"link", "\uFDD0l\uFDD2g\uFDD2666\uFDD1", "LINK(666)"},
	{"stamp", "\uFDD0t\uFDD2666\uFDD2\uFDD1", "STAMP(1970)"},
	{"wording", "\uFDD0w\uFDD2server\uFDD1", "SERVERWORD"},
	{"capitalised wording", "\uFDD0W\uFDD2server\uFDD1", "Serverword"},
}

// TestTypedTokensCannotForge: a player cannot forge a mention, a link, a
// moment or a wording by typing the presenter's token characters, in any
// input the service takes: their name (as the caller, as an opponent, as
// who presses a button), a command's string option (a move, an event's
// name, an address), the pages' move, a chat line. Whatever the service
// stores, answers or posts renders without the forged token, and no
// stored name or event name keeps a noncharacter.
func TestTypedTokensCannotForge(t *testing.T) {
	for _, f := range forgeries {
		t.Run(f.kind, func(t *testing.T) {
			h := newHarness(t)
			ctx := context.Background()
			run := func(name string, sub string, req service.Request, in service.Args) (service.Reply, error) {
				t.Helper()
				c, ok := service.LookupCommand(name)
				if !ok {
					t.Fatalf("no command %s", name)
				}
				if sub != "" {
					if c, ok = c.Sub(sub); !ok {
						t.Fatalf("no /%s %s", name, sub)
					}
				}
				return c.Run(h.svc, req, in)
			}
			var texts []string // every reply and refusal, rendered
			see := func(r service.Reply, err error) {
				if err != nil {
					r = h.svc.Fail(err)
				}
				texts = append(texts, service.RenderReply(r, seer{}).Text)
			}
			forger := service.User{ID: "1", Name: "Ana" + f.token}
			victim := service.User{ID: "2", Name: "Bo" + f.token}

			// The caller's and the opponent's names, stored in the game.
			see(run("new", "", h.req(forger), service.Args{"game": "elemental", "opponent": victim, "options": "borders=RBGY"}))
			see(h.svc.Click(h.req(victim), "accept:1"))
			// A move typed in /move, on the pages, and in the chat.
			see(run("move", "", h.req(forger), service.Args{"notation": "h1 " + f.token, "game": "1"}))
			see(h.svc.Move(h.req(forger), "1", f.token+"zz9"))
			chat := h.req(forger)
			chat.ChannelID = h.game(1).Place()
			h.svc.PlainMove(chat, "m1", "h1"+f.token)
			// An open challenge joined by a forged name through its button.
			see(run("new", "", h.req(forger), service.Args{"game": "elemental"}))
			see(h.svc.Click(h.req(service.User{ID: "3", Name: "Cy" + f.token}), "join:2"))
			// Options refused with an echo, an event's name, and an address.
			see(run("new", "", h.req(forger), service.Args{"game": "elemental", "opponent": victim, "options": "borders=" + f.token}))
			see(run("tournament", "new", h.req(forger), service.Args{"game": "elemental", "format": "round-robin", "name": "Cup" + f.token}))
			see(run("settings", "", h.req(forger), service.Args{"email": "ana" + f.token + "@example.org"}))
			see(run("history", "", h.req(forger), service.Args{"user": victim}))

			for _, id := range []uint64{1, 2} {
				for _, p := range h.game(id).Players {
					if strings.ContainsFunc(p.Name, isNonchar) {
						t.Errorf("game %d stores the name %q", id, p.Name)
					}
				}
			}
			events, err := h.svc.Store().GuildEvents(ctx, "g")
			if err != nil || len(events) != 1 {
				t.Fatalf("events %d, %v", len(events), err)
			}
			if strings.ContainsFunc(events[0].Pairing.Name, isNonchar) || !strings.Contains(events[0].Pairing.Name, "Cup") {
				t.Errorf("the event's name %q", events[0].Pairing.Name)
			}
			pending, err := h.svc.Store().Pending(ctx, time.Now().Add(time.Hour), 1000)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range pending {
				texts = append(texts, service.Render(a.Text, seer{}))
			}
			for _, s := range h.deliver() {
				texts = append(texts, s.Msg.Text) // rendered by the fake's presenter
			}
			for _, text := range texts {
				if strings.Contains(service.Render(text, seer{}), f.marker) || strings.Contains(text, f.token) {
					t.Errorf("forged %s rendered:\n%s", f.kind, text)
				}
				if strings.Contains(text, "<@666>") || strings.Contains(text, "#666") {
					t.Errorf("forged %s reached a post:\n%s", f.kind, text)
				}
			}
		})
	}
}

func isNonchar(r rune) bool { return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE }

// TestCleanInput: every Unicode noncharacter goes, the rest stays.
func TestCleanInput(t *testing.T) {
	for in, want := range map[string]string{
		"":                        "",
		"h1 YGYG":                 "h1 YGYG",
		"Ana\uFDD0m\uFDD2x\uFDD1": "Anamx",
		"a\uFDEFb\uFFFEc\uFFFFd\U0001FFFEe\U0010FFFF": "abcde",
		"é\uFFFD😀": "é\uFFFD😀", // the replacement character and an emoji are text
	} {
		if got := service.CleanInput(in); got != want {
			t.Errorf("CleanInput(%q) = %q, want %q", in, got, want)
		}
	}
}
