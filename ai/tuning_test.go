package ai

import (
	"testing"

	"tessera/engine"
	"tessera/engine/closure"
	_ "tessera/engine/games"
)

// sixth is a game nobody measured that has every capability Closure has
// (a Determinizer, a KeyLister, a KeyScorer, a Previewer): Closure's
// position under another id, as a sixth game would be.
type sixth struct{ *closure.State }

func (sixth) Game() string { return "sixth" }

// TestUnmeasuredGameGetsTheDefault: the hard level's tuning follows the
// game's id, not its capabilities: a sixth game with Closure's
// capabilities gets DefaultTuning (the search before issue #28: no
// informed playouts, no ordered expansion, UCB1's 0.7, every iteration),
// while Closure itself keeps what was measured in it.
func TestUnmeasuredGameGetsTheDefault(t *testing.T) {
	st, err := engine.New(engine.Setup{Game: closure.ID, Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	six := sixth{st.(*closure.State)}
	if _, ok := engine.Lookup(six.Game()); ok {
		t.Fatal("a game is registered as sixth: pick another id for the test's toy")
	}
	if TuningOf(six.Game()) != DefaultTuning {
		t.Fatalf("an unmeasured game's tuning is %+v, want the default %+v", TuningOf(six.Game()), DefaultTuning)
	}
	hard := Hard.Budget(0)
	for _, c := range []struct {
		st                                 engine.State
		order, greedy, trimmed, ownExplore bool
	}{
		{six, false, false, false, false},
		{st, true, true, true, true}, // Closure's: the sixth game's capabilities would allow all of it
	} {
		tr := newTree(c.st, c.st.ToMove(), 1, hard.Policy)
		name := c.st.Game()
		if tr.orders != c.order {
			t.Errorf("%s: ordered expansion %v, want %v", name, tr.orders, c.order)
		}
		if got := tr.policy.Greedy > 0 && tr.informed; got != c.greedy {
			t.Errorf("%s: informed playouts %v, want %v", name, got, c.greedy)
		}
		if got := hard.Policy.iterations(c.st, hard.Iterations) < hard.Iterations; got != c.trimmed {
			t.Errorf("%s: iterations trimmed %v, want %v", name, got, c.trimmed)
		}
		if got := tr.explore != explore; got != c.ownExplore {
			t.Errorf("%s: UCB1's constant %v, want the default %v: %v", name, tr.explore, explore, !c.ownExplore)
		}
	}
	if got, want := hard.Policy.scoped(six), DefaultTuning.apply(hard.Policy); got != want {
		t.Errorf("the sixth game's hard policy is %+v, want the default tuning's %+v", got, want)
	}
}

// TestTuningsNameRegisteredGames: every tuning is keyed by the id of a
// registered game, so a misspelt id cannot leave a game on the default.
func TestTuningsNameRegisteredGames(t *testing.T) {
	for id := range tunings {
		if g, ok := engine.Lookup(id); !ok || g.ID != id {
			t.Errorf("a tuning for %q, which is no registered game's id", id)
		}
	}
}
