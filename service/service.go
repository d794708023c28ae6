// The Service: its store, its configuration and its renderer, and how an
// error becomes what a player reads (Fail).

package service

import (
	"crypto/rand"
	"encoding/binary"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tessera"
	"tessera/ai"
	"tessera/storage"
)

// Service runs the commands on a store.
type Service struct {
	// leavesCompleted: this process's first tick has completed the
	// leaves a dead process left half done (completeLeaves).
	leavesCompleted atomic.Bool

	renderer Renderer
	store    storage.Store
	mention  func(u User) string
	now      func() time.Time
	log      *slog.Logger
	seed     func() uint64
	defs     map[string]string
	cfg      Config
	clock    tessera.Clock

	wake   chan struct{} // the outbox has something new
	aiWake chan struct{} // an AI seat may have the turn

	mu    sync.Mutex
	bot   User // the bot itself (SetBot)
	cache map[uint64]*position
	pics  map[picKey]File // recent pictures by game, position, deadline and status

	replays *replayGate // bounds the replays drawn at once (replaylimit.go)

	analyses chan struct{} // the analysis worker's wake-up (analyzeworker.go), made on first use
}

// New returns a Service on an open store.
func New(store storage.Store, cfg Config) *Service {
	if cfg.Renderer == nil {
		panic("service.New: Config.Renderer is nil; wire render.Renderer{}")
	}
	s := &Service{store: store, renderer: cfg.Renderer, mention: MentionToken, now: cfg.Now, log: cfg.Logger, seed: cfg.Seed, defs: cfg.Defaults, cfg: cfg,
		cache: map[uint64]*position{}, pics: map[picKey]File{}, replays: newReplayGate(0), wake: make(chan struct{}, 1), aiWake: make(chan struct{}, 1)}
	if c, err := ParseClock(cfg.Clock); err == nil {
		s.clock = c
	} else {
		s.clock = tessera.Clock{Kind: tessera.ClockNone}
	}
	if s.cfg.RemindAfter <= 0 { // Validate refuses negative values
		s.cfg.RemindAfter = 24 * time.Hour
	}
	if s.cfg.AIWorkers <= 0 || s.cfg.AIWorkers > MaxAIWorkers {
		s.cfg.AIWorkers = 1
	}
	if s.cfg.AIThink <= 0 || s.cfg.AIThink > MaxAIThink {
		s.cfg.AIThink = ai.DefaultThink
	}
	if s.cfg.Courier.Owner == "" { // names this process's leases: the outbox's, the AI turns'
		s.cfg.Courier.Owner = newOwner()
	}
	if s.cfg.RetryBase <= 0 || s.cfg.RetryBase > MaxRetryBase {
		s.cfg.RetryBase = 2 * time.Second
	}
	if s.cfg.VacationDays <= 0 || s.cfg.VacationDays > MaxVacationDays { // Validate refuses these
		s.cfg.VacationDays = 20
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.cfg.Meter == nil {
		s.cfg.Meter = noMeter{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.seed == nil {
		s.seed = func() uint64 {
			var b [8]byte
			rand.Read(b[:])
			return binary.LittleEndian.Uint64(b[:])
		}
	}
	return s
}

// Store is the service's store.
func (s *Service) Store() storage.Store { return s.store }

// errorf is a user-safe error.
func errorf(code, format string, args ...any) error { return tessera.Errorf(code, format, args...) }

// Fail turns an error into the one-line ephemeral reply a player sees.
// Internal errors are logged with their details and shown generically.
func (s *Service) Fail(err error) Reply {
	if tessera.ErrorCode(err) == tessera.EINTERNAL {
		s.log.Error("internal error", "err", err)
	}
	return Reply{Text: clipEchoes(tessera.ErrorMessage(err)), Ephemeral: true}
}

// storageTx keeps the store's transaction type short in signatures.
type storageTx = storage.Tx
