package picture

import "tessera/engine"

// WinChart is a finished game's analysis as a picture: each seat's
// chance of winning over the game, one line per seat, from the position
// before the first move (x = 0) to the end (x = the number of moves), and
// the moves that cost their player most marked.
type WinChart struct {
	Title string
	Seats []ChartSeat
	// Marks are the move numbers (1-based) to mark: the line of the
	// mover drops across each.
	Marks []int
}

// ChartSeat is one seat's line: its name, colour and chance (0 to 1)
// after each number of moves.
type ChartSeat struct {
	Name   string
	Color  engine.Color // zero: the renderer picks one
	Chance []float64
}
