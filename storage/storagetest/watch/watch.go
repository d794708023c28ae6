// Package watch is a store for tests that says when it changed, so that
// a test waiting for the code under test to write something (a game
// reaching n moves, its thread recorded, the outbox empty) is woken by the
// write itself instead of looking again every few milliseconds: a test
// that sleeps and looks depends on how busy the machine is (docs/testing.md).
//
//	st := watch.New(boltdbStore)      // give st to the service
//	err := st.WaitFor(ctx, func() bool { // ctx's deadline bounds a hang
//		n, err := st.Outbox(ctx)
//		return err == nil && n == 0
//	})
//
// It sees the writes made through it, in this process: another process
// on the same database changes it unseen.
package watch

import (
	"context"
	"errors"
	"time"

	"tessera"
	"tessera/internal/wake"
	"tessera/storage"
)

// Store is a storage.Store that wakes its waiters after each write; reads
// go straight to the store it wraps.
type Store struct {
	storage.Store

	changes wake.Signal // woken after every write
}

// New wraps st.
func New(st storage.Store) *Store {
	return &Store{Store: st}
}

// WaitFor returns once cond holds, or with ctx's error once ctx is done.
// cond is called at once and again after every write through s (it may
// read s); a write that ends between two looks is never missed, as the
// channel waited on is taken before each look.
func (s *Store) WaitFor(ctx context.Context, cond func() bool) error {
	return s.changes.WaitFor(ctx, cond)
}

// wake wakes every waiter. It is called after every write, failed ones
// too: a failure may still have written (a commit whose answer was lost),
// and a waiter woken for nothing only looks once more.
func (s *Store) wake() { s.changes.Wake() }

// The writes: every method of storage.Store that may change the database
// (TestEveryWriteWakes keeps the list whole).

func (s *Store) Create(ctx context.Context, g *tessera.Game, interactionID string) error {
	defer s.wake()
	return s.Store.Create(ctx, g, interactionID)
}

func (s *Store) CreateWith(ctx context.Context, g *tessera.Game, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) error {
	defer s.wake()
	return s.Store.CreateWith(ctx, g, interactionID, change)
}

func (s *Store) CreateLinked(ctx context.Context, g *tessera.Game, interactionID string, fromID uint64, link func(from *tessera.Game) error) error {
	defer s.wake()
	return s.Store.CreateLinked(ctx, g, interactionID, fromID, link)
}

func (s *Store) Update(ctx context.Context, id, version uint64, interactionID string, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	defer s.wake()
	return s.Store.Update(ctx, id, version, interactionID, change)
}

func (s *Store) Modify(ctx context.Context, id uint64, change func(g *tessera.Game, tx storage.Tx) error) (*tessera.Game, error) {
	defer s.wake()
	return s.Store.Modify(ctx, id, change)
}

func (s *Store) ClaimAITurn(ctx context.Context, id uint64, owner string, now time.Time, lease time.Duration) (bool, error) {
	defer s.wake()
	return s.Store.ClaimAITurn(ctx, id, owner, now, lease)
}

func (s *Store) ReleaseAITurn(ctx context.Context, id uint64, owner string) error {
	defer s.wake()
	return s.Store.ReleaseAITurn(ctx, id, owner)
}

func (s *Store) Claim(ctx context.Context, now time.Time, owner string, lease time.Duration, max int) ([]tessera.Announcement, error) {
	defer s.wake()
	return s.Store.Claim(ctx, now, owner, lease, max)
}

func (s *Store) Release(ctx context.Context, owner string, games ...uint64) error {
	defer s.wake()
	return s.Store.Release(ctx, owner, games...)
}

func (s *Store) Delivered(ctx context.Context, seqs ...uint64) error {
	defer s.wake()
	return s.Store.Delivered(ctx, seqs...)
}

func (s *Store) Retry(ctx context.Context, seq uint64, next time.Time) error {
	defer s.wake()
	return s.Store.Retry(ctx, seq, next)
}

func (s *Store) Attempting(ctx context.Context, at time.Time, seqs ...uint64) error {
	defer s.wake()
	return s.Store.Attempting(ctx, at, seqs...)
}

func (s *Store) RetryNow(ctx context.Context) (int, error) {
	defer s.wake()
	return s.Store.RetryNow(ctx)
}

func (s *Store) UpdateUser(ctx context.Context, id string, change func(u *tessera.UserSettings, tx storage.Tx) error) (tessera.UserSettings, error) {
	defer s.wake()
	return s.Store.UpdateUser(ctx, id, change)
}

func (s *Store) UpdateGuild(ctx context.Context, id string, change func(g *tessera.GuildSettings) error) (tessera.GuildSettings, error) {
	defer s.wake()
	return s.Store.UpdateGuild(ctx, id, change)
}

func (s *Store) Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error) {
	defer s.wake()
	return s.Store.Secret(ctx, name, make)
}

func (s *Store) MarkHandled(ctx context.Context, interactionID string) error {
	defer s.wake()
	return s.Store.MarkHandled(ctx, interactionID)
}

func (s *Store) PruneHandled(ctx context.Context, before time.Time) (int, error) {
	defer s.wake()
	return s.Store.PruneHandled(ctx, before)
}

func (s *Store) PruneLongHandled(ctx context.Context, before time.Time) (int, error) {
	defer s.wake()
	return s.Store.PruneLongHandled(ctx, before)
}

func (s *Store) ReplaceRatings(ctx context.Context, rs []tessera.Rating) error {
	defer s.wake()
	return s.Store.ReplaceRatings(ctx, rs)
}

func (s *Store) CreateEvent(ctx context.Context, e *tessera.Event, interactionID string) error {
	defer s.wake()
	return s.Store.CreateEvent(ctx, e, interactionID)
}

func (s *Store) UpdateEvent(ctx context.Context, id, version uint64, interactionID string, change func(e *tessera.Event, tx storage.Tx) error) (*tessera.Event, error) {
	defer s.wake()
	return s.Store.UpdateEvent(ctx, id, version, interactionID, change)
}

func (s *Store) CreateAnalysis(ctx context.Context, a *tessera.Analysis) error {
	defer s.wake()
	return s.Store.CreateAnalysis(ctx, a)
}

func (s *Store) UpdateAnalysis(ctx context.Context, gameID uint64, change func(a *tessera.Analysis) error) (*tessera.Analysis, error) {
	defer s.wake()
	return s.Store.UpdateAnalysis(ctx, gameID, change)
}

// Dump and Load pass storage.Dumper through, so that a wrapped adapter
// still migrates (and passes storagetest's suite); Load is a write.

func (s *Store) Dump(ctx context.Context, put func(storage.Record) error) error {
	d, ok := s.Store.(storage.Dumper)
	if !ok {
		return errNoDumper
	}
	return d.Dump(ctx, put)
}

func (s *Store) Load(ctx context.Context, src func(put func(storage.Record) error) error) error {
	d, ok := s.Store.(storage.Dumper)
	if !ok {
		return errNoDumper
	}
	defer s.wake()
	return d.Load(ctx, src)
}

var errNoDumper = errors.New("watch: the wrapped store does not implement storage.Dumper")
