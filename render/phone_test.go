package render_test

import (
	"fmt"
	"image"
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
	"tessera/render"
)

// picture is one picture's layout, as the renderer made it.
type picture struct {
	name   string
	bounds image.Rectangle
	texts  []render.TextBox
}

// longName is as long as a Discord display name may be (32 characters).
const longName = "Maximiliana Wolkenstein-Hohenau"

// gamePictures plays a game with random moves and collects the layout
// of its board (with the panel) and each seat's hand at the start and at
// the end (the fullest board and panel), and of a replay frame.
func gamePictures(t *testing.T, setup engine.Setup) []picture {
	t.Helper()
	st, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{longName, "Bo", "Cy", longName}[:setup.Players]
	g, _ := engine.Lookup(setup.Game)
	title := fmt.Sprintf("%s · game #%d", g.Name, 123456)
	r := engine.NewRand(setup.Seed)
	var out []picture
	take := func(stage string) {
		sc := st.Board()
		panel := render.NewPanel(title, st.View(engine.NoSeat), names)
		b, texts := render.BoardTexts(sc, panel)
		out = append(out, picture{"board " + stage, b, texts})
		if st.Over() { // a frame is a board under the caption band: one will do
			b, texts = render.ReplayFrameTexts(render.ReplayFrame{Scene: sc, Panel: panel, Caption: "Move 123 of 456 · " + longName + ": d4 RGBY"})
			out = append(out, picture{"replay frame " + stage, b, texts})
		}
		for s := 0; s < setup.Players; s++ {
			b, texts := render.SceneTexts(st.HandScene(engine.Seat(s)))
			out = append(out, picture{fmt.Sprintf("hand of seat %d %s", s+1, stage), b, texts})
		}
	}
	take("at the start")
	for !st.Over() {
		legal := st.Legal()
		if _, err := st.Apply(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	take("at the end")
	return out
}

// solvedPuzzle is a Knotwork puzzle solved by following its hints.
func solvedPuzzle(t *testing.T, level string) []picture {
	t.Helper()
	st, err := engine.New(engine.Setup{Game: "knotwork", Players: 1, Seed: 5, Options: map[string]string{"puzzle": level}})
	if err != nil {
		t.Fatal(err)
	}
	var out []picture
	panel := func() render.Panel {
		return render.NewPanel("Knotwork · game #5", st.View(engine.NoSeat), []string{longName})
	}
	b, texts := render.BoardTexts(st.Board(), panel())
	out = append(out, picture{level + " puzzle at the start", b, texts})
	b, texts = render.SceneTexts(st.HandScene(0))
	out = append(out, picture{level + " puzzle's hand", b, texts})
	hinter := st.(interface{ Hint() (engine.Move, bool) })
	for !st.Over() {
		m, ok := hinter.Hint()
		if !ok {
			t.Fatalf("%s puzzle: no hint after %d moves", level, len(out))
		}
		if _, err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	b, texts = render.BoardTexts(st.Board(), panel())
	out = append(out, picture{level + " puzzle solved", b, texts})
	return out
}

func otherPictures() []picture {
	var rows []render.LeaderRow
	for i := 1; i <= 20; i++ {
		rows = append(rows, render.LeaderRow{Place: i, Name: longName, Rating: 2345, Games: 1234, Wins: 987, Provisional: i%3 == 0})
	}
	note := "? provisional: fewer than 10 rated games. Ratings are Glicko-2, shown as rating minus twice the deviation."
	var out []picture
	b, texts := render.LeaderboardTexts(render.LeaderTable{Title: "Elemental Connection: leaderboard", Rows: rows, Own: &render.LeaderRow{Place: 123, Name: longName, Rating: 1000, Games: 3, Wins: 1, Me: true}, Note: note})
	out = append(out, picture{"leaderboard", b, texts})
	b, texts = render.LeaderboardTexts(render.LeaderTable{Title: "Closure: leaderboard", Note: note})
	out = append(out, picture{"empty leaderboard", b, texts})
	card := render.ProfileCard{Title: longName, InPlay: 12, Note: note,
		AI: []render.ProfileAI{{Level: "easy", Won: 12, Lost: 3, Shared: 1}, {Level: "hard", Won: 0, Lost: 30, Shared: 0}}}
	for _, g := range []string{"Elemental Connection", "Closure", "Glorieta", "Knotwork", "TilingKing"} {
		card.Games = append(card.Games, render.ProfileGame{Name: g, Rating: 1876, Provisional: true, Won: 123, Lost: 456, Shared: 78,
			Course: []int{1500, 1620, 1580, 1876, 2345}, Best: 2345, Place: 112, Rated: 1234})
	}
	b, texts = render.ProfileTexts(card)
	out = append(out, picture{"profile", b, texts})
	b, texts = render.ProfileTexts(render.ProfileCard{Title: "Bo", Note: note})
	out = append(out, picture{"empty profile", b, texts})
	for _, s := range standingsPictures() {
		b, texts = render.StandingsTexts(s)
		out = append(out, picture{"standings " + s.Title, b, texts})
	}
	return out
}

// standingsPictures are the extremes of an event's standings: 40 players
// with the longest names and widest numbers under two tie-breaks (a
// third is not drawn), some of them gone; a Swiss event's two; and an
// event nobody joined yet.
func standingsPictures() []render.Standings {
	full := render.Standings{Title: "Elemental Connection double-round-robin · event #123456 · " + longName,
		Subtitle: "After round 78 of 78 · final standings", Columns: []string{"BH1", "SB", "DE"},
		Footer: "BH1: Buchholz cut 1 · SB: Sonneborn-Berger · DE: direct encounter · (left): withdrew, no longer paired"}
	for i := 1; i <= 40; i++ {
		full.Rows = append(full.Rows, render.StandingsRow{Rank: fmt.Sprint(i), Name: longName, Points: "77.5",
			TieBreaks: []string{"3012.25", "2999.75", "78.5"}, Played: 78, Withdrawn: i%7 == 0})
	}
	swiss := render.Standings{Title: "Closure Swiss · event #3", Subtitle: "After round 2 of 4", Columns: []string{"BH1", "SB"},
		Rows: []render.StandingsRow{{Rank: "1", Name: "Ana", Points: "2", TieBreaks: []string{"1", "1"}, Played: 2},
			{Rank: "2", Name: "Bo", Points: "1.5", TieBreaks: []string{"2.5", "1.25"}, Played: 2}}}
	empty := render.Standings{Title: "Glorieta round-robin · event #4", Footer: "Nobody has joined yet."}
	return []render.Standings{full, swiss, empty}
}

// TestEveryTextReadableOnAPhone: on a phone Discord shows a picture at
// the chat column's width, about 390 px, so a picture W px wide is scaled
// by 390/W. Every text of every kind of picture (every game's board with
// its panel, hands, replay frames, puzzles, the leaderboard and the
// profile) has capitals at least 9 px high there (a capital's height, not
// the font's size: that is what a reader sees as the letters' size), lies
// inside the picture and keeps clear of every other text (issue #24,
// item 22: the
// title, hand counts and legends were about 6 px high, and a solved
// puzzle's heading ran over the panel's title).
func TestEveryTextReadableOnAPhone(t *testing.T) {
	setups := []engine.Setup{
		{Game: "elemental", Players: 2, Seed: 1},
		{Game: "elemental", Players: 4, Seed: 2},
		{Game: "closure", Players: 2, Seed: 3},
		{Game: "closure", Players: 3, Seed: 4},
		{Game: "glorieta", Players: 2, Seed: 5},
		{Game: "knotwork", Players: 2, Seed: 6},
		{Game: "tilingking", Players: 2, Seed: 7, Options: map[string]string{"board": "square9", "pie": "on", "maxcapture": "half"}},
		{Game: "tilingking", Players: 4, Seed: 8, Options: map[string]string{"board": "square11"}},
		{Game: "tilingking", Players: 3, Seed: 9, Options: map[string]string{"board": "hex"}},
		{Game: "tilingking", Players: 3, Seed: 10, Options: map[string]string{"board": "tri"}},
	}
	var pictures []picture
	for _, s := range setups {
		for _, p := range gamePictures(t, s) {
			p.name = fmt.Sprintf("%s (%d players, %v): %s", s.Game, s.Players, s.Options, p.name)
			pictures = append(pictures, p)
		}
	}
	pictures = append(pictures, solvedPuzzle(t, "easy")...)
	pictures = append(pictures, solvedPuzzle(t, "hard")...)
	pictures = append(pictures, otherPictures()...)
	failures := 0
	fail := func(format string, args ...any) {
		failures++
		if failures <= 40 {
			t.Errorf(format, args...)
		}
	}
	for _, p := range pictures {
		if len(p.texts) == 0 {
			fail("%s: no text recorded", p.name)
		}
		scale := render.PhoneWidth / float64(p.bounds.Dx())
		for i, tb := range p.texts {
			if h := tb.Cap * scale; h < render.MinPhoneCap {
				fail("%s: %q has capitals %.1f px high on a phone (size %.1f in a picture %d wide), want at least %.0f", p.name, tb.Text, h, tb.Size, p.bounds.Dx(), render.MinPhoneCap)
			}
			if !tb.Box.In(p.bounds) {
				fail("%s: %q at %v is not inside the picture %v", p.name, tb.Text, tb.Box, p.bounds)
			}
			for _, other := range p.texts[:i] {
				if tooClose(tb.Box, other.Box) {
					fail("%s: %q at %v overlaps %q at %v", p.name, tb.Text, tb.Box, other.Text, other.Box)
				}
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d failures in %d pictures", failures, len(pictures))
	}
}

// tooClose reports whether two texts' ink would read as one: side by side
// (their heights overlap) closer than 12 px, two word spaces of the
// panel's text ("...5x5 window. Knotwork · game #5" was 6 px apart), or
// one above the other closer than 2 px.
func tooClose(a, b image.Rectangle) bool {
	if a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y {
		return a.Min.X < b.Max.X+12 && b.Min.X < a.Max.X+12
	}
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y+2 && b.Min.Y < a.Max.Y+2
}
