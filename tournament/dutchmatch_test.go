package tournament

import (
	"math/rand"
	"testing"
)

// perfectMatching agrees with a brute force on random graphs of up to 12
// vertices, dense and sparse, odd cycles (blossoms) included.
func TestPerfectMatchingBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(48))
	var brute func(free []int, edge [][]bool) bool
	brute = func(free []int, edge [][]bool) bool {
		if len(free) == 0 {
			return true
		}
		a := free[0]
		for i := 1; i < len(free); i++ {
			if edge[a][free[i]] {
				rest := append(append([]int(nil), free[1:i]...), free[i+1:]...)
				if brute(rest, edge) {
					return true
				}
			}
		}
		return false
	}
	found := 0
	for trial := 0; trial < 3000; trial++ {
		n := 2 + rng.Intn(11)
		p := []float64{0.15, 0.3, 0.5}[rng.Intn(3)]
		edge := make([][]bool, n)
		for i := range edge {
			edge[i] = make([]bool, n)
		}
		adj := make([][]int, n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < p {
					edge[i][j], edge[j][i] = true, true
					adj[i] = append(adj[i], j)
					adj[j] = append(adj[j], i)
				}
			}
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		want := n%2 == 0 && brute(all, edge)
		if got := perfectMatching(n, adj); got != want {
			t.Fatalf("graph %v: perfectMatching %v, brute force %v", adj, got, want)
		}
		if want {
			found++
		}
	}
	if found < 300 || found > 2700 {
		t.Errorf("%d of 3000 graphs had a perfect matching: the sample tests too little", found)
	}
}
