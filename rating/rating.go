// Package rating is the Weng-Lin Bayesian rating of Plackett-Luce
// (Weng & Lin 2011, "A Bayesian Approximation Method for Online Ranking",
// Algorithm 4), as openskill.js and openskill.py compute it.
//
// It is written here rather than imported because this machine's Go
// module proxy serves none of the Go OpenSkill ports (go-openskill
// answers 403). The defaults are openskill's: mu 25, sigma 25/3, beta
// 25/6, kappa 0.0001, gamma = sigma_i/c, and tau 0 (no added variance
// before a game, as openskill.js before version 3 and the published
// examples the tests check against). Pure Go, no I/O.
package rating

import "math"

// Defaults of openskill.
const (
	Mu    = 25.0
	Sigma = 25.0 / 3
	Beta  = 25.0 / 6
	Kappa = 0.0001
)

// Rating is a belief about a player's skill: a normal distribution.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// New is the rating of a player with no games.
func New() Rating { return Rating{Mu: Mu, Sigma: Sigma} }

// Ordinal is mu - 3 sigma: a skill the player has with 99.7% belief. It
// is what leaderboards sort by, so a new player climbs as games make the
// belief surer.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Rate returns the ratings of teams after a game in which team i finished
// in place ranks[i] (lower is better; equal ranks are a tie). teams and
// ranks are not changed. With fewer than two teams nothing changes.
func Rate(teams [][]Rating, ranks []int) [][]Rating {
	out := make([][]Rating, len(teams))
	for i, t := range teams {
		out[i] = append([]Rating(nil), t...)
	}
	if len(teams) < 2 || len(ranks) != len(teams) {
		return out
	}
	n := len(teams)
	mu := make([]float64, n)
	sigSq := make([]float64, n)
	for i, t := range teams {
		for _, r := range t {
			mu[i] += r.Mu
			sigSq[i] += r.Sigma * r.Sigma
		}
	}
	var cSq float64
	for i := range teams {
		cSq += sigSq[i] + Beta*Beta
	}
	c := math.Sqrt(cSq)
	// sumQ[q] sums exp(mu/c) over the teams placed no better than q;
	// tied[q] counts the teams sharing q's place.
	sumQ := make([]float64, n)
	tied := make([]float64, n)
	for q := range teams {
		for i := range teams {
			if ranks[i] >= ranks[q] {
				sumQ[q] += math.Exp(mu[i] / c)
			}
			if ranks[i] == ranks[q] {
				tied[q]++
			}
		}
	}
	for i := range teams {
		ex := math.Exp(mu[i] / c)
		var omega, delta float64
		for q := range teams {
			if ranks[q] > ranks[i] {
				continue
			}
			quot := ex / sumQ[q]
			if q == i {
				omega += (1 - quot) / tied[q]
			} else {
				omega -= quot / tied[q]
			}
			delta += quot * (1 - quot) / tied[q]
		}
		gamma := math.Sqrt(sigSq[i]) / c
		omega *= sigSq[i] / c
		delta *= gamma * sigSq[i] / cSq
		for j, r := range teams[i] {
			share := r.Sigma * r.Sigma / sigSq[i]
			out[i][j] = Rating{
				Mu:    r.Mu + share*omega,
				Sigma: r.Sigma * math.Sqrt(math.Max(1-share*delta, Kappa)),
			}
		}
	}
	return out
}

// RateSolo rates a game of single players: one rating per seat and its
// place.
func RateSolo(players []Rating, ranks []int) []Rating {
	teams := make([][]Rating, len(players))
	for i, p := range players {
		teams[i] = []Rating{p}
	}
	out := make([]Rating, len(players))
	for i, t := range Rate(teams, ranks) {
		out[i] = t[0]
	}
	return out
}

// Places turns scores (higher is better) into ranks: 0 for the best, equal
// scores share a place, and the next distinct score takes the place after
// the number of players above it (scores 9 7 7 5 give 0 1 1 3).
func Places(scores []int) []int {
	ranks := make([]int, len(scores))
	for i, s := range scores {
		for _, o := range scores {
			if o > s {
				ranks[i]++
			}
		}
	}
	return ranks
}
