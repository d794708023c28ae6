package main

import (
	"encoding/json"
	"fmt"
	"os"

	"tessera/engine"
	"tessera/service"
)

// replayRecord plays back a record file written by /export: its setup,
// every entry (moves, resignations and time-outs), and a check that the
// position ends as the record's result says. It returns the position, the
// setup and the number of entries (a moves file's "moves").
func replayRecord(path string) (engine.State, engine.Setup, int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, engine.Setup{}, 0, err
	}
	var rec service.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, engine.Setup{}, 0, fmt.Errorf("%s: not a record file: %v", path, err)
	}
	st, err := rec.Play()
	if err != nil {
		return nil, engine.Setup{}, 0, fmt.Errorf("%s: %v", path, err)
	}
	return st, rec.Setup, len(rec.Moves), nil
}
