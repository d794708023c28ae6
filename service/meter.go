package service

import "time"

// Meter is what the service reports for the operators' metrics (package
// metrics implements it; Config.Meter, nil: nothing is reported). Its
// methods are called after the change they report was committed, and
// must not block.
type Meter interface {
	// Moved counts a move made in a game of kind game (a person's or the
	// computer's; resignations and time-outs are not moves).
	Moved(game string)
	// AIMoved counts a move the computer made at level, and how long it
	// thought.
	AIMoved(game, level string, think time.Duration)
}

// noMeter reports nothing.
type noMeter struct{}

func (noMeter) Moved(string)                          {}
func (noMeter) AIMoved(string, string, time.Duration) {}
