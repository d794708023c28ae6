package rating

import (
	"math"
	"math/rand"
	"testing"
)

// near compares to the published results, computed by openskill in
// float64: anything past 1e-9 would be a different formula, not rounding.
func near(t *testing.T, what string, got, want Rating) {
	t.Helper()
	if math.Abs(got.Mu-want.Mu) > 1e-9 || math.Abs(got.Sigma-want.Sigma) > 1e-9 {
		t.Errorf("%s = {%.15g, %.15g}, want {%.15g, %.15g}", what, got.Mu, got.Sigma, want.Mu, want.Sigma)
	}
}

// The example of openskill.js's and openskill.py's README: two teams of
// two, the first wins.
func TestReadmeTeams(t *testing.T) {
	a1, a2 := New(), Rating{32.444, 5.123}
	b1, b2 := Rating{43.381, 2.421}, Rating{25.188, 6.211}
	got := Rate([][]Rating{{a1, a2}, {b1, b2}}, []int{0, 1})
	near(t, "a1", got[0][0], Rating{28.669648436582808, 8.071520788025197})
	near(t, "a2", got[0][1], Rating{33.83086971107981, 5.062772998705765})
	near(t, "b1", got[1][0], Rating{43.071274808241974, 2.4166900452721256})
	near(t, "b2", got[1][1], Rating{23.149503312339064, 6.1378606973362135})
	// openskill.ex's README: the ordinal of b1 after the game.
	if o := got[1][0].Ordinal(); math.Abs(o-35.821204672425594) > 1e-9 {
		t.Errorf("ordinal %v", o)
	}
}

// The free-for-all cases of openskill.js's Plackett-Luce tests (as ported
// by go-openskill's models/plackettluce_test.go): new players, in order.
func TestFreeForAll(t *testing.T) {
	cases := [][]Rating{
		{{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}},
		{{27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583874}, {21.413904309067206, 8.057829747583874}},
		{{27.795084971874736, 8.263160757613477}, {26.552824984374855, 8.179213704945203}, {24.68943500312503, 8.083731307186588}, {20.96265504062538, 8.083731307186588}},
		{{27.666666666666668, 8.290556877154474}, {26.833333333333332, 8.240145629781066}, {25.72222222222222, 8.179996679645559}, {24.055555555555557, 8.111796013701358}, {20.72222222222222, 8.111796013701358}},
	}
	for _, want := range cases {
		players := make([]Rating, len(want))
		ranks := make([]int, len(want))
		for i := range players {
			players[i], ranks[i] = New(), i
		}
		for i, r := range RateSolo(players, ranks) {
			near(t, "seat", r, want[i])
		}
	}
}

// Teams of different sizes (same source).
func TestUnevenTeams(t *testing.T) {
	n := New()
	got := Rate([][]Rating{{n, n, n}, {n}, {n, n}}, []int{0, 1, 2})
	for _, r := range got[0] {
		near(t, "team 1", r, Rating{25.939870821784513, 8.247641552260456})
	}
	near(t, "team 2", got[1][0], Rating{27.21366020491262, 8.274321317985242})
	for _, r := range got[2] {
		near(t, "team 3", r, Rating{21.84646897330287, 8.213058173195341})
	}
}

// A series of games with shared places, scores given instead of ranks
// (same source, TestSeries): checks ties and ratings carried between games.
func TestSeriesWithTies(t *testing.T) {
	p := make([]Rating, 5)
	for i := range p {
		p[i] = New()
	}
	m1 := RateSolo(p, Places([]int{9, 7, 7, 5, 5}))
	copy(p, m1)
	m2 := RateSolo([]Rating{p[4], p[2], p[1]}, Places([]int{9, 5, 5}))
	p[4], p[2], p[1] = m2[0], m2[1], m2[2]
	m3 := RateSolo([]Rating{p[3], p[1], p[2], p[0]}, Places([]int{9, 9, 7, 7}))
	p[3], p[1], p[2], p[0] = m3[0], m3[1], m3[2], m3[3]
	want := []Rating{
		{26.3537611030628, 8.111027060497456},
		{24.618479788611904, 7.905335509558602},
		{23.065819512381218, 7.822005594848687},
		{24.47633240286842, 8.106111471280611},
		{26.385499684561076, 8.05409080928062},
	}
	for i := range p {
		near(t, "player", p[i], want[i])
	}
}

func TestPlaces(t *testing.T) {
	got := Places([]int{9, 7, 7, 5, 5})
	want := []int{0, 1, 1, 3, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Places = %v, want %v", got, want)
		}
	}
}

// Properties over random games of 2 to 4 players: the winner alone never
// loses mu, the last alone never gains it, sigma never grows, the update
// does not depend on the order the seats are listed in, and a solo game
// changes nothing.
func TestRandomGames(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n++ {
		k := 2 + rng.Intn(3)
		players := make([]Rating, k)
		scores := make([]int, k)
		for i := range players {
			players[i] = Rating{10 + 30*rng.Float64(), 0.5 + 8*rng.Float64()}
			scores[i] = rng.Intn(4)
		}
		ranks := Places(scores)
		got := RateSolo(players, ranks)
		perm := rng.Perm(k)
		pp, pr := make([]Rating, k), make([]int, k)
		for i, j := range perm {
			pp[i], pr[i] = players[j], ranks[j]
		}
		gotP := RateSolo(pp, pr)
		for i, j := range perm {
			near(t, "permuted", gotP[i], got[j])
		}
		best, worst := 0, 0
		for _, r := range ranks {
			best, worst = min(best, r), max(worst, r)
		}
		for i := range got {
			if got[i].Sigma > players[i].Sigma+1e-12 || got[i].Sigma <= 0 {
				t.Fatalf("sigma grew: %v -> %v", players[i], got[i])
			}
			alone := 0
			for _, r := range ranks {
				if r == ranks[i] {
					alone++
				}
			}
			if alone == 1 && ranks[i] == best && got[i].Mu < players[i].Mu {
				t.Fatalf("winner lost mu: %v ranks %v", players, ranks)
			}
			if alone == 1 && ranks[i] == worst && got[i].Mu > players[i].Mu {
				t.Fatalf("last gained mu: %v ranks %v", players, ranks)
			}
		}
	}
	solo := RateSolo([]Rating{New()}, []int{0})
	if solo[0] != New() {
		t.Fatal("a solo game changed the rating")
	}
}
