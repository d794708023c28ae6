package service

import "testing"

// TestFileSize: sizes in a refusal are rounded up, limits down, so a file
// a byte over a limit never reads as the limit.
func TestFileSize(t *testing.T) {
	for _, c := range []struct {
		n    int
		up   bool
		want string
	}{
		{10 << 20, false, "10 MiB"},      // Discord's limit
		{10<<20 + 1, true, "10.1 MiB"},   // a byte over it
		{10<<20 - 1, false, "9.9 MiB"},   // a limit a byte under
		{12 << 20, true, "12 MiB"},       // exact: no rounding
		{1<<20 + 1<<19, true, "1.5 MiB"}, // 1.5 exactly
		{1 << 20, true, "1 MiB"},
		{1<<20 - 1, true, "1024 KiB"}, // under a MiB: KiB, rounded up
		{1<<20 - 1, false, "1023 KiB"},
		{1, true, "1 KiB"},
		{1, false, "0 KiB"},
	} {
		if got := fileSize(c.n, c.up); got != c.want {
			t.Errorf("fileSize(%d, up %v) = %q, want %q", c.n, c.up, got, c.want)
		}
	}
}
