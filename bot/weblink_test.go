package bot_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// webURL is the pages' public address in these tests.
const webURL = "https://tessera.example"

// startWeb is a world whose service has the game pages on.
func startWeb(t *testing.T) *world {
	t.Helper()
	w, logger := newWorld(t, bot.Options{})
	w.svc = newService(w.store, logger, w.clock.Now, func(c *service.Config) {
		c.Web = service.WebConfig{URL: webURL, Secret: bytes.Repeat([]byte{7}, service.MinWebSecret)}
	})
	w.begin(t, bot.Options{}, logger)
	return w
}

// linkButtons are the link buttons (style 5) under a message's
// components; the fake has already refused any that Discord would.
func linkButtons(comps []discordgo.MessageComponent) []*discordgo.Button {
	var out []*discordgo.Button
	for _, c := range comps {
		if row, ok := c.(*discordgo.ActionsRow); ok {
			for _, b := range row.Components {
				if bt, ok := b.(*discordgo.Button); ok && bt.Style == discordgo.LinkButton {
					out = append(out, bt)
				}
			}
		}
	}
	return out
}

// answerComponents are the components of an interaction's answer.
func answerComponents(r fakediscord.InteractionResponse) []discordgo.MessageComponent {
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return r.Data.Components
	}
	return final(r).Components
}

// TestLinkCommand: /link answers the player alone with a link button to
// their private link; reset:true makes the old one fail.
func TestLinkCommand(t *testing.T) {
	t.Parallel()
	w := startWeb(t)
	w.newGame(t)
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	page := webURL + "/g/" + w.svc.GameAddress(1)
	link := func(opts ...fakediscord.Opt) string {
		t.Helper()
		r := w.respond(t, w.srv.Slash("link", opts...).By(w.bo).In(w.srv.GuildID, w.thread))
		bs := linkButtons(answerComponents(r))
		if !ephemeral(r) || len(bs) != 1 || bs[0].CustomID != "" || !strings.HasPrefix(bs[0].URL, page+"?t=") {
			t.Fatalf("/link: %q ephemeral %v, link buttons %+v", text(r), ephemeral(r), bs)
		}
		if strings.Contains(text(r), "?t=") {
			t.Fatalf("/link puts the token in its text: %q", text(r))
		}
		return strings.TrimPrefix(bs[0].URL, page+"?t=")
	}
	old := link()
	if user, _, err := w.svc.CheckPlayerToken(t.Context(), g, old); err != nil || user != w.bo.ID {
		t.Fatalf("the link is %q's (%v)", user, err)
	}
	fresh := link(fakediscord.Bool("reset", true))
	if _, _, err := w.svc.CheckPlayerToken(t.Context(), g, old); err == nil {
		t.Fatal("the old link still works after reset")
	}
	if _, _, err := w.svc.CheckPlayerToken(t.Context(), g, fresh); err != nil {
		t.Fatalf("the new link: %v", err)
	}
	if strings.Contains(w.logs.String(), fresh) || strings.Contains(w.logs.String(), old) {
		t.Fatal("a token was logged")
	}
}

// TestLinkButtonsOnPosts: a move's post and the status message carry a
// link button to the game's page, and the next player's turn notice
// their private link; after /settings web:off (refused to a member
// without Manage Server) the next move's post carries none.
func TestLinkButtonsOnPosts(t *testing.T) {
	t.Parallel()
	w := startWeb(t)
	w.newGame(t)
	page := webURL + "/g/" + w.svc.GameAddress(1)
	onePage := func(what string, m *fakediscord.Message) {
		t.Helper()
		if bs := linkButtons(m.Components); len(bs) != 1 || bs[0].URL != page || bs[0].Label != service.PageButtonLabel {
			t.Fatalf("%s: link buttons %+v, want one to %s", what, bs, page)
		}
	}
	onePage("the status message", w.status(t))
	post := w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	onePage("the move's post", post)
	onePage("the status message after the move", w.status(t))
	dms := w.srv.WaitDMs(t, w.bo.ID, 1, patience)
	if bs := linkButtons(dms[len(dms)-1].Components); len(bs) != 1 || !strings.HasPrefix(bs[0].URL, page+"?t=") {
		t.Fatalf("bo's turn notice: link buttons %+v", bs)
	}

	// The fake's members have the bot's permissions, without Manage
	// Server (0x20) or Administrator (0x8).
	r := w.respond(t, w.srv.Slash("settings", fakediscord.Str("web", "off")).By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "Manage Server") {
		t.Fatalf("web:off by a member: %q", text(r))
	}
	manager := fakediscord.AllPermissions | discordgo.PermissionManageGuild
	r = w.respond(t, w.srv.Slash("settings", fakediscord.Str("web", "off")).By(w.ana).Permissions(manager))
	if !strings.Contains(text(r), "Game pages of this server: off") {
		t.Fatalf("web:off by a manager: %q", text(r))
	}
	post = w.play(t, w.bo, w.suggest(t, w.bo, "")[0].Value.(string))
	if bs := linkButtons(post.Components); len(bs) != 0 {
		t.Fatalf("a post with the pages off: %+v", bs)
	}
	if bs := linkButtons(w.status(t).Components); len(bs) != 0 {
		t.Fatalf("the status message with the pages off: %+v", bs)
	}
	r = w.respond(t, w.srv.Slash("link").By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "turned its game pages off") {
		t.Fatalf("/link with the pages off: %q", text(r))
	}
	// Administrator implies Manage Server.
	admin := fakediscord.AllPermissions | discordgo.PermissionAdministrator
	r = w.respond(t, w.srv.Slash("settings", fakediscord.Str("web", "on")).By(w.bo).Permissions(admin))
	if !strings.Contains(text(r), "Game pages of this server: on") {
		t.Fatalf("web:on by an administrator: %q", text(r))
	}
}
