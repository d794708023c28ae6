package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/console"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// TestCommandTableAgrees: the slash commands Discord received from the
// bot, the console's help and the service's table of commands name the
// same commands with the same options, so that a command added to the
// table reaches every transport, and none is declared anywhere else.
func TestCommandTableAgrees(t *testing.T) {
	srv := fakediscord.New(t)
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Mention: bot.Mention, Link: bot.Link, Stamp: bot.Stamp, Logger: slog.New(slog.DiscardHandler)})
	b, err := bot.New(svc, bot.Options{Token: "t", Configure: srv.Configure, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })

	table := service.Commands()
	registered := srv.Commands("")
	if len(registered) != len(table) {
		t.Fatalf("Discord has %d commands, the table %d", len(registered), len(table))
	}
	help := console.Help()
	for i, c := range table {
		r := registered[i]
		if r.Name != c.Name || r.Description != c.Description {
			t.Errorf("command %d: Discord has /%s %q, the table /%s %q", i, r.Name, r.Description, c.Name, c.Description)
		}
		wantContexts := 2 // servers and the bot's direct messages
		if c.InServer {
			wantContexts = 1
		}
		if r.Contexts == nil || len(*r.Contexts) != wantContexts {
			t.Errorf("/%s: contexts %v, want %d", c.Name, r.Contexts, wantContexts)
		}
		if len(r.Options) != len(c.Options) {
			t.Errorf("/%s: Discord has %d options, the table %d", c.Name, len(r.Options), len(c.Options))
			continue
		}
		for j, o := range c.Options {
			ro := r.Options[j]
			if ro.Name != o.Name || ro.Description != o.Description || ro.Required != o.Required ||
				ro.Autocomplete != (o.Complete != nil) || len(ro.Choices) != len(o.Choices) || ro.MaxLength != o.MaxLength {
				t.Errorf("/%s option %s: Discord has %+v, the table %+v", c.Name, o.Name, ro, o)
			}
			// Discord's option types: 3 string, 4 integer, 5 boolean, 6 user.
			if want := map[service.OptionType]int{service.StringOption: 3, service.IntegerOption: 4, service.BooleanOption: 5, service.UserOption: 6}[o.Type]; int(ro.Type) != want {
				t.Errorf("/%s option %s: type %v, want %v", c.Name, o.Name, ro.Type, want)
			}
		}
		// The console's help lists the command with its description, in
		// the console's words.
		if !strings.Contains(help, "/"+c.Name+" ") && !strings.Contains(help, "/"+c.Name+"\n") ||
			!strings.Contains(help, console.Reword(c.Description)) {
			t.Errorf("the console's help does not list /%s (%q)", c.Name, c.Description)
		}
	}
}
