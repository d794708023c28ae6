package bot

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxShards bounds a shard count: far more than Discord asks of any bot
// (one shard per 2,500 guilds), and small enough that a typo such as
// "0-99999999" cannot make the bot allocate millions of sessions.
const MaxShards = 1 << 14

// Shards says which of the bot's gateway shards this process runs. Discord
// sends each guild's events to shard (guild_id >> 22) % Count, and DMs to
// shard 0, so several processes that run disjoint IDs of the same Count
// share the work.
type Shards struct {
	// IDs are the shards this process runs, ascending; empty: all of them.
	IDs []int
	// Count is how many shards the bot has in all; 0: as many as Discord
	// recommends (GET /gateway/bot). IDs need a Count: every process must
	// agree on it, and the recommendation changes as the bot grows.
	Count int
}

// ParseShards reads the shards: setting, e.g. ids "0-3" of count 8, or
// "0,2,5-6"; empty ids mean all of count's shards.
func ParseShards(ids string, count int) (Shards, error) {
	sh := Shards{Count: count}
	if count < 0 || count > MaxShards {
		return Shards{}, fmt.Errorf("shards.count %d: give from 1 to %d (or leave it out for Discord's recommendation)", count, MaxShards)
	}
	ids = strings.TrimSpace(ids)
	if ids == "" {
		return sh, nil
	}
	if count == 0 {
		return Shards{}, errors.New("shards.ids needs shards.count: every process must agree on the number of shards")
	}
	seen := make([]bool, count)
	for _, part := range strings.Split(ids, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		from, err := shardNumber(lo, count)
		if err != nil {
			return Shards{}, err
		}
		to := from
		if isRange {
			if to, err = shardNumber(hi, count); err != nil {
				return Shards{}, err
			}
			if to < from {
				return Shards{}, fmt.Errorf("shards.ids %q: the range %s runs backwards", ids, part)
			}
		}
		for id := from; id <= to; id++ {
			if seen[id] {
				return Shards{}, fmt.Errorf("shards.ids %q: shard %d is listed twice", ids, id)
			}
			seen[id] = true
			sh.IDs = append(sh.IDs, id)
		}
	}
	slices.Sort(sh.IDs)
	return sh, nil
}

func shardNumber(s string, count int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("shards.ids: %q is not a shard number (write ids like 0-3 or 0,2,5)", s)
	}
	if n < 0 || n >= count {
		return 0, fmt.Errorf("shards.ids: shard %d is not one of the %d shards (0 to %d)", n, count, count-1)
	}
	return n, nil
}

// ParseShardsEnv reads TESSERA_SHARDS: "IDS/COUNT", e.g. "0-3/8" (shards
// 0 to 3 of 8) or "/8" (all 8), or "auto" (all of Discord's recommended
// count).
func ParseShardsEnv(v string) (Shards, error) {
	v = strings.TrimSpace(v)
	if v == "auto" {
		return Shards{}, nil
	}
	ids, count, ok := strings.Cut(v, "/")
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if !ok || err != nil || n < 1 {
		return Shards{}, fmt.Errorf("TESSERA_SHARDS %q: write IDS/COUNT, e.g. 0-3/8 for shards 0 to 3 of 8, /8 for all 8, or auto", v)
	}
	return ParseShards(ids, n)
}

// String is the shards in TESSERA_SHARDS's form.
func (sh Shards) String() string {
	if sh.Count == 0 {
		return "auto"
	}
	var parts []string
	for i := 0; i < len(sh.IDs); {
		j := i
		for j+1 < len(sh.IDs) && sh.IDs[j+1] == sh.IDs[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(sh.IDs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", sh.IDs[i], sh.IDs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",") + "/" + strconv.Itoa(sh.Count)
}

// ids are the shards to run when the bot has count shards in all.
func (sh Shards) ids(count int) []int {
	if len(sh.IDs) > 0 {
		return sh.IDs
	}
	all := make([]int, count)
	for i := range all {
		all[i] = i
	}
	return all
}

// identifyBuckets groups the shards as Discord lets them identify: a
// shard's rate-limit key is id % maxConcurrency, and each key may identify
// once per 5 s, so shards 0 to maxConcurrency-1 start together, then
// maxConcurrency to 2*maxConcurrency-1, and so on ("you must start them
// by bucket in order"). ids are ascending.
func identifyBuckets(ids []int, maxConcurrency int) [][]int {
	maxConcurrency = max(maxConcurrency, 1)
	var out [][]int
	for _, id := range ids {
		if n := len(out); n > 0 && out[n-1][0]/maxConcurrency == id/maxConcurrency {
			out[n-1] = append(out[n-1], id)
			continue
		}
		out = append(out, []int{id})
	}
	return out
}
