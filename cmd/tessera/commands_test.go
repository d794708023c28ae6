package main

import (
	"context"
	"encoding/json"
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
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Logger: slog.New(slog.DiscardHandler)})
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
	t.Cleanup(startLoops(svc, slog.New(slog.DiscardHandler), b, true).Close) // as serve runs them: closed before the bot

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
		opts := wireOptions(t, r.Options)
		if len(c.Subcommands) > 0 {
			// A command with subcommands offers them and nothing else
			// (Discord's type 1, SUB_COMMAND), each with its own options.
			if len(opts) != len(c.Subcommands) {
				t.Errorf("/%s: Discord has %d subcommands, the table %d", c.Name, len(opts), len(c.Subcommands))
				continue
			}
			for j, sc := range c.Subcommands {
				ro := opts[j]
				if ro.Type != 1 || ro.Name != sc.Name || ro.Description != sc.Description {
					t.Errorf("/%s %s: Discord has %+v, the table %q %q", c.Name, sc.Name, ro, sc.Name, sc.Description)
					continue
				}
				sameOptions(t, c.Name+" "+sc.Name, ro.Options, sc.Options)
			}
		} else {
			sameOptions(t, c.Name, opts, c.Options)
		}
		// The console's help lists the command with its description, in
		// the console's words (each subcommand with its own).
		lines := []service.Command{c}
		if len(c.Subcommands) > 0 {
			lines = nil
			for _, sc := range c.Subcommands {
				sc.Name = c.Name + " " + sc.Name
				lines = append(lines, sc)
			}
		}
		for _, l := range lines {
			if !strings.Contains(help, "/"+l.Name+" ") && !strings.Contains(help, "/"+l.Name+"\n") ||
				!strings.Contains(help, console.Reword(l.Description)) {
				t.Errorf("the console's help does not list /%s (%q)", l.Name, l.Description)
			}
		}
	}
}

// wireOption is a registered option as Discord's API writes it (read
// back from JSON, so this test needs no Discord library).
type wireOption struct {
	Type         int          `json:"type"`
	Name         string       `json:"name"`
	Description  string       `json:"description"`
	Required     bool         `json:"required"`
	Autocomplete bool         `json:"autocomplete"`
	Choices      []any        `json:"choices"`
	MaxLength    int          `json:"max_length"`
	Options      []wireOption `json:"options"`
}

func wireOptions(t *testing.T, opts any) []wireOption {
	t.Helper()
	b, err := json.Marshal(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []wireOption
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameOptions compares the options Discord registered for /name with the
// table's.
func sameOptions(t *testing.T, name string, registered []wireOption, table []service.Option) {
	t.Helper()
	if len(registered) != len(table) {
		t.Errorf("/%s: Discord has %d options, the table %d", name, len(registered), len(table))
		return
	}
	for j, o := range table {
		ro := registered[j]
		if ro.Name != o.Name || ro.Description != o.Description || ro.Required != o.Required ||
			ro.Autocomplete != (o.Complete != nil) || len(ro.Choices) != len(o.Choices) || ro.MaxLength != o.MaxLength {
			t.Errorf("/%s option %s: Discord has %+v, the table %+v", name, o.Name, ro, o)
		}
		// Discord's option types: 3 string, 4 integer, 5 boolean, 6 user.
		if want := map[service.OptionType]int{service.StringOption: 3, service.IntegerOption: 4, service.BooleanOption: 5, service.UserOption: 6}[o.Type]; int(ro.Type) != want {
			t.Errorf("/%s option %s: type %v, want %v", name, o.Name, ro.Type, want)
		}
	}
}
