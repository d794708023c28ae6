package main

import (
	"fmt"
	"time"

	"tessera/bot"
)

// maxRequestsPerSecond bounds discord.requests_per_second. Discord's
// global limit is 50 a second for every bot; a large bot may ask Discord
// for more, so a higher share is taken, up to this.
const maxRequestsPerSecond = 10000

// checkRateLimit reads discord.requests_per_second: how many REST
// requests a second this process may make of the bot's global limit,
// which Discord counts per token, across every process. Unset, it is
// Discord's 50, shared by the shards: a process that runs 3 of 8 shards
// takes 50×3/8 = 18, so processes splitting the shards stay within 50
// together. Interaction answers are not counted (they have no global
// limit on Discord either). Call after checkShards.
func (c *Config) checkRateLimit() error {
	n := c.Discord.RequestsPerSecond
	if n == nil {
		return nil
	}
	if *n < 1 || *n > maxRequestsPerSecond {
		return fmt.Errorf("config: discord.requests_per_second %d: give from 1 to %d (default: Discord's %d a second, shared by the processes that split the shards)",
			*n, maxRequestsPerSecond, bot.DefaultRateLimit.Global)
	}
	return nil
}

// rateLimit is the bot's global REST limit for this process.
func (c *Config) rateLimit() bot.RateLimit {
	if n := c.Discord.RequestsPerSecond; n != nil {
		return bot.RateLimit{Global: *n, Window: time.Second}
	}
	l := bot.DefaultRateLimit
	if c.shards.Count > 0 && len(c.shards.IDs) > 0 && len(c.shards.IDs) < c.shards.Count {
		l.Global = max(1, l.Global*len(c.shards.IDs)/c.shards.Count)
	}
	return l
}
