package bot_test

// End-to-end tests of what careless and hostile players broke (issue 12):
// a plain-text move's refusal named the mover's hand in the thread, any
// server could show any game's board, a challenge could not be withdrawn,
// and an aborted game read as in play.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// TestPlainTextRefusalHidesTheHand: the answer in the thread, which every
// member reads, never names the mover's tiles; /move tells the mover alone.
func TestPlainTextRefusalHidesTheHand(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{PlainText: true})
	w.newGame(t)
	hand := handOf(t, w, 0)
	tile := ""
	for _, c := range []string{"RRRR", "GGGG", "BBBB", "YYYY", "RRGG", "BBYY"} {
		if !slices.Contains(hand, c) {
			tile = c
			break
		}
	}
	bad := w.srv.UserMessage(w.ana, w.thread, "d5 "+tile)
	reply := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return m.MessageReference != nil && m.MessageReference.MessageID == bad.ID
	}, 0)
	// The public answer is the fixed line, and then only the post's marker
	// (a small-print line the courier adds to find its posts again).
	if first, _, _ := strings.Cut(reply.Content, "\n"); first != service.PlainMoveRefused {
		t.Fatalf("public answer %q", reply.Content)
	}
	w.settle(t)
	for _, m := range w.srv.Messages(w.thread) {
		if m.Author != nil && m.Author.ID == w.ana.ID {
			continue // what alice typed herself
		}
		for _, h := range hand {
			if strings.Contains(m.Content, h) {
				t.Fatalf("the thread shows %s from alice's hand %v: %q", h, hand, m.Content)
			}
		}
	}
	// The reason is given privately by /move.
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", "d5 "+tile)).By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "you hold") {
		t.Fatalf("/move's private reason: %q (ephemeral %v)", text(r), ephemeral(r))
	}
	if g, _ := w.store.Game(t.Context(), 1); len(g.Moves) != 0 {
		t.Fatal("a refused move was stored")
	}
}

// TestGameShownOnlyInItsServer: from another server a stranger learns
// nothing of game #1 (not even that it exists), and a player sees it only
// privately; nothing is posted there.
func TestGameShownOnlyInItsServer(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	other := w.srv.AddGuild("other")
	ch := w.srv.AddChannel(other, "general")
	carl := w.srv.AddUser("carl")

	for _, cmd := range []string{"board", "hand", "resign", "abort"} {
		r := w.respond(t, w.srv.Slash(cmd, fakediscord.Str("game", "1")).By(carl).In(other, ch))
		if !ephemeral(r) || text(r) != "There is no game #1." || len(files(r)) != 0 {
			t.Fatalf("/%s game:1 by a stranger elsewhere: %q (ephemeral %v, %d files)", cmd, text(r), ephemeral(r), len(files(r)))
		}
	}
	ac := w.respond(t, w.srv.Autocomplete("board", fakediscord.Focused(fakediscord.Str("game", ""))).By(carl).In(other, ch))
	if len(ac.Data.Choices) != 0 {
		t.Fatalf("a stranger is offered games: %+v", ac.Data.Choices)
	}
	ac = w.respond(t, w.srv.Autocomplete("move", fakediscord.Str("game", "1"), fakediscord.Focused(fakediscord.Str("notation", ""))).By(carl).In(other, ch))
	if len(ac.Data.Choices) != 1 || strings.Contains(ac.Data.Choices[0].Name, "alice") {
		t.Fatalf("move choices for a stranger elsewhere: %+v", ac.Data.Choices)
	}

	// bo, a player, may look from the other server, privately.
	r := w.respond(t, w.srv.Slash("board", fakediscord.Str("game", "1")).By(w.bo).In(other, ch))
	if !ephemeral(r) || len(files(r)) != 1 || !strings.Contains(text(r), "game #1") {
		t.Fatalf("/board for a player elsewhere: %q (ephemeral %v, %d files)", text(r), ephemeral(r), len(files(r)))
	}
	for _, m := range w.srv.Messages(ch) {
		if m.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Fatalf("posted for everyone in the other server: %q", m.Content)
		}
	}
	// In the game's own server anyone may see the board.
	r = w.respond(t, w.srv.Slash("board", fakediscord.Str("game", "1")).By(carl))
	if ephemeral(r) || len(files(r)) != 1 {
		t.Fatalf("/board in the game's server: %q (ephemeral %v)", text(r), ephemeral(r))
	}
}

// TestChallengerWithdraws: the challenge carries a Withdraw button that
// only the challenger may use, and the challenger's /abort in the channel
// withdraws a challenge too.
func TestChallengerWithdraws(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	challenge := func(id string) {
		r := w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID)).By(w.ana))
		if got := strings.Join(buttons(r), ","); got != "accept:"+id+",decline:"+id+",withdraw:"+id {
			t.Fatalf("challenge buttons %s", got)
		}
	}
	challenge("1")
	r := w.respond(t, w.srv.Button("withdraw:1").By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "Only alice") {
		t.Fatalf("bo's Withdraw: %q", text(r))
	}
	r = w.respond(t, w.srv.Button("withdraw:1").By(w.ana))
	if ephemeral(r) || text(r) != "alice withdrew the challenge to game #1." {
		t.Fatalf("alice's Withdraw: %q (ephemeral %v)", text(r), ephemeral(r))
	}
	r = w.respond(t, w.srv.Button("accept:1").By(w.bo))
	if !ephemeral(r) || !strings.Contains(text(r), "withdrawn") {
		t.Fatalf("accepting a withdrawn challenge: %q", text(r))
	}

	challenge("2")
	r = w.respond(t, w.srv.Slash("abort").By(w.ana))
	if ephemeral(r) || text(r) != "alice withdrew the challenge to game #2." {
		t.Fatalf("/abort of a challenge: %q (ephemeral %v)", text(r), ephemeral(r))
	}
	for _, id := range []uint64{1, 2} {
		if g, _ := w.store.Game(t.Context(), id); g.Status != "withdrawn" {
			t.Fatalf("game #%d: %s", id, g.Status)
		}
		// Its message says so, and its buttons are gone.
		want := fmt.Sprintf("**Elemental Connection**, game #%d: alice withdrew the challenge.", id)
		w.srv.WaitMessage(t, w.srv.ChannelID, func(m *fakediscord.Message) bool {
			g, _ := w.store.Game(t.Context(), id) // its message is recorded a moment after it is posted
			return m.ID == g.MessageID && strings.HasPrefix(m.Content, want) && len(messageButtons(m)) == 0
		}, patience)
	}
}

// TestAbortedGameReadsAsAborted: after /abort, /board and /games say so.
func TestAbortedGameReadsAsAborted(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	w.play(t, w.ana, w.suggest(t, w.ana, "")[0].Value.(string))
	w.respond(t, w.srv.Slash("abort").By(w.bo).In(w.srv.GuildID, w.thread))
	w.settle(t)
	r := w.respond(t, w.srv.Slash("board").By(w.bo).In(w.srv.GuildID, w.thread))
	if !strings.Contains(text(r), "aborted after 1 move: no result") || strings.Contains(text(r), "to move") || len(files(r)) != 1 {
		t.Fatalf("/board: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("games").By(w.ana))
	if !strings.Contains(text(r), "#1 Elemental Connection vs bo: aborted, no result") {
		t.Fatalf("/games: %q", text(r))
	}
}
