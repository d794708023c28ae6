package storagetest

import (
	"errors"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// testLongHandled: ids that begin with storage.LongHandled (a mail's
// Message-ID) outlive PruneHandled's cutoff and leave only by
// PruneLongHandled's, which leaves every other id alone; Tx.MarkHandled
// marks an id in the transaction that enqueues, so a second asking
// enqueues nothing.
func testLongHandled(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	ctx := t.Context()
	mailID, otherID := storage.LongHandled+"0123abcd", "discord-1"
	for _, id := range []string{mailID, otherID} {
		if err := s.MarkHandled(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	later := time.Now().Add(time.Hour) // both are older than this cutoff
	if n, err := s.PruneHandled(ctx, later); err != nil || n != 1 {
		t.Fatalf("PruneHandled pruned %d (%v), want the one short-lived id", n, err)
	}
	if ok, _ := s.Handled(ctx, mailID); !ok {
		t.Fatal("PruneHandled forgot a mail's id")
	}
	if err := s.MarkHandled(ctx, otherID); err != nil {
		t.Fatalf("the pruned id: %v", err)
	}
	if n, err := s.PruneLongHandled(ctx, time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("PruneLongHandled pruned %d recent ids (%v)", n, err)
	}
	if n, err := s.PruneLongHandled(ctx, later); err != nil || n != 1 {
		t.Fatalf("PruneLongHandled pruned %d (%v), want the mail's id alone", n, err)
	}
	if ok, _ := s.Handled(ctx, mailID); ok {
		t.Fatal("the mail's id is still handled after PruneLongHandled")
	}
	if ok, _ := s.Handled(ctx, otherID); !ok {
		t.Fatal("PruneLongHandled forgot an id without the prefix")
	}

	// Tx.MarkHandled: the id and what the change enqueues are written
	// together, once.
	answer := func() error {
		_, err := s.UpdateUser(ctx, "7", func(_ *tessera.UserSettings, tx storage.Tx) error {
			if err := tx.MarkHandled(ctx, storage.LongHandled+"answer"); err != nil {
				return err
			}
			return tx.Enqueue(ctx, tessera.Announcement{Kind: tessera.AnnounceNote, UserID: "7", Text: "once"})
		})
		return err
	}
	before, _ := s.Outbox(ctx)
	if err := answer(); err != nil {
		t.Fatal(err)
	}
	if err := answer(); !errors.Is(err, storage.ErrDuplicate) {
		t.Fatalf("the second answer: %v, want ErrDuplicate", err)
	}
	if n, _ := s.Outbox(ctx); n != before+1 {
		t.Fatalf("outbox %d after two answers, want %d", n, before+1)
	}
	// A change that fails after marking leaves the id unmarked.
	boom := errors.New("boom")
	if _, err := s.UpdateUser(ctx, "7", func(_ *tessera.UserSettings, tx storage.Tx) error {
		if err := tx.MarkHandled(ctx, storage.LongHandled+"failed"); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("failed change: %v", err)
	}
	if ok, _ := s.Handled(ctx, storage.LongHandled+"failed"); ok {
		t.Fatal("a failed change's id stayed marked")
	}
}
