package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"tessera"
	"tessera/storage"
)

// testGuilds: a server's settings default to zero, an update is read
// back by that server only, and a failed update writes nothing.
func testGuilds(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	if g, err := s.Guild(t.Context(), "g1"); err != nil || g.WebOff {
		t.Fatalf("defaults: %+v %v", g, err)
	}
	got, err := s.UpdateGuild(t.Context(), "g1", func(g *tessera.GuildSettings) error { g.WebOff = true; return nil })
	if err != nil || !got.WebOff {
		t.Fatalf("update: %+v %v", got, err)
	}
	if g, _ := s.Guild(t.Context(), "g1"); !g.WebOff {
		t.Fatal("not read back")
	}
	if g, _ := s.Guild(t.Context(), "g2"); g.WebOff {
		t.Fatal("another server changed")
	}
	boom := errors.New("boom")
	if _, err := s.UpdateGuild(t.Context(), "g1", func(g *tessera.GuildSettings) error { g.WebOff = false; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failed update: %v", err)
	}
	if g, _ := s.Guild(t.Context(), "g1"); !g.WebOff {
		t.Fatal("a failed update was written")
	}
}

// testSecrets: make is called once, the secret is kept by name, and an
// error from make stores nothing (the next call makes one).
func testSecrets(t *testing.T, open func(t *testing.T) storage.Store) {
	s := open(t)
	calls := 0
	mk := func(v string) func() ([]byte, error) {
		return func() ([]byte, error) { calls++; return []byte(v), nil }
	}
	boom := errors.New("boom")
	if _, err := s.Secret(t.Context(), "web", func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("make's error: %v", err)
	}
	if v, err := s.Secret(t.Context(), "web", mk("first")); err != nil || string(v) != "first" {
		t.Fatalf("made: %q %v", v, err)
	}
	if v, err := s.Secret(t.Context(), "web", mk("second")); err != nil || string(v) != "first" || calls != 1 {
		t.Fatalf("read again: %q %v, make called %d times", v, err, calls)
	}
	if v, err := s.Secret(t.Context(), "other", mk("third")); err != nil || string(v) != "third" {
		t.Fatalf("another name: %q %v", v, err)
	}
}

// sharedSecretRace: processes that start together on one database and
// each make a secret all end up with the same one, the first stored.
func sharedSecretRace(t *testing.T, a, b storage.Store) {
	const n = 8
	got := make([][]byte, n)
	errs := make([]error, n)
	race(a, b, n, func(i int, s storage.Store) {
		got[i], errs[i] = s.Secret(t.Context(), "web", func() ([]byte, error) { return []byte(fmt.Sprint("made by ", i)), nil })
	})
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("creator %d: %v", i, errs[i])
		}
		if !bytes.Equal(got[i], got[0]) {
			t.Fatalf("creator %d got %q, creator 0 %q: two secrets", i, got[i], got[0])
		}
	}
	if v, err := b.Secret(t.Context(), "web", func() ([]byte, error) { return []byte("late"), nil }); err != nil || !bytes.Equal(v, got[0]) {
		t.Fatalf("read after the race: %q %v", v, err)
	}
}

// sharedGuildUpdates: racing updates of one server's settings through
// two processes each apply once, one after the other.
func sharedGuildUpdates(t *testing.T, a, b storage.Store) {
	const n = 8
	race(a, b, n, func(i int, s storage.Store) {
		if _, err := s.UpdateGuild(t.Context(), "g", func(g *tessera.GuildSettings) error { g.WebOff = !g.WebOff; return nil }); err != nil {
			t.Error(err)
		}
	})
	// An even number of flips leaves it as it was: a lost update would
	// leave it flipped (or not) by chance.
	if g, err := a.Guild(t.Context(), "g"); err != nil || g.WebOff {
		t.Fatalf("after %d flips: %+v %v", n, g, err)
	}
}
