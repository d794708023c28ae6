package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConfigOfCommentsOnly: a file with no setting in it (comments, or
// nothing but blank lines) is the defaults, not an error, while a file
// cut off in the middle of a value is refused.
func TestConfigOfCommentsOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	none := func(string) string { return "" }
	for _, text := range []string{"# all defaults\n", "\n\n", "---\n# nothing\n"} {
		os.WriteFile(path, []byte(text), 0o600)
		c, err := loadConfig(path, true, none)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if c.Replay.MaxMoves == 0 || c.Challenges.Expire != "7d" {
			t.Fatalf("%q: not the defaults: %+v", text, c)
		}
	}
	os.WriteFile(path, []byte("ai:\n  think: \"5s\n"), 0o600)
	if _, err := loadConfig(path, true, none); err == nil {
		t.Fatal("accepted an unterminated string")
	}
}
