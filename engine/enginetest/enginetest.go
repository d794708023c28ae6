// Package enginetest holds checks that every game's tests run: random
// playouts with the core invariants, notation round trips and replay.
package enginetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"tessera/engine"
)

// Fingerprint is everything observable about a position, for comparing two
// positions that should be equal.
func Fingerprint(st engine.State) string {
	b, err := json.Marshal(fingerprintOf(st))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// fingerprint is what Fingerprint and Key encode.
type fingerprint struct {
	ToMove  engine.Seat
	Over    bool
	Winners []engine.Seat
	Scores  []int
	Hands   []any
	Views   []engine.View
	Legal   []string
	Board   engine.Scene
}

func fingerprintOf(st engine.State) fingerprint {
	f := fingerprint{ToMove: st.ToMove(), Over: st.Over(), Winners: st.Winners(), Scores: st.Scores(), Board: st.Board()}
	for s := 0; s < st.Players(); s++ {
		f.Hands = append(f.Hands, st.Hand(engine.Seat(s)))
		f.Views = append(f.Views, st.View(engine.Seat(s)))
	}
	f.Views = append(f.Views, st.View(engine.NoSeat))
	for _, m := range st.Legal() {
		f.Legal = append(f.Legal, m.String())
	}
	return f
}

// Entry is one move of a record: engine.ResignEntry or a move in notation.
type Entry struct {
	Seat engine.Seat
	Text string
}

// Replay plays a record from its setup.
func Replay(setup engine.Setup, moves []Entry) (engine.State, error) {
	st, err := engine.New(setup)
	if err != nil {
		return nil, err
	}
	for i, e := range moves {
		if e.Text == engine.ResignEntry {
			st.Resign(e.Seat)
			continue
		}
		if st.ToMove() != e.Seat {
			return nil, fmt.Errorf("move %d %q: seat %d to move, not %d", i+1, e.Text, st.ToMove(), e.Seat)
		}
		m, err := st.Parse(e.Text)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %v", i+1, e.Text, err)
		}
		if _, err := st.Apply(m); err != nil {
			return nil, fmt.Errorf("move %d %q: %v", i+1, e.Text, err)
		}
	}
	return st, nil
}

// PlayoutOptions tune Playout.
type PlayoutOptions struct {
	// ResignChance is the chance (0..1) that a random seat resigns before a
	// move; 0 never resigns.
	ResignChance float64
	// MaxMoves stops a playout that has not ended (0: 10000).
	MaxMoves int
	// Check, when set, is called after every move with the position.
	Check func(t testing.TB, st engine.State, o engine.Outcome)
}

// Playout plays one random game to its end and checks the invariants
// every game shares:
//   - every listed legal move's notation parses back to the same move;
//   - Apply accepts every listed legal move;
//   - each seat's score equals the sum of its deltas;
//   - a clone is independent of its original (every exported field:
//     StateKey, a fraction of a Fingerprint's cost);
//   - replaying the record from the setup gives the same position;
//   - a finished game has no seat to move and no legal moves, and has
//     winners unless it says otherwise.
//
// It returns the final state and the record.
func Playout(t testing.TB, setup engine.Setup, seed uint64, opt PlayoutOptions) (engine.State, []Entry) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	st, err := engine.New(setup)
	if err != nil {
		t.Fatalf("setup %+v: %v", setup, err)
	}
	sums := make([]int, st.Players())
	var rec []Entry
	max := opt.MaxMoves
	if max == 0 {
		max = 10000
	}
	for n := 0; !st.Over(); n++ {
		if n > max {
			t.Fatalf("seed %d: game did not end after %d moves", seed, max)
		}
		if opt.ResignChance > 0 && rng.Float64() < opt.ResignChance {
			s := engine.Seat(rng.IntN(st.Players()))
			o := st.Resign(s)
			for _, d := range o.Deltas {
				sums[d.Seat] += d.Points
			}
			rec = append(rec, Entry{s, engine.ResignEntry})
			checkScores(t, st, sums, "after resign")
			continue
		}
		legal := st.Legal()
		if len(legal) == 0 {
			t.Fatalf("seed %d move %d: seat %d to move has no legal move and the game is not over", seed, n, st.ToMove())
		}
		m := legal[rng.IntN(len(legal))]
		text := m.String()
		m2, err := st.Parse(text)
		if err != nil {
			t.Fatalf("seed %d move %d: legal move %q does not parse: %v", seed, n, text, err)
		}
		if m2.String() != text {
			t.Fatalf("seed %d move %d: %q parses back as %q", seed, n, text, m2.String())
		}
		clone := st.Clone()
		before := StateKey(clone)
		seat := st.ToMove()
		o, err := st.Apply(m2)
		if err != nil {
			t.Fatalf("seed %d move %d: legal move %q refused: %v", seed, n, text, err)
		}
		if StateKey(clone) != before {
			t.Fatalf("seed %d move %d: applying a move changed a clone", seed, n)
		}
		for _, d := range o.Deltas {
			sums[d.Seat] += d.Points
		}
		rec = append(rec, Entry{seat, text})
		checkScores(t, st, sums, text)
		if opt.Check != nil {
			opt.Check(t, st, o)
		}
	}
	if st.ToMove() != engine.NoSeat || len(st.Legal()) != 0 {
		t.Fatalf("seed %d: finished game still has a seat to move or legal moves", seed)
	}
	again, err := Replay(setup, rec)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	if a, b := Key(again), Key(st); a != b {
		t.Fatalf("seed %d: replay differs from the played game", seed)
	}
	return st, rec
}

func checkScores(t testing.TB, st engine.State, sums []int, after string) {
	t.Helper()
	if got := st.Scores(); !reflect.DeepEqual(got, sums) {
		t.Fatalf("after %q: scores %v, but the deltas sum to %v", after, got, sums)
	}
}

// Play parses and applies a move in notation, failing the test if it is
// refused.
func Play(t testing.TB, st engine.State, text string) engine.Outcome {
	t.Helper()
	m, err := st.Parse(text)
	if err != nil {
		t.Fatalf("%q refused: %v", text, err)
	}
	o, err := st.Apply(m)
	if err != nil {
		t.Fatalf("%q: apply: %v", text, err)
	}
	return o
}

// Refused checks that a move is refused with an *engine.IllegalError whose
// message contains want (what a player is told).
func Refused(t testing.TB, st engine.State, text, want string) {
	t.Helper()
	_, err := st.Parse(text)
	var ie *engine.IllegalError
	if err == nil || !errors.As(err, &ie) {
		t.Fatalf("%q: want a refusal saying %q, got %v", text, want, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%q: the refusal %q does not say %q", text, err, want)
	}
}

// LegalStrings is the notation of every legal move.
func LegalStrings(st engine.State) []string {
	var out []string
	for _, m := range st.Legal() {
		out = append(out, m.String())
	}
	return out
}
