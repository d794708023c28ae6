package service

import (
	"testing"

	"tessera"
	"tessera/render"
)

// TestAbortedPicture: the picture of an aborted game says so on its
// status line and shows no one to move; an earlier position of the same
// game (a move post delivered late) still shows whose turn it was.
func TestAbortedPicture(t *testing.T) {
	g := &tessera.Game{ID: 4, Setup: engineSetup(), Players: []tessera.Player{{Name: "Ana"}, {Name: "Bo"}}, Status: tessera.StatusAborted,
		Clock: tessera.Clock{Kind: "none"}}
	st, err := Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	p := panelOf(g, st, 0)
	if p.Status != "Aborted: no result" {
		t.Fatalf("status line %q", p.Status)
	}
	for _, s := range p.Seats {
		if s.ToMove {
			t.Fatalf("%s is shown to move in an aborted game", s.Name)
		}
	}
	g.Status = tessera.StatusPlaying
	if p := panelOf(g, st, 0); p.Status != "Ana to move" || !p.Seats[0].ToMove {
		t.Fatalf("a game in play: %q", p.Status)
	}
	// The picture cache tells the two apart.
	s := New(nil, Config{Renderer: render.Renderer{}})
	playing, err := s.pictureOf(g, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	g.Status = tessera.StatusAborted
	aborted, err := s.pictureOf(g, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(playing.Data) == string(aborted.Data) {
		t.Fatal("the aborted game's picture is the one drawn while it was in play")
	}
}
