package bot_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"tessera"
	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/engine"
	"tessera/service"
)

// These tests play a short scripted game of each later game (issue 7),
// every step an interaction through the fake Discord's gateway, inside the
// game's thread, as TestWholeGame does for Elemental Connection.

// acChoices is u's /move autocomplete list for what they typed, in the
// game's thread.
func (w *world) acChoices(t *testing.T, u *discordgo.User, typed string) []*discordgo.ApplicationCommandOptionChoice {
	t.Helper()
	r := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", typed))).By(u).In(w.srv.GuildID, w.thread))
	if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult || r.Data == nil {
		t.Fatalf("autocomplete answered with type %d", r.Type)
	}
	return r.Data.Choices
}

// startGame challenges bo to game id (with options), has him accept,
// waits for the game's thread with its status message first, and returns
// the start post, which must ping alice, who moves first.
func (w *world) startGame(t *testing.T, id, name, options string) *fakediscord.Message {
	t.Helper()
	opts := []fakediscord.Opt{fakediscord.Str("game", id), fakediscord.UserOpt("opponent", w.bo.ID)}
	if options != "" {
		opts = append(opts, fakediscord.Str("options", options))
	}
	r := w.respond(t, w.srv.Slash("new", opts...).By(w.ana))
	if !strings.Contains(text(r), "to **"+name+"** (game #1)") || !strings.Contains(text(r), "<@"+w.bo.ID+">") || len(buttons(r)) != 3 {
		t.Fatalf("challenge: %q, buttons %v", text(r), buttons(r))
	}
	if r.Original == nil {
		t.Fatal("no challenge message")
	}
	challenge := r.Original.ID
	r = w.respond(t, w.srv.Button("accept:1").By(w.bo))
	if !strings.Contains(text(r), "**"+name+"**, game #1, begins in its own thread") {
		t.Fatalf("accept: %q", text(r))
	}
	w.thread = w.threadOf(t, 1)
	if w.thread != challenge && len(w.srv.RequestsTo("POST /channels/*/messages/*/threads")) > 0 {
		t.Fatalf("thread %s, not the challenge message %s", w.thread, challenge)
	}
	if ch := w.srv.Channel(w.thread); ch == nil || ch.Name != "#1 "+name+": alice vs bo" {
		t.Fatalf("thread: %+v", ch)
	}
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**"+name+"**, game #1, begins:")
	}, patience)
	w.settle(t)
	if !strings.Contains(post.Content, "<@"+w.ana.ID+">, your turn") || !strings.Contains(post.Content, "alice (seat 1), bo (seat 2)") {
		t.Fatalf("start post: %q", post.Content)
	}
	if p := w.pinged(t, post); !slices.Equal(p, []string{w.ana.ID}) {
		t.Fatalf("the start post must ping exactly alice: %v", p)
	}
	boardPNG(t, "start post", post)
	msgs := w.srv.Messages(w.thread)
	if len(msgs) < 2 || !strings.Contains(msgs[0].Content, "**"+name+"**, game #1: alice vs bo") || len(msgs[0].Attachments) != 1 {
		t.Fatalf("the status message comes first, with the board: %+v", msgs)
	}
	return post
}

// boardPNG checks that a message carries one board picture that decodes.
func boardPNG(t *testing.T, what string, m *fakediscord.Message) {
	t.Helper()
	if len(m.Files) != 1 || m.Files[0].Format != "png" {
		t.Fatalf("%s: want one PNG, got %d files", what, len(m.Files))
	}
	if img := m.Files[0].Image(); img == nil || img.Bounds().Dx() < 700 {
		t.Fatalf("%s: the board picture does not decode or is too small", what)
	}
}

