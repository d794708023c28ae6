package main

import "fmt"

// count is "1 game", "3 games": n with the noun's form for it. The tools
// said "1 games" and "1 tournaments".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
