package games_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
)

// FuzzOptions drives every game's option checks through engine.New, as
// /new, defaults.options and tessera replay do. The properties: New never
// panics; a refusal is an *engine.IllegalError with a message; an option
// name the game does not declare is always refused; an accepted setup is
// a game in play with the asked number of seats, someone to move, a score
// per seat and at least one legal move, and is dealt the same way every
// time from the same seed.
func FuzzOptions(f *testing.F) {
	for _, s := range []struct {
		game    uint8
		players int
		words   string
	}{
		{0, 2, "colors=GB first=2"}, {0, 3, "first=3"}, {0, 2, "colors=BBR"},
		{1, 2, "borders=RBGY"}, {1, 4, "borders=rbgy"}, {1, 2, "borders=RRRR"},
		{2, 2, ""}, {3, 2, "x"}, {4, 2, "board=hex pie=on"}, {4, 3, "board=tri maxcapture=half"},
		{4, 4, "board=square9"}, {4, 2, "pie=on,board=square11"}, {1, 2, "=x"},
	} {
		f.Add(s.game, s.players, s.words)
	}
	games := engine.Games()
	f.Fuzz(func(t *testing.T, gi uint8, players int, words string) {
		g := games[int(gi)%len(games)]
		if players < 0 || players > 8 {
			players %= 9
			if players < 0 {
				players = -players
			}
		}
		opts, err := engine.ParseOptions(strings.FieldsFunc(words, func(r rune) bool { return r == ' ' || r == ',' }))
		if err != nil {
			var ie *engine.IllegalError
			if !errors.As(err, &ie) || ie.Msg == "" {
				t.Fatalf("ParseOptions(%q): %v is not a player's error", words, err)
			}
			return
		}
		setup := engine.Setup{Game: g.ID, Players: players, Seed: 11, Options: opts}
		st, err := engine.New(setup)
		declared := true
		for k := range opts {
			declared = declared && slices.ContainsFunc(g.Options, func(o engine.Option) bool { return o.Name == k })
		}
		if err != nil {
			var ie *engine.IllegalError
			if !errors.As(err, &ie) || strings.TrimSpace(ie.Msg) == "" {
				t.Fatalf("%s %d %q: %v is not a player's error", g.ID, players, words, err)
			}
			return
		}
		if !declared {
			t.Fatalf("%s accepted an option it does not declare: %q", g.ID, words)
		}
		if players < g.MinPlayers || players > g.MaxPlayers {
			t.Fatalf("%s accepted %d players", g.ID, players)
		}
		if st.Players() != players || st.Over() || int(st.ToMove()) < 0 || int(st.ToMove()) >= players || len(st.Scores()) != players {
			t.Fatalf("%s %q: seats %d, over %v, to move %d, scores %v", g.ID, words, st.Players(), st.Over(), st.ToMove(), st.Scores())
		}
		legal := st.Legal()
		if len(legal) == 0 {
			t.Fatalf("%s %q: no legal first move", g.ID, words)
		}
		again, err := engine.New(setup)
		if err != nil {
			t.Fatalf("%s %q: accepted once, refused the second time: %v", g.ID, words, err)
		}
		if a, b := fmt.Sprint(legal), fmt.Sprint(again.Legal()); a != b {
			t.Fatalf("%s %q: the same setup dealt two games", g.ID, words)
		}
		for s := 0; s < players; s++ {
			if fmt.Sprint(st.Hand(engine.Seat(s))) != fmt.Sprint(again.Hand(engine.Seat(s))) {
				t.Fatalf("%s %q: seat %d's hand differs between two deals", g.ID, words, s+1)
			}
		}
	})
}
