package service

import (
	"fmt"
	"strings"

	"tessera"
	"tessera/engine"
)

// noGame refuses a name that is no game's id: it lists the games and
// names the one nearest to what was typed, if one is near.
func noGame(name string) error {
	var ids []string
	for _, g := range engine.Games() {
		ids = append(ids, g.ID)
	}
	if near, ok := nearestGame(name); ok {
		return errorf(tessera.EINVALID, "There is no game %s; did you mean %s? The games: %s.", typed(name), near, strings.Join(ids, ", "))
	}
	return errorf(tessera.EINVALID, "There is no game %s; choose one of %s.", typed(name), strings.Join(ids, ", "))
}

// nearestGame is the game whose id or name is nearest to name: one that
// starts with it or that it starts with ("tiling", "closures"), else the
// nearest within a few typing mistakes ("glorietta"). It is given as
// its id, with its name when that is more than the id in capitals:
// "elemental (Elemental Connection)", "tilingking".
func nearestGame(name string) (string, bool) {
	key := squash(name)
	if key == "" {
		return "", false
	}
	best, bestDist := engine.Game{}, -1
	for _, g := range engine.Games() {
		for _, k := range []string{g.ID, squash(g.Name)} {
			d := EditDistance(key, k)
			if strings.HasPrefix(k, key) || strings.HasPrefix(key, k) {
				d = 0
			}
			if bestDist < 0 || d < bestDist {
				best, bestDist = g, d
			}
		}
	}
	if bestDist > max(2, len(key)/3) {
		return "", false
	}
	if strings.EqualFold(best.Name, best.ID) {
		return best.ID, true
	}
	return fmt.Sprintf("%s (%s)", best.ID, best.Name), true
}

// squash is a name in lower case without spaces: "Elemental Connection"
// is "elementalconnection".
func squash(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

// EditDistance is the number of characters to insert, delete or change
// to turn a into b (Levenshtein): how near a word typed is to a name
// (game names here, the computer's levels in the console).
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
