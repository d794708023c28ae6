package service

// clipTo shortens s to n characters (runes), ending with "…" when cut.
func clipTo(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
