package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// TestAnalyze: through the fake Discord, /analyze of a game in play is
// refused with the reason; once the game is over, the reply says the
// analysis started, a progress line is posted in the game's thread and
// edited to done, the chart follows there with the costly moves in
// words, and asking again answers at once with the same picture.
func TestAnalyze(t *testing.T) {
	t.Parallel()
	w, logger := newWorld(t, bot.Options{})
	w.svc = newService(w.store, logger, w.clock.Now, func(c *service.Config) { c.AnalysisIterations = 200 })
	w.begin(t, bot.Options{}, logger)
	w.newGame(t)
	for _, u := range []*discordgo.User{w.ana, w.bo} { // two moves, then ana resigns
		w.play(t, u, w.suggest(t, u, "")[0].Value.(string))
	}
	r := w.respond(t, w.srv.Slash("analyze").By(w.bo).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "Game #1 is still in play: it can be analysed once it is over") {
		t.Fatalf("/analyze in play: %q", text(r))
	}
	w.resign(t, w.ana, w.bo)
	cy := w.srv.AddUser("cy")
	r = w.respond(t, w.srv.Slash("analyze", fakediscord.Str("game", "1")).By(cy))
	if !strings.Contains(text(r), "The analysis of game #1 has started") {
		t.Fatalf("/analyze: %q", text(r))
	}
	result := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**Analysis** of Elemental Connection, game #1")
	}, patience)
	if len(result.Files) != 1 || result.Files[0].Format != "png" || result.Files[0].Name != "game-1-analysis.png" || !strings.Contains(result.Content, "alice: ") {
		t.Fatalf("the result: %q, %d files", result.Content, len(result.Files))
	}
	progress := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "Analysis of game #1: done, 4 positions")
	}, patience)
	if progress.EditedTimestamp == nil {
		t.Fatal("the progress line was never edited")
	}
	r = w.respond(t, w.srv.Slash("analyze", fakediscord.Str("game", "1")).By(cy))
	fs := files(r)
	if len(fs) != 1 || string(fs[0].Data) != string(result.Files[0].Data) || !strings.Contains(text(r), "**Analysis** of Elemental Connection, game #1") {
		t.Fatalf("asked again: %q, %d files", text(r), len(fs))
	}
}
