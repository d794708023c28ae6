package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConfigShards: the shards block, TESSERA_SHARDS over it, and the
// refusals, each naming what to fix.
func TestConfigShards(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	load := func(text string) (*Config, error) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return loadConfig(path, true, getenv)
	}
	c, err := load("database: x.db\n")
	if err != nil || c.shards.Count != 0 || c.shards.IDs != nil {
		t.Fatalf("default: %+v, %v", c.shards, err)
	}
	c, err = load("shards:\n  ids: 0-3\n  count: 8\n")
	if err != nil || c.shards.Count != 8 || !slices.Equal(c.shards.IDs, []int{0, 1, 2, 3}) {
		t.Fatalf("0-3 of 8: %+v, %v", c.shards, err)
	}
	c, err = load("shards:\n  count: 2\n")
	if err != nil || c.shards.Count != 2 || c.shards.IDs != nil {
		t.Fatalf("all of 2: %+v, %v", c.shards, err)
	}
	env["TESSERA_SHARDS"] = "4-7/8"
	c, err = load("shards:\n  ids: 0-3\n  count: 8\n")
	if err != nil || c.shards.String() != "4-7/8" {
		t.Fatalf("TESSERA_SHARDS over the file: %+v, %v", c.shards, err)
	}
	env["TESSERA_SHARDS"] = "auto"
	if c, err = load("shards:\n  count: 8\n"); err != nil || c.shards.Count != 0 {
		t.Fatalf("auto: %+v, %v", c.shards, err)
	}
	for text, why := range map[string]string{
		"shards:\n  ids: 0-3\n":                "shards.count 0",
		"shards:\n  ids: 0-8\n  count: 8\n":    "shard 8 is not one of the 8 shards",
		"shards:\n  count: -1\n":               "shards.count -1",
		"shards:\n  ids: 3-1\n  count: 4\n":    "backwards",
		"shards:\n  ids: [0, 1]\n  count: 4\n": "cannot unmarshal",
		"shards:\n  id: 0\n  count: 4\n":       "field id not found",
	} {
		env["TESSERA_SHARDS"] = ""
		if _, err := load(text); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want an error about %q", text, err, why)
		}
	}
	env["TESSERA_SHARDS"] = "0-3"
	if _, err := load("database: x.db\n"); err == nil || !strings.Contains(err.Error(), "TESSERA_SHARDS") {
		t.Errorf("TESSERA_SHARDS=0-3: %v", err)
	}
}