// position is the current position of game 1, replayed from the store.
func (w *world) position(t *testing.T) engine.State {
	t.Helper()
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	st, err := service.Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// afterMove is game 1's position after move, typed by the player to
// move, played on a copy of the stored position (the game is unchanged).
func (w *world) afterMove(t *testing.T, move string) engine.State {
	t.Helper()
	after := w.position(t)
	m, err := after.Parse(move)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := after.Apply(m); err != nil {
		t.Fatal(err)
	}
	return after
}

// noteWords splits notation as players may type it: lower case, spaces
// and commas.
func noteWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// fits reports whether a move fits what was typed: every typed word but
// the last is one of the move's words, the last starts one of them.
func fits(move, typed string) bool {
	toks := noteWords(move)
	used := make([]bool, len(toks))
	tw := noteWords(typed)
	for i, w := range tw {
		found := false
		for j, tok := range toks {
			if !used[j] && (tok == w || (i == len(tw)-1 && strings.HasPrefix(tok, w))) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// choices asks /move autocomplete as u (the player to move) for what they
// typed and checks every choice: 1 to 25 of them, names and values of 1 to
// 100 characters, each value fits the typed text and is a legal move of
// the stored position in its canonical notation.
func (w *world) choices(t *testing.T, u *discordgo.User, typed string) []string {
	t.Helper()
	cs := w.acChoices(t, u, typed)
	if len(cs) == 0 || len(cs) > 25 {
		t.Fatalf("%s typed %q: %d choices", u.Username, typed, len(cs))
	}
	st := w.position(t)
	var out []string
	for _, c := range cs {
		v, _ := c.Value.(string)
		if v == "" || len(v) > 100 || c.Name == "" || len(c.Name) > 100 || !strings.HasPrefix(c.Name, v) {
			t.Fatalf("%s typed %q: bad choice %q = %q", u.Username, typed, c.Name, v)
		}
		if !fits(v, typed) {
			t.Fatalf("%s typed %q: choice %q does not fit", u.Username, typed, v)
		}
		m, err := st.Parse(v)
		if err != nil {
			t.Fatalf("%s typed %q: choice %q is not legal: %v", u.Username, typed, v, err)
		}
		if m.String() != v {
			t.Fatalf("choice %q is not canonical (%q)", v, m.String())
		}
		out = append(out, v)
	}
	return out
}

// move plays move as u with /move inside the thread, waits for its public
// post with the board and checks that it pings exactly next (nil: the
// game ends, and the post says so).
func (w *world) move(t *testing.T, u, next *discordgo.User, move string) *fakediscord.Message {
	t.Helper()
	before := map[string]bool{}
	for _, m := range w.srv.Messages(w.thread) {
		before[m.ID] = true
	}
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(u).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), "You played `"+move+"`") {
		t.Fatalf("%s plays %q: %q", u.Username, move, text(r))
	}
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return !before[m.ID] && strings.Contains(m.Content, "**"+u.Username+"** played `"+move+"`")
	}, patience)
	w.settle(t)
	boardPNG(t, "move "+move, post)
	if next != nil {
		if p := w.pinged(t, post); !slices.Equal(p, []string{next.ID}) {
			t.Fatalf("after %q: must ping exactly %s: %v\n%s", move, next.Username, p, post.Content)
		}
		if !strings.Contains(post.Content, "<@"+next.ID+">, your turn") {
			t.Fatalf("after %q: %q", move, post.Content)
		}
	} else if !strings.Contains(post.Content, "**Game over") {
		t.Fatalf("after the last move %q: %q", move, post.Content)
	}
	return post
}

// privateLine sends /move as u and checks the answer is one private line
// containing want.
func (w *world) privateLine(t *testing.T, u *discordgo.User, move, want string) {
	t.Helper()
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(u).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || !strings.Contains(text(r), want) || strings.Contains(text(r), "\n") {
		t.Fatalf("%s plays %q: %q (ephemeral %v), want one private line with %q", u.Username, move, text(r), ephemeral(r), want)
	}
}

// checkHand asks /hand as u: a private answer with one PNG; it returns
// the text.
func (w *world) checkHand(t *testing.T, u *discordgo.User) string {
	t.Helper()
	r := w.respond(t, w.srv.Slash("hand").By(u).In(w.srv.GuildID, w.thread))
	fs := files(r)
	if !ephemeral(r) || len(fs) != 1 || fs[0].Format != "png" || fs[0].Image() == nil {
		t.Fatalf("/hand: ephemeral %v, %d files: %q", ephemeral(r), len(fs), text(r))
	}
	return text(r)
}

// checkBoard asks /board as u: a public post of the board, pinging nobody.
func (w *world) checkBoard(t *testing.T, u *discordgo.User, name string, moves int) {
	t.Helper()
	r := w.respond(t, w.srv.Slash("board").By(u).In(w.srv.GuildID, w.thread))
	fs := files(r)
	if ephemeral(r) || len(fs) != 1 || fs[0].Format != "png" || fs[0].Image() == nil || fs[0].Image().Bounds().Dx() < 700 {
		t.Fatalf("/board: ephemeral %v, %d files", ephemeral(r), len(fs))
	}
	if want := fmt.Sprintf("**%s**, game #1, after %d moves.", name, moves); !strings.Contains(text(r), want) {
		t.Fatalf("/board: %q, want %q", text(r), want)
	}
	if am := w.answerMentions(t, r); am != nil && len(am.Users) != 0 {
		t.Fatalf("/board pings %v", am.Users)
	}
}

