package storagetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// testAnalyses: a game's analysis is created once (a second create is
// ErrDuplicate and writes nothing), read back whole, replaced by
// PutAnalysis (ErrNotFound for a game without one), and the queue lists
// the queued ones in the order asked, then by game id, dropping those
// done or failed.
func testAnalyses(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	ctx := t.Context()
	if _, err := s.Analysis(ctx, 7); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("no analysis: %v, want ErrNotFound", err)
	}
	at := time.Unix(5000, 0).UTC()
	mk := func(id uint64, requested time.Time) *tessera.Analysis {
		return &tessera.Analysis{GameID: id, Status: tessera.AnalysisQueued, Requested: requested, UserID: "u", ChannelID: "c", Iterations: 100}
	}
	for _, a := range []*tessera.Analysis{mk(7, at.Add(2*time.Second)), mk(9, at), mk(3, at.Add(2*time.Second)), mk(4, at.Add(time.Second))} {
		if err := s.CreateAnalysis(ctx, a); err != nil {
			t.Fatalf("create %d: %v", a.GameID, err)
		}
	}
	queue := func(want string) {
		t.Helper()
		ids, err := s.AnalysisQueue(ctx)
		if err != nil || fmt.Sprint(ids) != want {
			t.Fatalf("queue %v %v, want %s", ids, err, want)
		}
	}
	queue("[9 4 3 7]")
	dup := mk(7, at)
	dup.UserID = "other"
	if err := s.CreateAnalysis(ctx, dup); !errors.Is(err, storage.ErrDuplicate) {
		t.Fatalf("second create: %v, want ErrDuplicate", err)
	}
	a, err := s.Analysis(ctx, 7)
	if err != nil || a.UserID != "u" || !a.Requested.Equal(at.Add(2*time.Second)) {
		t.Fatalf("read back after a refused create: %+v %v", a, err)
	}
	boom := errors.New("boom")
	if _, err := s.UpdateAnalysis(ctx, 7, func(a *tessera.Analysis) error { a.Started = true; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failed update: %v", err)
	}
	if a, _ := s.Analysis(ctx, 7); a.Started {
		t.Fatal("a failed update was written")
	}
	if _, err := s.UpdateAnalysis(ctx, 7, func(a *tessera.Analysis) error {
		a.Started = true
		a.Positions = []tessera.AnalysedPosition{
			{Seat: 0, Win: []float64{0.625, 0.375}, Best: "d5 RGBY", BestWin: []float64{0.75, 0.25}, Played: "c6 YYBB",
				Public: []float64{0.5, 0.5}, Own: []float64{0.625, 0.4375}},
			{Seat: -1, Win: []float64{1, 0}},
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Analysis(ctx, 7)
	if err != nil || !got.Started || len(got.Positions) != 2 || got.Positions[0].BestWin[0] != 0.75 || got.Positions[0].Played != "c6 YYBB" || got.Positions[1].Seat != -1 ||
		fmt.Sprint(got.Positions[0].Public, got.Positions[0].Own) != "[0.5 0.5] [0.625 0.4375]" { // the views of issue #49 kept
		t.Fatalf("read back: %+v %v", got, err)
	}
	queue("[9 4 3 7]") // still queued
	set := func(id uint64, change func(a *tessera.Analysis)) {
		t.Helper()
		got, err := s.UpdateAnalysis(ctx, id, func(a *tessera.Analysis) error { change(a); return nil })
		if err != nil || got.GameID != id {
			t.Fatalf("update %d: %+v %v", id, got, err)
		}
	}
	set(7, func(a *tessera.Analysis) { a.Status = tessera.AnalysisDone })
	set(9, func(a *tessera.Analysis) { a.Status, a.Error = tessera.AnalysisFailed, "boom" })
	queue("[4 3]")
	// A failed one asked again goes to the queue's end.
	set(9, func(a *tessera.Analysis) {
		a.Status, a.Error, a.Requested = tessera.AnalysisQueued, "", at.Add(time.Hour)
	})
	queue("[4 3 9]")
	if _, err := s.UpdateAnalysis(ctx, 8, func(a *tessera.Analysis) error { return nil }); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("update without create: %v, want ErrNotFound", err)
	}
	queue("[4 3 9]")
}

// testAnalysisRace: of requests racing to create one game's analysis,
// exactly one succeeds and the others get ErrDuplicate.
func testAnalysisRace(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.CreateAnalysis(t.Context(), &tessera.Analysis{GameID: 12, Status: tessera.AnalysisQueued, Requested: time.Unix(int64(i), 0), UserID: fmt.Sprint(i)})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, storage.ErrDuplicate):
			t.Fatalf("create: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d creates succeeded, want 1", ok)
	}
	if ids, err := s.AnalysisQueue(t.Context()); err != nil || len(ids) != 1 || ids[0] != 12 {
		t.Fatalf("queue %v %v, want [12]", ids, err)
	}
}
