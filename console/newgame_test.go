package console

import (
	"strings"
	"testing"
)

// Items 14 and 21 of issue 24: /new takes a game's full name, @name and
// level words; any other word is refused with the form, where it used to
// become an opponent; rated= takes only true or false.
func TestConsoleNewReadsEveryWord(t *testing.T) {
	for _, c := range []struct {
		line    string
		game    string   // the game made; "" when refused
		players []string // its seats: a name, or the computer's level
		unrated bool
		refusal string // what the refusal says
	}{
		// A game's full name is one game, not an opponent "@connection".
		{line: "ana: /new Elemental Connection bo", game: "elemental", players: []string{"ana", "bo"}},
		{line: "ana: /new elemental connection @bo", game: "elemental", players: []string{"ana", "bo"}},
		// A level word is the computer's level, not a player "@hard".
		{line: "ana: /new closure tessera hard", game: "closure", players: []string{"ana", "AI hard"}},
		{line: "ana: /new closure tessera level=easy", game: "closure", players: []string{"ana", "AI easy"}},
		// @bo is bo, not "@@bo".
		{line: "ana: /new elemental @bo", game: "elemental", players: []string{"ana", "bo"}},
		{line: "ana: /new tilingking bo @cy", game: "tilingking", players: []string{"ana", "bo", "cy"}},
		{line: "ana: /new elemental bo rated=false", game: "elemental", players: []string{"ana", "bo"}, unrated: true},
		// Stray words are refused with the expected form.
		{line: "ana: /new closure bo connection", refusal: `"connection" is a game's word, not a player`},
		{line: "ana: /new elemental @@bo", refusal: `"@@bo" is not a player's name`},
		{line: "ana: /new elemental bo, cy", refusal: `"bo," is not a player's name`},
		{line: "ana: /new elemental " + strings.Repeat("x", 40), refusal: `"xxxxxxxxxxxxxxxxxxxxxxx…" is not a player's name`},
		{line: "ana: /new closure tessera hard easy", refusal: "The level is given twice"},
		{line: "ana: /new elemental hard", refusal: "A level is for a game against the computer"},
		// rated=maybe was counted as rated.
		{line: "ana: /new elemental bo rated=maybe", refusal: "rated=maybe: write rated=true (the default) or rated=false"},
	} {
		con, out := newConsole(t)
		con.Line(t.Context(), c.line)
		games, err := con.svc.Store().ByPlayer(t.Context(), "ana")
		if err != nil {
			t.Fatal(err)
		}
		if c.game == "" {
			if len(games) != 0 || !strings.Contains(out.String(), c.refusal) || !strings.Contains(out.String(), "Write /new <game>") && !strings.Contains(c.refusal, "rated=") {
				t.Errorf("%s: %d games made; the answer:\n%s", c.line, len(games), out)
			}
			continue
		}
		if len(games) != 1 {
			t.Errorf("%s: %d games made:\n%s", c.line, len(games), out)
			continue
		}
		g := games[0]
		var seats []string
		for _, p := range g.Players {
			if p.IsAI() {
				seats = append(seats, "AI "+p.AI)
			} else {
				seats = append(seats, p.ID)
			}
		}
		if g.Setup.Game != c.game || strings.Join(seats, ",") != strings.Join(c.players, ",") || g.Unrated != c.unrated {
			t.Errorf("%s: made %s for %v (unrated %v), want %s for %v (unrated %v)", c.line, g.Setup.Game, seats, g.Unrated, c.game, c.players, c.unrated)
		}
	}
}