// resign has u resign with /resign and the confirm button; it returns the
// public post, which must name the winner.
func (w *world) resign(t *testing.T, u, winner *discordgo.User) *fakediscord.Message {
	t.Helper()
	r := w.respond(t, w.srv.Slash("resign").By(u).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || strings.Join(buttons(r), ",") != "resign:1,cancel:1" {
		t.Fatalf("/resign must ask privately with a confirm button: %q %v", text(r), buttons(r))
	}
	r = w.respond(t, w.srv.Button("resign:1").By(u))
	if !ephemeral(r) || !strings.Contains(text(r), "You resigned game #1") {
		t.Fatalf("resign confirm: %q", text(r))
	}
	post := w.srv.WaitMessage(t, w.thread, func(m *fakediscord.Message) bool {
		return strings.Contains(m.Content, "**"+u.Username+"** resigns game #1.")
	}, patience)
	w.settle(t)
	boardPNG(t, "resignation", post)
	if !strings.Contains(post.Content, "**Game over: <@"+winner.ID+"> wins!**") {
		t.Fatalf("resign post: %q", post.Content)
	}
	if p := w.pinged(t, post); !slices.Equal(p, []string{winner.ID}) {
		t.Fatalf("the resign post must ping exactly the winner: %v", p)
	}
	return post
}

// finished checks the stored game is over after moves record entries and
// that the status message was edited to say so.
func (w *world) finished(t *testing.T, moves int) *tessera.Game {
	t.Helper()
	g, err := w.store.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != tessera.StatusFinished || len(g.Moves) != moves {
		t.Fatalf("stored game: status %s after %d moves, want finished after %d", g.Status, len(g.Moves), moves)
	}
	st := w.status(t)
	if st.EditedTimestamp == nil || !strings.Contains(st.Content, fmt.Sprintf("Moves so far: %d.", moves)) || strings.Contains(st.Content, "to move") {
		t.Fatalf("the status message does not show the end: %q", st.Content)
	}
	// Nothing more can be played, in the thread or by game number.
	w.privateLine(t, w.ana, "pass", "Game #1 is over.")
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", "pass"), fakediscord.Str("game", "1")).By(w.ana).In(w.srv.GuildID, w.thread))
	if !ephemeral(r) || text(r) != "Game #1 is over." {
		t.Fatalf("a move after the end: %q", text(r))
	}
	return g
}

// TestGameClosure: Closure with alice first, six placements from
// autocomplete, hands that show only the caller's tiles, and bo resigning.
func TestGameClosure(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.startGame(t, "closure", "Closure", "first=1")

	players := []*discordgo.User{w.ana, w.bo}
	handOf := func(seat int) []int { return w.position(t).Hand(engine.Seat(seat)).([]int) }
	// /hand: privately, the caller's four tile numbers and no others.
	for seat, u := range players {
		hand := handOf(seat)
		var want []string
		for _, n := range hand {
			want = append(want, strconv.Itoa(n))
		}
		if got := w.checkHand(t, u); len(hand) != 4 || got != "Your hand in game #1: "+strings.Join(want, ", ") {
			t.Fatalf("%s's /hand: %q, want the tiles %v", u.Username, got, hand)
		}
	}
	w.privateLine(t, w.bo, "1 m13", "It is alice's turn")
	w.privateLine(t, w.ana, "hello", "like 17 m14 90")
	tile := strconv.Itoa(handOf(0)[0])
	w.privateLine(t, w.ana, tile+" z99", "z99 is outside the 25x25 frame")
	w.privateLine(t, w.ana, tile+" m14", "the first tile goes on m13")
	w.privateLine(t, w.ana, "discard "+tile, "you may discard only when no placement is possible")

	const turns = 6
	for turn := 0; turn < turns; turn++ {
		seat := turn % 2
		u, next := players[seat], players[1-seat]
		hand := handOf(seat)
		all := w.choices(t, u, "")
		for _, c := range all {
			// Only the mover's own tiles are offered.
			n, err := strconv.Atoi(noteWords(c)[0])
			if err != nil || !slices.Contains(hand, n) {
				t.Fatalf("turn %d: choice %q is not a tile of %s's hand %v", turn, c, u.Username, hand)
			}
			if turn == 0 && noteWords(c)[1] != "m13" {
				t.Fatalf("the first tile goes on m13: %q", c)
			}
		}
		move := all[0]
		if turn%2 == 1 {
			// Typing a tile number narrows the list to that tile.
			tile := noteWords(all[len(all)-1])[0]
			narrowed := w.choices(t, u, tile+" ")
			for _, c := range narrowed {
				if !strings.HasPrefix(noteWords(c)[0], tile) {
					t.Fatalf("turn %d: typed %q, got %q", turn, tile, c)
				}
			}
			move = narrowed[0]
		}
		post := w.move(t, u, next, move)
		if !strings.Contains(post.Content, "Scores: alice ") {
			t.Fatalf("turn %d: %q", turn, post.Content)
		}
		// The mover drew back to four.
		if h := handOf(seat); len(h) != 4 {
			t.Fatalf("turn %d: %s holds %v", turn, u.Username, h)
		}
		if turn == 3 {
			w.checkBoard(t, w.bo, "Closure", 4)
		}
	}
	hand := handOf(0)
	var want []string
	for _, n := range hand {
		want = append(want, strconv.Itoa(n))
	}
	if got := w.checkHand(t, w.ana); got != "Your hand in game #1: "+strings.Join(want, ", ") {
		t.Fatalf("alice's /hand after moving: %q, want %v", got, hand)
	}
	w.resign(t, w.bo, w.ana)
	w.finished(t, turns+1)
}

// TestGameGlorieta plays the rules' example game: Yellow (alice) closes a
// loop around h8 on the eleventh turn. Every move is picked from the
// autocomplete list for what the script types, in any order of cells.
func TestGameGlorieta(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.startGame(t, "glorieta", "Glorieta", "")
	players := []*discordgo.User{w.ana, w.bo}
	script := []string{"g7", "d4 d6", "h7 g8", "flip d4", "i8, i7", "c4 c5", "flip g7", "e5 j9", "g9", "b3 b4", "h9"}

	w.privateLine(t, w.bo, "g7", "It is alice's turn")
	w.privateLine(t, w.ana, "n1", "n1 is off the board (rows a-m)")
	w.privateLine(t, w.ana, "g7 g8", "Yellow's first turn places exactly one stone")
	w.privateLine(t, w.ana, "flip g7", "there is nothing to flip yet")
	for turn, typed := range script {
		u, next := players[turn%2], players[(turn+1)%2]
		if turn == len(script)-1 {
			next = nil
		}
		if turn == 2 {
			// A typed cell lists that stone alone and the pairs with it.
			cs := w.choices(t, u, "g8")
			pairs := 0
			for _, c := range cs {
				ws := noteWords(c)
				if !slices.Contains(ws, "g8") || ws[0] == "flip" {
					t.Fatalf("typed g8: %q", c)
				}
				if len(ws) == 2 {
					pairs++
				}
			}
			if cs[0] != "g8" || pairs == 0 {
				t.Fatalf("typed g8: no pair completions: %q", cs)
			}
			// A cell and the start of a second: pairs only.
			for _, c := range w.choices(t, u, "g8 h") {
				ws := noteWords(c)
				other := slices.DeleteFunc(slices.Clone(ws), func(s string) bool { return s == "g8" })
				if len(ws) != 2 || len(other) != 1 || !strings.HasPrefix(other[0], "h") {
					t.Fatalf("typed \"g8 h\": %q", c)
				}
			}
		}
		cs := w.choices(t, u, typed)
		want := noteWords(typed)
		slices.Sort(want)
		move := ""
		for _, c := range cs {
			ws := noteWords(c)
			slices.Sort(ws)
			if slices.Equal(ws, want) {
				move = c
			}
		}
		if move == "" {
			t.Fatalf("turn %d: %q is not among the choices %q", turn, typed, cs)
		}
		post := w.move(t, u, next, move)
		if turn == 0 {
			if got := w.checkHand(t, w.bo); got != "Your pieces in game #1:" {
				t.Fatalf("bo's /hand: %q", got)
			}
			w.privateLine(t, w.bo, "d4 d5 d6", "you may place at most 2 stones a turn")
			w.privateLine(t, w.bo, "g7", "g7 is taken")
		}
		if turn == 5 {
			w.checkBoard(t, w.ana, "Glorieta", 6)
		}
		if next == nil {
			if !strings.Contains(post.Content, "alice closes a loop and wins") || !strings.Contains(post.Content, "**Game over: <@"+w.ana.ID+"> wins!**") {
				t.Fatalf("the end: %q", post.Content)
			}
			if p := w.pinged(t, post); !slices.Equal(p, []string{w.ana.ID}) {
				t.Fatalf("the last post must ping the winner: %v", p)
			}
		}
	}
	w.finished(t, len(script))
}

// TestGameKnotwork plays the first autocomplete choice until the game
// ends (Knotwork games are short), after checking each time that typing
// a cell narrows the list to that cell.
func TestGameKnotwork(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.startGame(t, "knotwork", "Knotwork", "")
	players := []*discordgo.User{w.ana, w.bo}
	for seat, u := range players {
		if got := w.checkHand(t, u); got != "Your hand in game #1: B, B, C, C, C, C, E, E, S, S" {
			t.Fatalf("%s's /hand (seat %d): %q", u.Username, seat, got)
		}
	}
	w.privateLine(t, w.bo, "e4 N", "It is alice's turn")
	w.privateLine(t, w.ana, "hello", "like d4 NE")
	w.privateLine(t, w.ana, "e5 NESW", "there is only one crossing")
	w.privateLine(t, w.ana, "a1 N", "a1 is not next to an open mark")
	const maxTurns = 30
	turn := 0
	for ; turn < maxTurns; turn++ {
		u, next := players[turn%2], players[(turn+1)%2]
		all := w.choices(t, u, "")
		cell := noteWords(all[0])[0]
		for _, c := range w.choices(t, u, cell) {
			if noteWords(c)[0] != cell {
				t.Fatalf("turn %d: typed %q, got %q", turn, cell, c)
			}
		}
		move := all[0]
		after := w.afterMove(t, move)
		if after.Over() {
			next = nil
		}
		post := w.move(t, u, next, move)
		if turn == 1 {
			w.checkBoard(t, w.ana, "Knotwork", 2)
		}
		if next == nil {
			if !strings.Contains(post.Content, "Game over") || !strings.Contains(post.Content, "Knot scores:") {
				t.Fatalf("the end is not announced: %q", post.Content)
			}
			var want []string
			for _, s := range after.Winners() {
				want = append(want, players[s].ID)
			}
			if p := w.pinged(t, post); len(want) == 0 || !slices.Equal(p, want) {
				t.Fatalf("the last post must ping the winners %v: %v", want, p)
			}
			break
		}
	}
	if turn == maxTurns {
		t.Fatalf("the game is not over after %d turns of first choices", maxTurns)
	}
	w.finished(t, turn+1)
}

// TestGameTilingKing: the default 9x9 board, pieces found by typing one
// cell (every choice covers it) or two, and alice resigning.
func TestGameTilingKing(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.startGame(t, "tilingking", "TilingKing", "")
	players := []*discordgo.User{w.ana, w.bo}
	// /hand lists the caller's pieces left (hands are public in TilingKing).
	hand := func(u *discordgo.User, seat int) {
		t.Helper()
		want := "Your hand in game #1: " + strings.Join(w.position(t).Hand(engine.Seat(seat)).([]string), ", ")
		if got := w.checkHand(t, u); got != want {
			t.Fatalf("%s's /hand: %q, want %q", u.Username, got, want)
		}
	}
	if got := strings.Join(w.position(t).Hand(0).([]string), ", "); got != "D2, D2, I3, I4, L3, L4, M1, M1, O4, S4, T4" {
		t.Fatalf("the square set: %s", got)
	}
	hand(w.ana, 0)
	w.privateLine(t, w.bo, "a1", "It is alice's turn")
	w.privateLine(t, w.ana, "hello", "\"hello\" is not a cell")
	w.privateLine(t, w.ana, "e5", "e5 is a black (neutral) tile")
	w.privateLine(t, w.ana, "a1 a3", "do not form one piece")
	w.privateLine(t, w.ana, "j1", "j1 is off the board (a1-i9)")
	script := []string{"b2", "h8", "b8", "h2", "d4 d5", "f6"}
	for turn, typed := range script {
		u, next := players[turn%2], players[(turn+1)%2]
		cs := w.choices(t, u, typed)
		for _, c := range cs {
			for _, cell := range noteWords(typed) {
				if !slices.Contains(noteWords(c), cell) {
					t.Fatalf("turn %d: typed %q, choice %q does not cover %s", turn, typed, c, cell)
				}
			}
		}
		post := w.move(t, u, next, cs[0])
		if !strings.Contains(post.Content, "Scores: alice ") {
			t.Fatalf("turn %d: %q", turn, post.Content)
		}
		if turn == 3 {
			w.checkBoard(t, w.bo, "TilingKing", 4)
			hand(w.ana, 0)
			hand(w.bo, 1)
		}
	}
	w.resign(t, w.ana, w.bo)
	w.finished(t, len(script)+1)
}
