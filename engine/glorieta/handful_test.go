package glorieta

import (
	"strings"
	"testing"

	"tessera/engine"
	"tessera/engine/enginetest"
)

func newHandful(t *testing.T, n string) *State {
	t.Helper()
	s, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: map[string]string{"handful": n}})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

func TestHandfulOption(t *testing.T) {
	for _, bad := range []string{"0", "7", "x", "-1", "2.5"} {
		_, err := engine.New(engine.Setup{Game: ID, Players: 2, Options: map[string]string{"handful": bad}})
		if _, ok := err.(*engine.IllegalError); !ok || !strings.Contains(err.Error(), "from 1 to 6") {
			t.Fatalf("handful=%s: %v", bad, err)
		}
	}
	// handful=6 is the standard game: the same position as no option.
	if a, b := enginetest.Fingerprint(newHandful(t, "6")), enginetest.Fingerprint(newHandful(t, "")); a != b {
		t.Fatal("handful=6 differs from the standard game")
	}
	g, _ := engine.Lookup(ID)
	if len(g.Options) != 1 || g.Options[0].Name != "handful" || g.Options[0].Default != "6" || !strings.Contains(g.Summary, "handful=N") {
		t.Fatalf("options %+v", g.Options)
	}
	// The picture and the legend say the handful when it is not 6.
	st := newHandful(t, "4")
	if !sceneSays(st.Board(), "handful 4") || !strings.Contains(strings.Join(st.View(engine.NoSeat).Legend, " "), "handfuls of 4 stones") {
		t.Fatal("handful=4 is not shown")
	}
	places := 0
	for _, it := range st.HandScene(Yellow).Items {
		if it.Path != nil {
			places++
		}
	}
	if places != 4 {
		t.Fatalf("the hand picture of handful=4 has %d places", places)
	}
	if std := newHandful(t, ""); sceneSays(std.Board(), "handful") || strings.Contains(strings.Join(std.View(engine.NoSeat).Legend, " "), "handful") {
		t.Fatal("the standard game shows a handful")
	}
}

func sceneSays(sc engine.Scene, text string) bool {
	for _, it := range sc.Items {
		if it.Text == text {
			return true
		}
	}
	return false
}

// TestHandfulOne: a hand of one stone. Each turn places one stone or
// flips; the flip obligation comes after every single stone unless the
// player flipped while holding it.
func TestHandfulOne(t *testing.T) {
	st := newHandful(t, "1")
	o := enginetest.Play(t, st, "g7")
	// Both take one stone. Black holds 1: no pairs, and nothing to flip,
	// so Black's moves are the 126 empty cells.
	if hands(st) != [2]int{1, 1} || !strings.Contains(events(o), "takes a hand of 1 stone;") {
		t.Fatalf("after the first stone: hands %v, events %q", hands(st), events(o))
	}
	if n := len(st.Legal()); n != 126 {
		t.Fatalf("Black holds one stone: %d legal moves, want 126", n)
	}
	enginetest.Refused(t, st, "f6 f7", "only 1 stone")
	// Black places its stone without having flipped: no pick-up, a flip
	// is owed.
	o = enginetest.Play(t, st, "f6")
	if hands(st) != [2]int{1, 0} || !strings.Contains(events(o), "must flip") {
		t.Fatalf("after Black's stone: hands %v, events %q", hands(st), events(o))
	}
	// Yellow, holding one, may place on the 125 empty cells or flip g7:
	// Yellow flips, keeps the stone and has flipped for this handful.
	if n := len(st.Legal()); n != 125+1 {
		t.Fatalf("Yellow: %d legal moves, want 126", n)
	}
	enginetest.Play(t, st, "flip g7")
	if hands(st) != [2]int{1, 0} || !st.Flipped[Yellow] {
		t.Fatalf("after Yellow's flip: hands %v, flipped %v", hands(st), st.Flipped)
	}
	// Black owes the flip: its only move is flip f6; then it picks up 1.
	if got := strings.Join(enginetest.LegalStrings(st), ","); got != "flip f6" {
		t.Fatalf("Black's forced flip: legal %s", got)
	}
	enginetest.Refused(t, st, "a1", "then you pick up 1 more")
	o = enginetest.Play(t, st, "flip f6")
	if hands(st) != [2]int{1, 1} || st.Flipped[Black] {
		t.Fatalf("after Black's flip: hands %v, flipped %v", hands(st), st.Flipped)
	}
	// Yellow places its stone, having flipped: picks up 1 at once.
	o = enginetest.Play(t, st, "a1")
	if hands(st) != [2]int{1, 1} || st.Flipped[Yellow] || !strings.Contains(events(o), "picks up 1 new stone") {
		t.Fatalf("Yellow's pick-up: hands %v, flipped %v, events %q", hands(st), st.Flipped, events(o))
	}
	if info := st.View(engine.NoSeat).Seats[Black].Info[0]; info != "not flipped yet this handful" {
		t.Fatalf("Black's info %q", info)
	}
}

