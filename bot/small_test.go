package bot_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/storage"
)

// TestCommandContexts: commands say where they are offered with contexts
// and integration_types, not the deprecated dm_permission; only /new and
// /puzzle need a server, everything else works in the bot's direct messages.
func TestCommandContexts(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	reg := w.srv.RequestsTo("PUT /applications/*/commands")
	if len(reg) == 0 {
		t.Fatal("no registration")
	}
	var defs []map[string]any
	if err := json.Unmarshal(reg[0].Body, &defs); err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		if _, ok := d["dm_permission"]; ok {
			t.Fatalf("/%s sends dm_permission", d["name"])
		}
		ctx, _ := json.Marshal(d["contexts"])
		it, _ := json.Marshal(d["integration_types"])
		want := "[0,1]"
		if d["name"] == "new" || d["name"] == "puzzle" || d["name"] == "tournament" { // they start a game (an event) in a server channel
			want = "[0]"
		}
		if string(ctx) != want || string(it) != "[0]" {
			t.Fatalf("/%s: contexts %s integration_types %s", d["name"], ctx, it)
		}
	}
}

// TestAutocompletePanicAnswer: a panic while answering an autocomplete
// (here discordgo's, on an option of the wrong type) is answered with an
// empty list of choices (type 8), the only answer an autocomplete may get.
func TestAutocompletePanicAnswer(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	r := w.respond(t, w.srv.Autocomplete("move", fakediscord.Focused(fakediscord.Int("notation", 5))).By(w.ana))
	if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(r.Data.Choices) != 0 {
		t.Fatalf("answer type %d, %d choices", r.Type, len(r.Data.Choices))
	}
}

// TestPruneHandled: the records of handled interactions are forgotten on a
// schedule. The bot prunes on its own ticker, which leaves no trace in
// Discord, so the test holds pruning back until it has seen the record,
// then waits for the store to say that a pruning has finished
// (pruneWatch), not for time to pass.
func TestPruneHandled(t *testing.T) {
	t.Parallel()
	w, logger := newWorld(t, bot.Options{})
	prunes := &pruneWatch{Store: w.store, pruned: make(chan struct{}, 1)}
	w.svc = newService(prunes, logger, w.clock.Now) // over the world's store, which the test reads
	// The stores stamp a handled interaction in whole seconds, so a record
	// just made is older than a cutoff only a second later: a cutoff a
	// second ahead of the clock forgets it at the next pruning, without
	// waiting a second of wall time.
	w.loops.PruneEvery, w.loops.KeepHandled = 20*time.Millisecond, -time.Second
	w.begin(t, bot.Options{}, logger)
	sent := w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID)).By(w.ana).Send(t)
	sent.Response(t)
	if ok, err := w.store.Handled(t.Context(), sent.ID); err != nil || !ok {
		t.Fatalf("the interaction is not recorded as handled (%v, %v)", ok, err)
	}
	prunes.armed.Store(true)
	select {
	case <-prunes.pruned:
	case <-time.After(patience): // only a failing test waits this long
		t.Fatal("the bot never pruned the handled interactions")
	}
	if ok, err := w.store.Handled(t.Context(), sent.ID); err != nil || ok {
		t.Fatalf("after a pruning the interaction is still handled (%v, %v)", ok, err)
	}
}

// pruneWatch is a store that prunes nothing until armed (so the test can
// see the record first), and then says on pruned when a PruneHandled has
// finished.
type pruneWatch struct {
	storage.Store
	armed  atomic.Bool
	pruned chan struct{} // buffered: the bot's clock never waits for the test
}

func (s *pruneWatch) PruneHandled(ctx context.Context, before time.Time) (int, error) {
	if !s.armed.Load() {
		return 0, nil
	}
	n, err := s.Store.PruneHandled(ctx, before)
	select {
	case s.pruned <- struct{}{}:
	default:
	}
	return n, err
}
