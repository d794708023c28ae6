package main

import (
	"strings"
	"testing"
	"time"
)

// TestConfigRateLimit: the bot's global REST limit is Discord's per
// token, so processes that split the shards split it too, unless
// discord.requests_per_second says otherwise; a share outside 1..10000 is
// refused naming the key.
func TestConfigRateLimit(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		why  string
		yaml string
		env  func(string) string
		want int
	}{
		{"one process with every shard: Discord's whole 50", "", env(), 50},
		{"shards 0-2 of 8: 3/8 of 50, rounded down", "", env("TESSERA_SHARDS", "0-2/8"), 18},
		{"shards 6-7 of 8: 2/8 of 50", "shards:\n  ids: 6-7\n  count: 8\n", env(), 12},
		{"all 8 of 8 named: the whole 50", "", env("TESSERA_SHARDS", "0-7/8"), 50},
		{"1 of 100 shards: never 0, at least 1 a second", "", env("TESSERA_SHARDS", "5/100"), 1},
		{"the key wins over the shards' share", "discord:\n  requests_per_second: 40\n", env("TESSERA_SHARDS", "0-2/8"), 40},
	} {
		cfg, err := parseConfig([]byte(c.yaml), "c.yaml", c.env)
		if err != nil {
			t.Fatalf("%s: %v", c.why, err)
		}
		if l := cfg.rateLimit(); l.Global != c.want || l.Window != time.Second {
			t.Errorf("%s: %d per %v, want %d per second", c.why, l.Global, l.Window, c.want)
		}
	}
	for _, bad := range []string{"0", "-5", "10001"} {
		_, err := parseConfig([]byte("discord:\n  requests_per_second: "+bad+"\n"), "c.yaml", env())
		if err == nil || !strings.Contains(err.Error(), "discord.requests_per_second") {
			t.Errorf("requests_per_second %s: %v, want a refusal naming the key", bad, err)
		}
	}
}