// TestHandfulTwo: a hand of two stones, placed as a pair or one by one,
// with the obligation and the pick-up as in the standard game.
func TestHandfulTwo(t *testing.T) {
	st := newHandful(t, "2")
	enginetest.Play(t, st, "g7")
	// Two in hand allow pairs: 126 singles + 126·125/2 = 7875 pairs, as
	// in the standard game.
	if n := len(st.Legal()); hands(st) != [2]int{2, 2} || n != 126+7875 {
		t.Fatalf("after the first stone: hands %v, %d legal moves", hands(st), n)
	}
	// Black places both at once without flipping: a flip is owed.
	enginetest.Play(t, st, "f6 f7")
	if hands(st) != [2]int{2, 0} || st.View(engine.NoSeat).Seats[Black].Info[0] != "must flip now" {
		t.Fatalf("after Black's pair: hands %v", hands(st))
	}
	// Yellow places one stone of two.
	enginetest.Play(t, st, "a1")
	if hands(st) != [2]int{1, 0} {
		t.Fatalf("after Yellow's single: hands %v", hands(st))
	}
	// Black: only the two flips; flipping f6 picks up 2.
	if got := strings.Join(enginetest.LegalStrings(st), ","); got != "flip f6,flip f7" {
		t.Fatalf("Black's forced flip: legal %s", got)
	}
	o := enginetest.Play(t, st, "flip f6")
	if hands(st) != [2]int{1, 2} || st.Flipped[Black] || !strings.Contains(events(o), "picks up 2 new stones") {
		t.Fatalf("after Black's forced flip: hands %v flipped %v events %q", hands(st), st.Flipped, events(o))
	}
	// Yellow holds one: no pairs. 123 empty cells + flips of g7 and a1.
	if n := len(st.Legal()); n != 123+2 {
		t.Fatalf("Yellow with one stone: %d legal moves, want 125", n)
	}
	enginetest.Play(t, st, "a2")
	if hands(st) != [2]int{0, 2} || st.Flipped[Yellow] {
		t.Fatalf("after Yellow's last stone: hands %v", hands(st))
	}
	// Black flips early, holding both stones: that counts for this
	// handful, and the hand stays at 2.
	enginetest.Play(t, st, "flip f7")
	if hands(st) != [2]int{0, 2} || !st.Flipped[Black] {
		t.Fatalf("Black's early flip: hands %v flipped %v", hands(st), st.Flipped)
	}
	// Yellow's forced flip, then a pick-up of 2.
	enginetest.Refused(t, st, "m1", "then you pick up 2 more")
	enginetest.Play(t, st, "flip g7")
	if hands(st) != [2]int{2, 2} || st.Flipped[Yellow] {
		t.Fatalf("after Yellow's forced flip: hands %v flipped %v", hands(st), st.Flipped)
	}
	// Black, having flipped, places its pair and picks up 2 at once.
	enginetest.Play(t, st, "m1 m2")
	if hands(st) != [2]int{2, 2} || st.Flipped[Black] || st.ToMove() != Yellow {
		t.Fatalf("Black's pick-up: hands %v flipped %v", hands(st), st.Flipped)
	}
}

// TestHandfulPlayouts: random games under every handful, through the
// shared playout checks and Glorieta's invariants (a hand never holds more
// than the handful), and fast play against Apply on every 5th position of
// a game (3 with enginetest.Long; enginetest.Run plays every handful too).
func TestHandfulPlayouts(t *testing.T) {
	// Playout takes a Fingerprint (all legal moves) per move: fewer games.
	games, playouts := 1, 2
	if enginetest.Long() {
		games = 3
	}
	if testing.Short() {
		games, playouts = 1, 1
	}
	for n := 1; n <= 5; n++ {
		opts := map[string]string{"handful": string(rune('0' + n))}
		for i := 0; i < playouts; i++ {
			setup := engine.Setup{Game: ID, Players: 2, Options: opts, Seed: uint64(i)}
			enginetest.Playout(t, setup, uint64(i), enginetest.PlayoutOptions{
				Check: func(t testing.TB, s engine.State, o engine.Outcome) {
					st := s.(*State)
					checkInvariants(t, st, o)
					if st.Hands[0] > n || st.Hands[1] > n {
						t.Fatalf("handful %d: hands %v", n, st.Hands)
					}
				},
			})
		}
		for i, st := range referenceGames(t, opts, games, 5, uint64(700+10*n), false) {
			checkPlayAndDraw(t, st, uint64(i), 30, 20)
		}
		fastPlayouts(t, opts, 5*games)
	}
}
