package main

import (
	"fmt"
	"time"

	"tessera/service"
)

// checkAI fills in the ai settings' defaults (one search at a time, 5 s
// for hard) and refuses what the service would not take, naming the key.
func (c *Config) checkAI() error {
	if c.AI.Workers == 0 {
		c.AI.Workers = 1
	}
	if c.AI.Think == "" {
		c.AI.Think = "5s"
	}
	if think, err := time.ParseDuration(c.AI.Think); err != nil || think <= 0 || think > service.MaxAIThink {
		return fmt.Errorf("config: ai.think %q: write a duration from 1ms to 10m, like 5s or 500ms", c.AI.Think)
	}
	if c.AI.AnalysisIterations == 0 {
		c.AI.AnalysisIterations = service.DefaultAnalysisIterations
	}
	if c.AI.AnalysisIterations < 1 || c.AI.AnalysisIterations > service.MaxAnalysisIterations {
		return fmt.Errorf("config: ai.analysis_iterations %d: give from 1 to %d iterations a position", c.AI.AnalysisIterations, service.MaxAnalysisIterations)
	}
	if c.AI.Workers < 1 || c.AI.Workers > service.MaxAIWorkers {
		return fmt.Errorf("config: ai.workers %d: give from 1 to %d searches at once", c.AI.Workers, service.MaxAIWorkers)
	}
	return nil
}
