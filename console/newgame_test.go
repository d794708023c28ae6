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
		games, err := con.store().ByPlayer(t.Context(), "ana")
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

// Issue 45: a word that names an option of /new (the service's table) or
// of the game is never a player, and a word meant as a level in a game
// against the computer is not one either: each is answered with the form
// expected. "borders RBGY" challenged @borders and @rbgy, "clock 3d"
// @clock and @3d, and "tessera hardest" answered "Knotwork is for 1 to 2
// players", naming neither the word nor the levels.
func TestConsoleNewOptionWordsAreNotPlayers(t *testing.T) {
	for _, c := range []struct {
		line  string
		wants []string // in the answer; nil: the game is made
	}{
		{"ana: /new elemental bo borders RBGY", []string{`"borders" is an option of Elemental Connection, not a player`, "options need =, as in borders=RBGY"}},
		{"ana: /new elemental bo clock 3d", []string{`"clock" is the name of an option, not a player`, "options need =, as in clock=3d", "Time control"}},
		{"ana: /new elemental bo Clock", []string{"as in clock=…"}},
		{"ana: /new closure tessera level hard", []string{`"level" is the name of an option`, "level=hard"}},
		{"ana: /new tilingking bo seats 3", []string{"seats=3"}},
		{"ana: /new elemental bo rated false", []string{"rated=false"}},
		{"ana: /new elemental bo options borders=RBGY", []string{`"options" is the name of an option`, "Elemental Connection's: borders"}},
		{"ana: /new elemental opponent bo", []string{"write each opponent alone after the game, as bo or @bo"}},
		{"ana: /new tilingking bo pie", []string{`"pie" is an option of TilingKing`, "pie=…"}},
		// A level mistyped, or a word too many against the computer.
		{"ana: /new knotwork tessera hardest", []string{`"hardest" is not a level: the computer plays easy, normal or hard`}},
		{"ana: /new closure norm tessera", []string{`"norm" is not a level`}},
		{"ana: /new knotwork tessera medium", []string{`"medium" is not a level (the computer plays easy, normal or hard), and as a player it is one too many: Knotwork is for 1 to 2 players`}},
		// What stays a player or an option: @ marks a player; options=
		// is the table's name for the game's options; a hardy player
		// against a person is a player.
		{"ana: /new elemental @borders", nil},
		{"ana: /new elemental bo options=borders=RBGY", nil},
		{"ana: /new elemental hardy", nil},
		{"ana: /new tilingking tessera @hardest hard", nil},
	} {
		con, out := newConsole(t)
		con.Line(t.Context(), c.line)
		games, err := con.store().ByPlayer(t.Context(), "ana")
		if err != nil {
			t.Fatal(err)
		}
		if c.wants == nil {
			if len(games) != 1 {
				t.Errorf("%s: %d games made:\n%s", c.line, len(games), out)
			}
			continue
		}
		if len(games) != 0 {
			t.Errorf("%s: made a game for %v:\n%s", c.line, games[0].Players, out)
			continue
		}
		for _, want := range c.wants {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the answer lacks %q:\n%s", c.line, want, out)
			}
		}
	}
}

// Issue 45: the other commands read name=value; a bare option name was
// left out without a word ("/settings notify off" changed nothing and
// said so only by showing the settings unchanged).
func TestConsoleBareOptionNameIsAnswered(t *testing.T) {
	c, out := newConsole(t)
	c.Line(t.Context(), "ana: /settings notify off")
	if !strings.Contains(out.String(), "Options need =: write /settings notify=off") {
		t.Fatalf("the answer:\n%s", out)
	}
	out.Reset()
	c.Line(t.Context(), "ana: /link reset")
	if !strings.Contains(out.String(), "Options need =: write /link reset=true") {
		t.Fatalf("the answer:\n%s", out)
	}
	out.Reset()
	c.Line(t.Context(), "ana: /settings notify=off")
	if strings.Contains(out.String(), "Options need") {
		t.Fatalf("name=value refused:\n%s", out)
	}
}
