package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestConfigAI: the ai settings' defaults, values and refusals.
func TestConfigAI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	none := func(string) string { return "" }
	os.WriteFile(path, []byte("database: x.db\n"), 0o600)
	c, err := loadConfig(path, true, none)
	if err != nil {
		t.Fatal(err)
	}
	if sc := c.serviceConfig(); sc.AIWorkers != 1 || sc.AIThink != 5*time.Second {
		t.Fatalf("defaults: %d workers, think %s", sc.AIWorkers, sc.AIThink)
	}
	os.WriteFile(path, []byte("ai:\n  workers: 2\n  think: 200ms\n"), 0o600)
	c, err = loadConfig(path, true, none)
	if err != nil {
		t.Fatal(err)
	}
	if sc := c.serviceConfig(); sc.AIWorkers != 2 || sc.AIThink != 200*time.Millisecond || sc.Validate() != nil {
		t.Fatalf("ai settings: %d workers, think %s", sc.AIWorkers, sc.AIThink)
	}
	for _, bad := range []string{"ai:\n  think: soon\n", "ai:\n  think: -1s\n", "ai:\n  think: 1h\n", "ai:\n  workers: 99\n", "ai:\n  workers: -1\n"} {
		os.WriteFile(path, []byte(bad), 0o600)
		if _, err := loadConfig(path, true, none); err == nil {
			t.Fatalf("accepted %q", bad)
		}
	}
}
