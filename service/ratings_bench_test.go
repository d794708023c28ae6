package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/internal/cputime"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// ratedStore is a bbolt file with players people in 4 servers, each
// rated in the 5 games with 9 games of history each (about 44 rated
// games a player, as in issue #44's measurement, whose N stored games
// come with N/20 players), and a game in play between players 1 and 2.
func ratedStore(b *testing.B, players int) (storage.Store, uint64) {
	st, err := boltdb.Open(filepath.Join(b.TempDir(), "r.db"), storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	setup := engine.Setup{Game: "elemental", Players: 2, Seed: 1, Options: map[string]string{"borders": "RBGY"}}
	g := &tessera.Game{Status: tessera.StatusPlaying, Setup: setup, GuildID: "g0", ChannelID: "c", Created: time.Unix(1, 0),
		Players: []tessera.Player{{ID: "1", Name: "p1", Accepted: true}, {ID: "2", Name: "p2", Accepted: true}}}
	if err := st.Create(b.Context(), g, ""); err != nil {
		b.Fatal(err)
	}
	games := []string{"closure", "elemental", "glorieta", "tilingking", "knotwork"}
	const batch = 2000
	for from := 0; from < players; from += batch {
		_, err := st.Modify(b.Context(), g.ID, func(_ *tessera.Game, tx storage.Tx) error {
			for p := from; p < min(from+batch, players); p++ {
				for gi, game := range games {
					mu := 25 + float64((p*7+gi*13)%101)/10 - 5
					r := tessera.Rating{GuildID: fmt.Sprint("g", p%4), Game: game, UserID: fmt.Sprint(p), Name: fmt.Sprint("p", p), Mu: mu, Sigma: 2 + float64(p%5)/2, Games: 9, Won: 4, Lost: 5}
					for j := range 9 {
						r.History = append(r.History, tessera.RatingPoint{GameID: uint64(p*100 + j), At: time.Unix(int64(p*100+j), 0).UTC(), Mu: mu, Sigma: 3})
					}
					if err := tx.PutRating(context.Background(), r); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return st, g.ID
}

// BenchmarkRatingReads: what /profile, the web leaderboard and the game
// page read of the ratings, at 1,000 and 20,000 players (issue #44's
// 20,000 and 400,000 stored games).
func BenchmarkRatingReads(b *testing.B) {
	for _, players := range []int{1000, 20000} {
		st, id := ratedStore(b, players)
		svc := service.New(st, service.Config{Renderer: render.Renderer{}})
		me := service.User{ID: fmt.Sprint(players / 2), Name: "me"} // in the middle of g0's boards
		if players/2%4 != 0 {
			me.ID = fmt.Sprint(players/2 - players/2%4)
		}
		g, err := st.Game(b.Context(), id)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("profile/players=%d", players), func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if c, err := svc.ProfileCard(b.Context(), "g0", me); err != nil || len(c.Games) != 5 {
					b.Fatal(c, err)
				}
			}
		})
		b.Run(fmt.Sprintf("webleaderboard/players=%d", players), func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if rows, _, _, err := webLeaderboard(svc, b.Context()); err != nil || len(rows) != service.WebLeaderboardSize {
					b.Fatal(len(rows), err)
				}
			}
		})
		b.Run(fmt.Sprintf("gamepage/players=%d", players), func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := svc.GameView(b.Context(), g, 0, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func webLeaderboard(svc *service.Service, ctx context.Context) ([]service.WebLeader, string, int, error) {
	return svc.WebLeaderboard(ctx, "g0", "elemental", 0)
}

// cpuPerOp reports the process's CPU time (user and system, every
// thread) per op, which a loaded machine inflates far less than the wall
// time (cputime.Used): call it before the loop
// and defer what it returns.
func cpuPerOp(b *testing.B) func() {
	start := cputime.Used()
	return func() { b.ReportMetric(float64(cputime.Used()-start)/float64(b.N), "cpu-ns/op") }
}
