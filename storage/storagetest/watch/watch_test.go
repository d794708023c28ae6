package watch_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"testing"

	"tessera/storage"
	"tessera/storage/boltdb"
	"tessera/storage/storagetest"
	"tessera/storage/storagetest/watch"
)

func open(t *testing.T) *watch.Store {
	t.Helper()
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return watch.New(st)
}

// TestConformance: wrapped, a store keeps every promise of the port, so
// a test that waits through the wrapper tests the code as it runs.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store { return open(t) })
}

// reads are the methods of storage.Store that change nothing; every
// other one must wake the waiters.
var reads = map[string]bool{
	"Game": true, "All": true, "ByPlayer": true, "ByChannel": true, "Finished": true,
	"OpenChallenges": true, "NewestChallenges": true, "AllOpenChallenges": true, "Due": true, "NextDeadline": true,
	"AITurns": true, "Pending": true, "Outbox": true, "User": true, "Guild": true,
	"Handled": true, "Ratings": true, "PlayerRatings": true, "AllRatings": true,
	"PlayerRating": true, "RatingHistory": true, "Leaders": true, "RatingRank": true,
	"Event": true, "GuildEvents": true, "EventsDue": true, "Analysis": true,
	"AnalysisQueue": true, "Created": true, "Check": true, "Close": true,
	"RemindersDue": true, "ExpiredChallenges": true, "ByChannelPlayer": true,
}

// TestEveryWriteWakes: each method of the port is a read listed above or
// a write watch.Store defines itself (and so wakes after): a method added
// to the port is classed here before a waiter can miss its writes.
func TestEveryWriteWakes(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "watch.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	wakes := map[string]bool{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Name.Name == "WaitFor" {
			continue
		}
		wakes[fn.Name.Name] = callsWake(fn)
	}
	port := reflect.TypeFor[storage.Store]()
	for i := range port.NumMethod() {
		name := port.Method(i).Name
		switch wake, defined := wakes[name]; {
		case reads[name] && defined:
			t.Errorf("%s is listed as a read but watch.Store defines it", name)
		case !reads[name] && !defined:
			t.Errorf("storage.Store's %s is neither a listed read nor a write that watch.Store wraps", name)
		case !reads[name] && !wake:
			t.Errorf("watch.Store's %s does not wake the waiters", name)
		}
	}
}

// callsWake reports whether fn's body calls s.wake.
func callsWake(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "wake" {
			found = true
		}
		return !found
	})
	return found
}

// TestWaitFor: a waiter is woken by the write that makes its condition
// true, and gives up with its context.
func TestWaitFor(t *testing.T) {
	st := open(t)
	defer st.Close()
	missing := make(chan struct{}) // closed at the first look, which finds no game
	done := make(chan error)
	go func() {
		looked := false
		done <- st.WaitFor(t.Context(), func() bool {
			_, err := st.Game(t.Context(), 1)
			if !looked {
				looked = true
				close(missing)
			}
			return err == nil
		})
	}()
	<-missing
	if err := st.Create(t.Context(), storagetest.NewGame(), ""); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := st.WaitFor(ctx, func() bool { return false }); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
	if err := st.WaitFor(ctx, func() bool { return true }); err != nil {
		t.Fatalf("a condition that holds at once: %v", err)
	}
}
