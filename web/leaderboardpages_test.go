package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tessera"
	"tessera/storage"
)

// TestLeaderboardPages: a leaderboard longer than a page is read a page
// at a time, each row at its place, with links to the pages around it.
func TestLeaderboardPages(t *testing.T) {
	s, base, playing := playersSite(t) // Ana and Bo rated: 1016 and 984 or so
	_, err := s.store.Modify(context.Background(), playing, func(g *tessera.Game, tx storage.Tx) error {
		for i := range 130 { // 130 players below Ana and Bo (ordinal -40 and less)
			r := tessera.Rating{GuildID: "g", Game: "elemental", UserID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("q%03d", i), Mu: 5 - float64(i)/10, Sigma: 15, Games: 1}
			if err := tx.PutRating(context.Background(), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want []string // in the page, in this order
	}{
		{base + "/leaderboard/elemental", []string{">1<", ">Ana<", ">3<", ">q000<", ">100<", ">q097<", "The best 100 of 132 rated players.", `href="` + base + `/leaderboard/elemental?page=2" rel="next"`}},
		{base + "/leaderboard/elemental?page=2", []string{">101<", ">q098<", ">132<", ">q129<", "Places 101 to 132 of 132 rated players.", `href="` + base + `/leaderboard/elemental?page=1" rel="prev"`}},
	} {
		res, body := s.get(nil, tc.path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d\n%s", tc.path, res.StatusCode, body)
		}
		at := 0
		for _, w := range tc.want {
			i := strings.Index(body[at:], w)
			if i < 0 {
				t.Errorf("%s: %q missing (or out of order)\n%s", tc.path, w, body)
				break
			}
			at += i + len(w)
		}
		if strings.Contains(tc.path, "page=2") && strings.Contains(body, `rel="next"`) {
			t.Errorf("the last page links a next one")
		}
	}
}
