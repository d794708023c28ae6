package service

// Ratings: every finished game between people changes its players'
// ratings for that game within the server it was played in (package
// rating: Weng-Lin, Plackett-Luce). The update is made in the transaction
// that ends the game; RebuildRatings makes every rating again from the
// finished games, and must find exactly the stored numbers.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/rating"
	"tessera/storage"
)

// Provisional is how many rated games a rating needs before it is shown
// without the provisional mark, unless Config.Provisional says otherwise.
const Provisional = 5

// MaxProvisional bounds Config.Provisional (ratings.provisional).
const MaxProvisional = 100

// Rated reports whether a finished game counts for the ratings: not
// unrated by its challenger, no AI seat, at least two players, and
// played: not a forfeit (Forfeited).
func Rated(g *tessera.Game) bool {
	if g.Status != tessera.StatusFinished || g.Unrated || len(g.Players) < 2 || Forfeited(g) {
		return false
	}
	return !slices.ContainsFunc(g.Players, func(p tessera.Player) bool { return p.IsAI() })
}

// Forfeited reports whether a two-player game was lost on time by a seat
// that never moved: a forfeit, which a tournament records as unplayed
// (docs/tournaments.md) and which, not being a game played, changes no
// rating, in an event or not. (A player who resigns without moving
// appeared: that is a game. At tables of three or four a player out of
// time passes while the others play on.)
func Forfeited(g *tessera.Game) bool {
	if len(g.Players) != 2 {
		return false
	}
	for s := range g.Players {
		moved, timedOut := false, false
		for _, m := range g.Moves {
			switch {
			case m.Seat != s:
			case m.End() == tessera.EndTimeout:
				timedOut = true
			case m.End() != tessera.EndResign:
				moved = true
			}
		}
		if timedOut && !moved {
			return true
		}
	}
	return false
}

// Places are the finishing places of a finished game's seats, 0 the best,
// equal places shared: the winners share first; the other seats still in
// the game follow by score (equal scores share); seats that resigned or
// ran out of time come last, the one that left later placed higher. A
// time-out that only passed the turn (games of 3 or 4 with a pass) costs
// the turn, not the place.
func Places(g *tessera.Game, st engine.State) []int {
	n := len(g.Players)
	scores := st.Scores()
	seats := st.View(engine.NoSeat).Seats
	left := make([]int, n) // 1 + the record index where the seat left, 0: stayed
	for i, m := range g.Moves {
		if m.End() != "" && m.Seat < n && seats[m.Seat].Resigned {
			left[m.Seat] = i + 1
		}
	}
	winner := make([]bool, n)
	for _, w := range st.Winners() {
		if int(w) >= 0 && int(w) < n {
			winner[w] = true
		}
	}
	places := make([]int, n)
	for i := range places {
		switch {
		case winner[i]:
			places[i] = 0
		case left[i] == 0:
			places[i] = 1
			for j := range places {
				if !winner[j] && left[j] == 0 && scores[j] > scores[i] {
					places[i]++
				}
			}
		default: // below everyone who stayed; the last to leave first
			places[i] = n + len(g.Moves) - left[i]
		}
	}
	return places
}

// rateGame updates the ratings of the players of g, which st has just
// finished, inside the game's transaction, and returns the line the end
// post shows ("" for an unrated game).
func (s *Service) rateGame(ctx context.Context, tx storage.RatingsTx, g *tessera.Game, st engine.State) (string, error) {
	if !Rated(g) {
		return "", nil
	}
	before := make([]tessera.Rating, len(g.Players))
	for i, p := range g.Players {
		r, _, err := tx.Rating(ctx, g.GuildID, g.Setup.Game, p.ID)
		if err != nil {
			return "", err
		}
		before[i] = r
	}
	// Numbered now that the players' ratings are read (and, on a shared
	// database, locked): the order of the changes, which RebuildRatings
	// replays. The moves' times need not be in that order: they are read
	// before the game's transaction.
	seq, err := tx.NextRatingSeq(ctx)
	if err != nil {
		return "", err
	}
	g.RatingSeq = seq
	after := nextRatings(g, Places(g, st), before)
	for _, r := range after {
		if err := tx.PutRating(ctx, r); err != nil {
			return "", err
		}
	}
	return s.ratingChanges(before, after), nil
}

