package bot_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
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
// schedule.
func TestPruneHandled(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{PruneEvery: 20 * time.Millisecond, KeepHandled: time.Nanosecond})
	sent := w.srv.Slash("new", fakediscord.Str("game", "elemental"), fakediscord.UserOpt("opponent", w.bo.ID)).By(w.ana).Send(t)
	sent.Response(t)
	deadline := time.Now().Add(patience)
	for {
		ok, err := w.store.Handled(t.Context(), sent.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the handled interaction was never pruned")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
