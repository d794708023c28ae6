package tournament

// firstColourWhite is the lot of the first round of a Swiss event:
// whether the top seed has seat 1 (FIDE's "initial colour" white).
func firstColourWhite(seed int64) bool { return newLot(seed, 1).intn(2) == 0 }
