package boltdb

// Claims on the outbox. bbolt's file lock lets one process open the file,
// so the leases live in that process's memory: they only keep the
// couriers of one process (its workers, or a courier restarted in the
// same process) from taking the same game twice, and they vanish with the
// process, as an expired lease would.

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"tessera"
)

// leases are the outbox claims: queue (tessera.Announcement.Queue: a
// game's id, or an event's negated) -> its holder.
type leases struct {
	mu    sync.Mutex
	games map[uint64]lease
}

type lease struct {
	owner string
	until time.Time
}

// Claim leases to owner up to max games that have due announcements and
// no live lease held by another owner, and returns those games' pending
// announcements in order (see storage.Store).
func (s *Store) Claim(ctx context.Context, now time.Time, owner string, d time.Duration, max int) ([]tessera.Announcement, error) {
	s.claims.mu.Lock()
	defer s.claims.mu.Unlock()
	if s.claims.games == nil {
		s.claims.games = map[uint64]lease{}
	}
	for id, l := range s.claims.games {
		if !l.until.After(now) {
			delete(s.claims.games, id)
		}
	}
	var out []tessera.Announcement
	err := s.view(ctx, func(tx *bolt.Tx) error {
		held := map[uint64]bool{}  // passed over: taken, or waiting for a retry
		taken := map[uint64]bool{} // claimed by this call
		c := tx.Bucket(bOutbox).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var a tessera.Announcement
			if err := json.Unmarshal(v, &a); err != nil {
				return fmt.Errorf("outbox %x: %w", k, err)
			}
			q := a.Queue() // a game's, or an event's
			if held[q] {
				continue
			}
			if a.Next.After(now) {
				held[q] = true
				continue
			}
			if !taken[q] {
				if l, ok := s.claims.games[q]; ok && l.owner != owner || len(taken) == max {
					held[q] = true
					continue
				}
				taken[q] = true
			}
			out = append(out, a)
		}
		for id := range taken {
			s.claims.games[id] = lease{owner: owner, until: now.Add(d)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Release ends owner's leases on games; another owner's are kept.
func (s *Store) Release(ctx context.Context, owner string, games ...uint64) error {
	s.claims.mu.Lock()
	defer s.claims.mu.Unlock()
	for _, id := range games {
		if l, ok := s.claims.games[id]; ok && l.owner == owner {
			delete(s.claims.games, id)
		}
	}
	return nil
}

// ClaimAITurn leases game id's AI turn to owner (see storage.Store); as
// the outbox's claims, the leases live in this process's memory.
func (s *Store) ClaimAITurn(ctx context.Context, id uint64, owner string, now time.Time, d time.Duration) (bool, error) {
	s.aiClaims.mu.Lock()
	defer s.aiClaims.mu.Unlock()
	if s.aiClaims.games == nil {
		s.aiClaims.games = map[uint64]lease{}
	}
	if l, ok := s.aiClaims.games[id]; ok && l.owner != owner && l.until.After(now) {
		return false, nil
	}
	s.aiClaims.games[id] = lease{owner: owner, until: now.Add(d)}
	return true, nil
}

// ReleaseAITurn ends owner's lease on game id's AI turn.
func (s *Store) ReleaseAITurn(ctx context.Context, id uint64, owner string) error {
	s.aiClaims.mu.Lock()
	defer s.aiClaims.mu.Unlock()
	if l, ok := s.aiClaims.games[id]; ok && l.owner == owner {
		delete(s.aiClaims.games, id)
	}
	return nil
}
