package bot_test

// Items 12 and 21 of issue 24, as Discord shows them: a refusal quotes at
// most a short prefix of what was typed, and no reply leaves the user
// stuck or miscounts.

import (
	"strings"
	"testing"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// TestRefusalsQuoteAShortPrefix: Discord lets a string option hold 6,000
// characters; the refusals quoted all of it back (up to the 2,000 of a
// message). Each now quotes MaxQuoted characters at most and stays short.
func TestRefusalsQuoteAShortPrefix(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	long := strings.Repeat("x", 5990)
	for name, ib := range map[string]*fakediscord.InteractionBuilder{
		"an option the game lacks": w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID), fakediscord.Str("options", long+"=1")),
		"a time zone":              w.srv.Slash("settings", fakediscord.Str("timezone", long)),
		"a game to list":           w.srv.Slash("history", fakediscord.Str("game", long)),
		"a game number":            w.srv.Slash("move", fakediscord.Str("notation", "d5 RGBY"), fakediscord.Str("game", "#"+long)),
		"a level":                  w.srv.Slash("new", fakediscord.Str("game", "closure"), fakediscord.UserOpt("opponent", w.srv.Bot.ID), fakediscord.Str("level", long)),
	} {
		r := w.respond(t, ib.By(w.ana))
		got := text(r)
		if !ephemeral(r) || !strings.Contains(got, "xxxxxxxx…\"") || strings.Contains(got, strings.Repeat("x", service.MaxQuoted)) || len(got) > 300 {
			t.Errorf("%s: the refusal (%d bytes, ephemeral %v): %.400q", name, len(got), ephemeral(r), got)
		}
	}
}

// TestRefusalsClipUnquotedEchoes: the engine writes an option's value as
// it came when it refuses it ("borders=…: give the four colours"), not
// quoted, and a value of 6,000 characters was written back whole (before:
// a reply of 6,084 bytes). Every echo is clipped to MaxQuoted characters,
// quoted or not, and the refusal still names the option.
func TestRefusalsClipUnquotedEchoes(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	long := strings.Repeat("x", 5990)
	for name, ib := range map[string]*fakediscord.InteractionBuilder{
		"elemental's borders": w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID), fakediscord.Str("options", "borders="+long)),
		"tilingking's board":  w.srv.Slash("new", fakediscord.Str("game", "tilingking"), fakediscord.UserOpt("opponent", w.bo.ID), fakediscord.Str("options", "board="+long)),
		"closure's colours":   w.srv.Slash("new", fakediscord.Str("game", "closure"), fakediscord.UserOpt("opponent", w.bo.ID), fakediscord.Str("options", "colors="+long)),
	} {
		r := w.respond(t, ib.By(w.ana))
		got := strings.ToLower(text(r)) // closure writes the colours in capitals
		if !ephemeral(r) || !strings.Contains(got, "=xxxxxxxx") || !strings.Contains(got, "xxxxxxxx…: ") || strings.Contains(got, strings.Repeat("x", service.MaxQuoted)) || len(got) > 300 {
			t.Errorf("%s: the refusal (%d bytes, ephemeral %v): %.400q", name, len(got), ephemeral(r), got)
		}
	}
}

// TestRepliesSayWhatToDo: an unknown button says that nothing changed
// and where to go on; an unknown game lists the games and the nearest;
// a challenge says whether it is rated. (Counts of one, in /profile's and
// /leaderboard's replies, are checked in the service's tests: a reply
// with a picture can miss the 3 s window on a loaded machine, item 4.)
func TestRepliesSayWhatToDo(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	cy := w.srv.AddUser("cy")
	r := w.respond(t, w.srv.Button("frobnicate:1").By(w.ana))
	if !ephemeral(r) || text(r) != service.UnknownButton || !strings.Contains(text(r), "/games lists your games") {
		t.Errorf("an unknown button: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("history", fakediscord.Str("game", "tiling")).By(w.ana))
	if !strings.Contains(text(r), `There is no game "tiling"; did you mean tilingking?`) || !strings.Contains(text(r), "closure, elemental, glorieta, knotwork, tilingking") {
		t.Errorf("an unknown game: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "closure"), fakediscord.UserOpt("opponent", cy.ID), fakediscord.Bool("rated", false)).By(w.ana))
	if !strings.Contains(text(r), "no clock, unrated.") {
		t.Errorf("an unrated challenge: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "closure"), fakediscord.UserOpt("opponent", w.srv.Bot.ID)).By(cy))
	if !strings.Contains(text(r), "no clock, unrated: the computer plays.") {
		t.Errorf("a game against the computer: %q", text(r))
	}
	r = w.respond(t, w.srv.Slash("new", fakediscord.Str("game", "glorieta"), fakediscord.UserOpt("opponent", w.bo.ID)).By(w.ana))
	if !strings.Contains(text(r), "no clock, rated.") {
		t.Errorf("a rated challenge: %q", text(r))
	}
}
