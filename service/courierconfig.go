package service

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"time"
)

// CourierConfig is how the courier delivers announcements.
type CourierConfig struct {
	// Workers is how many games' announcements are delivered at once
	// (setting courier.workers, default the number of cores). A game's own
	// announcements are always delivered one after the other, in order.
	Workers int
	// Owner names this process among those sharing one database, in its
	// leases on the outbox and on the AI's turns (default: host name,
	// process id and a random suffix).
	Owner string
	// Lease is how long a claimed game stays this process's (default 1
	// minute); a killed process's games are taken over once it runs out.
	Lease time.Duration
}

// MaxCourierWorkers bounds courier.workers: each worker renders a board
// at a time (a few MB), and Discord's rate limits make more pointless.
const MaxCourierWorkers = 64

// DefaultLease is how long the courier holds a game it claimed.
const DefaultLease = time.Minute

// EffectiveWorkers is Workers with its default (the number of cores) and
// bound applied.
func (c CourierConfig) EffectiveWorkers() int {
	if c.Workers <= 0 {
		return runtime.NumCPU()
	}
	return min(c.Workers, MaxCourierWorkers)
}

// EffectiveLease is Lease with its default applied.
func (c CourierConfig) EffectiveLease() time.Duration {
	if c.Lease <= 0 {
		return DefaultLease
	}
	return c.Lease
}

// newOwner names a courier uniquely: two processes on one host never share
// a name, and the name says where a claim came from.
func newOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}
