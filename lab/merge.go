package lab

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// Merge joins runs of the same game, players, seats, options and seed that
// played different games (Config.First), as one longer run: a designer
// takes a 100-game row to 300 by playing games 100-299 and merging, not by
// replaying the first 100. The merged report is the one a single run of
// all those games gives, records in game order.
func Merge(reps ...Report) (Report, error) {
	if len(reps) == 0 {
		return Report{}, fmt.Errorf("nothing to merge")
	}
	cfg := reps[0].Config
	cfg.Games = 0
	var records []Record
	seen := map[int]bool{}
	for _, r := range reps {
		c := r.Config
		if c.Game != cfg.Game || c.Players != cfg.Players || c.Seed != cfg.Seed || c.Think != cfg.Think ||
			!slices.Equal(c.Seats, cfg.Seats) || !maps.Equal(c.Options, cfg.Options) {
			return Report{}, fmt.Errorf("cannot merge %s with %s: only runs of the same game, players, seats, options, seed and think differ by their games", describe(cfg), describe(c))
		}
		cfg.First = min(cfg.First, c.First)
		cfg.Games += c.Games
		for _, rec := range r.Records {
			if seen[rec.Index] {
				return Report{}, fmt.Errorf("game %d is in two of the runs: merge runs of different games (--first)", rec.Index+1)
			}
			seen[rec.Index] = true
			records = append(records, rec)
		}
	}
	sort.Slice(records, func(i, j int) bool { return records[i].Index < records[j].Index })
	return summarize(cfg, records), nil
}

func describe(c Config) string {
	return fmt.Sprintf("%s, %d players, seats %v, options %v, seed %d", c.Game, c.Players, c.Seats, c.Options, c.Seed)
}
