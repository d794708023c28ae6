package main

import (
	"fmt"

	"tessera/bot"
)

// checkShards reads the shards setting: TESSERA_SHARDS ("0-3/8", "/8" or
// "auto") when it is set, else the file's shards: {ids, count}; nothing
// means every shard Discord recommends, in this process.
func (c *Config) checkShards(getenv func(string) string) error {
	if v := getenv("TESSERA_SHARDS"); v != "" {
		sh, err := bot.ParseShardsEnv(v)
		if err != nil {
			return fmt.Errorf("config: %w", err)
		}
		c.shards = sh
		return nil
	}
	if c.Shards.Count == 0 && c.Shards.IDs == "" {
		c.shards = bot.Shards{}
		return nil
	}
	if c.Shards.Count < 1 {
		return fmt.Errorf("config: shards.count %d: give the bot's number of shards, from 1 to %d (or leave shards out for Discord's recommendation)", c.Shards.Count, bot.MaxShards)
	}
	sh, err := bot.ParseShards(c.Shards.IDs, c.Shards.Count)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	c.shards = sh
	return nil
}
