package fakediscord

import (
	"flag"
	"fmt"
)

// DefaultParallel makes a test binary run n parallel tests at a time
// unless -parallel was given, for a TestMain to call before m.Run. Tests
// against the fake spend most of their time waiting (on a deadline, a
// client, a timer), so Go's default of GOMAXPROCS at a time leaves a small
// machine's cores idle. Under the race detector, where the code itself is
// the bottleneck, Go's default stays.
func DefaultParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set && Slowdown == 1 {
		flag.Set("test.parallel", fmt.Sprint(n))
	}
}