// ratingChanges is the end post's line: each player's shown rating after
// the game and its change ("Ana 1016 (+16, provisional)"), the change
// left out of a first game, whose rating had nothing to change from.
func (s *Service) ratingChanges(before, after []tessera.Rating) string {
	var parts []string
	for i, r := range after {
		var notes []string
		if before[i].Games > 0 {
			switch d := DisplayRating(r) - DisplayRating(before[i]); {
			case d > 0:
				notes = append(notes, fmt.Sprintf("+%d", d))
			case d < 0:
				notes = append(notes, fmt.Sprintf("−%d", -d))
			default:
				notes = append(notes, "±0")
			}
		}
		if s.provisional(r) {
			notes = append(notes, "provisional")
		}
		part := fmt.Sprintf("%s %d", r.Name, DisplayRating(r))
		if len(notes) > 0 {
			part += " (" + strings.Join(notes, ", ") + ")"
		}
		parts = append(parts, part)
	}
	return "Ratings: " + strings.Join(parts, ", ") + "."
}

// NextRatings are the players' ratings after the finished game g, whose
// seats finished in places (Places), given those before it (zero Rating:
// a player's first game): what a game's end stores. tessera scale fill
// rates the games it writes with it.
func NextRatings(g *tessera.Game, places []int, before []tessera.Rating) []tessera.Rating {
	return nextRatings(g, places, before)
}

// nextRatings are the players' ratings after g given those before it
// (zero Rating: a player's first game) and the seats' places.
func nextRatings(g *tessera.Game, places []int, before []tessera.Rating) []tessera.Rating {
	in := make([]rating.Rating, len(before))
	for i, r := range before {
		in[i] = rating.New()
		if r.Games > 0 {
			in[i] = rating.Rating{Mu: r.Mu, Sigma: r.Sigma}
		}
	}
	out := rating.RateSolo(in, places)
	at := g.Updated
	if n := len(g.Moves); n > 0 {
		at = g.Moves[n-1].At
	}
	first := 0
	for _, p := range places {
		if p == 0 {
			first++
		}
	}
	after := make([]tessera.Rating, len(before))
	for i, r := range before {
		p := g.Players[i]
		r.GuildID, r.Game, r.UserID, r.Name = g.GuildID, g.Setup.Game, p.ID, p.Name
		r.Mu, r.Sigma = out[i].Mu, out[i].Sigma
		r.Games++
		switch {
		case places[i] != 0:
			r.Lost++
		case first > 1:
			r.Shared++
		default:
			r.Won++
		}
		r.History = append(slices.Clip(r.History), tessera.RatingPoint{GameID: g.ID, At: at.UTC(), Mu: r.Mu, Sigma: r.Sigma})
		after[i] = r
	}
	return after
}

// RebuildRatings computes every rating from the store's finished games,
// in the order in which their ends changed the ratings (RatingSeq), as
// the games' ends did; games that ended before RatingSeq existed come
// first, in the order they ended (ties by game number).
func RebuildRatings(ctx context.Context, st storage.GameLists) ([]tessera.Rating, error) {
	// Each game is replayed as it is read, and only what its ratings need
	// is kept (its seats, places and end), so that a store of a million
	// games is rated again in a few hundred megabytes, not its size.
	type ended struct {
		id          uint64
		guild, game string
		players     []tessera.Player
		endedAt     time.Time // its last move, as nextRatings dates it
		places      []int
		seq         uint64
		endedNanos  int64 // storage.Ended: the order of games without a seq
	}
	var games []ended
	err := st.All(ctx, func(g *tessera.Game) error {
		if !Rated(g) {
			return nil
		}
		pos, err := Replay(g)
		if err != nil {
			return fmt.Errorf("game %d: %w", g.ID, err)
		}
		if !pos.Over() {
			return fmt.Errorf("game %d is finished but its record does not end the game", g.ID)
		}
		at := g.Updated
		if n := len(g.Moves); n > 0 {
			at = g.Moves[n-1].At
		}
		games = append(games, ended{id: g.ID, guild: g.GuildID, game: g.Setup.Game, players: g.Players, endedAt: at,
			places: Places(g, pos), seq: g.RatingSeq, endedNanos: storage.Ended(g)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(games, func(a, b ended) int {
		return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.endedNanos, b.endedNanos), cmp.Compare(a.id, b.id))
	})
	byKey := map[string]tessera.Rating{}
	var order []string
	for _, e := range games {
		// The fields nextRatings reads; Updated dates the game's end.
		g := &tessera.Game{ID: e.id, GuildID: e.guild, Setup: engine.Setup{Game: e.game}, Players: e.players, Updated: e.endedAt}
		before := make([]tessera.Rating, len(g.Players))
		keys := make([]string, len(g.Players))
		for i, p := range g.Players {
			keys[i] = g.GuildID + "\x00" + g.Setup.Game + "\x00" + p.ID
			before[i] = byKey[keys[i]]
		}
		for i, r := range nextRatings(g, e.places, before) {
			if _, seen := byKey[keys[i]]; !seen {
				order = append(order, keys[i])
			}
			byKey[keys[i]] = r
		}
	}
	slices.Sort(order)
	var out []tessera.Rating
	for _, k := range order {
		out = append(out, byKey[k])
	}
	return out, nil
}
