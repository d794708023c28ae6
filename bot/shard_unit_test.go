package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseShards(t *testing.T) {
	for _, c := range []struct {
		ids   string
		count int
		want  []int
		str   string
	}{
		{"", 0, nil, "auto"},
		{"", 8, nil, "/8"},
		{"0-3", 8, []int{0, 1, 2, 3}, "0-3/8"},
		{" 5-6, 0 ,2", 8, []int{0, 2, 5, 6}, "0,2,5-6/8"},
		{"7", 8, []int{7}, "7/8"},
		{"0", 1, []int{0}, "0/1"},
	} {
		sh, err := ParseShards(c.ids, c.count)
		if err != nil || !slices.Equal(sh.IDs, c.want) || sh.Count != c.count || sh.String() != c.str {
			t.Errorf("ParseShards(%q, %d) = %+v %q, %v; want %v %q", c.ids, c.count, sh, sh.String(), err, c.want, c.str)
		}
		if err := sh.check(); err != nil {
			t.Errorf("%+v: %v", sh, err)
		}
		if c.count > 0 { // the environment variable's form reads back the same
			env, err := ParseShardsEnv(sh.String())
			if err != nil || !slices.Equal(env.IDs, sh.IDs) || env.Count != sh.Count {
				t.Errorf("ParseShardsEnv(%q) = %+v, %v", sh.String(), env, err)
			}
		}
	}
	for _, c := range []struct {
		ids   string
		count int
		why   string
	}{
		{"0-8", 8, "not one of the 8 shards"},
		{"3-1", 8, "backwards"},
		{"1,0-2", 8, "listed twice"},
		{"a", 8, "not a shard number"},
		{"-1", 8, "not a shard number"},
		{"0-3", 0, "needs shards.count"},
		{"", -1, "shards.count -1"},
		{"", MaxShards + 1, "shards.count"},
		{"0-", 4, "not a shard number"},
	} {
		if sh, err := ParseShards(c.ids, c.count); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("ParseShards(%q, %d) = %+v, %v; want an error about %q", c.ids, c.count, sh, err, c.why)
		}
	}
	for _, v := range []string{"8", "0-3", "0-3/0", "0-3/x", "4/4", "", "/"} {
		if sh, err := ParseShardsEnv(v); err == nil {
			t.Errorf("ParseShardsEnv(%q) = %+v, want an error", v, sh)
		}
	}
	if sh, err := ParseShardsEnv("auto"); err != nil || sh.Count != 0 || sh.IDs != nil {
		t.Errorf("auto = %+v, %v", sh, err)
	}
	for _, bad := range []Shards{{IDs: []int{1}}, {IDs: []int{2, 1}, Count: 4}, {IDs: []int{4}, Count: 4}, {Count: -2}} {
		if bad.check() == nil {
			t.Errorf("%+v passed the check", bad)
		}
	}
}

// FuzzParseShards: whatever is typed, the parsed shards are valid ones,
// and reading back their String gives them again.
func FuzzParseShards(f *testing.F) {
	f.Add("0-3", 8)
	f.Add("0,2,5-6", 8)
	f.Add("", 0)
	f.Add("9-2", 3)
	f.Fuzz(func(t *testing.T, ids string, count int) {
		sh, err := ParseShards(ids, count)
		if err != nil {
			return
		}
		if err := sh.check(); err != nil {
			t.Fatalf("ParseShards(%q, %d) = %+v, which the bot refuses: %v", ids, count, sh, err)
		}
		back, err := ParseShardsEnv(sh.String())
		if sh.Count > 0 && (err != nil || !slices.Equal(back.IDs, sh.IDs) || back.Count != sh.Count) {
			t.Fatalf("%+v reads back from %q as %+v, %v", sh, sh.String(), back, err)
		}
	})
}

func TestIdentifyBuckets(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		mc   int
		want string
	}{
		{[]int{0, 1, 2, 3}, 1, "[[0] [1] [2] [3]]"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, 4, "[[0 1 2 3] [4 5 6 7]]"},
		{[]int{0, 1, 2, 3}, 16, "[[0 1 2 3]]"},
		{[]int{2, 3, 5}, 2, "[[2 3] [5]]"},
		{[]int{1, 4}, 0, "[[1] [4]]"},
	} {
		got := identifyBuckets(c.ids, c.mc)
		if fmt.Sprint(got) != c.want {
			t.Errorf("identifyBuckets(%v, %d) = %v, want %s", c.ids, c.mc, got, c.want)
		}
		// No two shards of a bucket share a rate-limit key.
		for _, b := range got {
			keys := map[int]bool{}
			for _, id := range b {
				if k := id % max(c.mc, 1); keys[k] {
					t.Errorf("bucket %v has two shards of key %d", b, k)
				} else {
					keys[k] = true
				}
			}
		}
	}
}
