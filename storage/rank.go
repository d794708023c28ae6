package storage

// The leaderboard's order, which the adapters keep as an index (Leaders,
// RatingRank) and the service sorts by wherever it still sorts: one
// definition, so that a place counted by a store is the row's place in
// the list.

import (
	"cmp"
	"strings"

	"tessera"
)

// Ordinal is the number a leaderboard sorts by, mu - 3 sigma (package
// rating's Ordinal: a skill the player has with 99.7% belief). The
// conversion rounds the product before the subtraction, so that no
// machine fuses the two (Go may, on some) and every adapter, PostgreSQL
// included, computes the same float64 from the same Mu and Sigma. Zero
// is +0, never -0, so that an encoding of its bits orders it as cmp does.
func Ordinal(r tessera.Rating) float64 {
	o := r.Mu - float64(3*r.Sigma)
	if o == 0 {
		return 0
	}
	return o
}

// CompareRank orders ratings as a leaderboard lists them, best first: by
// Ordinal (higher first), then by more games, then by name and user id
// (byte order), so that equal ratings keep one order everywhere and
// every player has a place of their own.
func CompareRank(a, b tessera.Rating) int {
	return cmp.Or(cmp.Compare(Ordinal(b), Ordinal(a)), cmp.Compare(b.Games, a.Games),
		strings.Compare(a.Name, b.Name), strings.Compare(a.UserID, b.UserID))
}
