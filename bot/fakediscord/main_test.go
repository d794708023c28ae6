package fakediscord_test

import (
	"os"
	"testing"

	"tessera/bot/fakediscord"
)

// TestMain runs eight parallel tests at a time: most wait on a deadline
// or a client (15 s for the package two at a time, 5 s eight at a time).
func TestMain(m *testing.M) {
	fakediscord.DefaultParallel(8)
	os.Exit(m.Run())
}
