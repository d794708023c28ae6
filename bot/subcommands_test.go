package bot_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot"
	"tessera/bot/fakediscord"
	"tessera/service"
)

// calls records which Run a test table's command reached, with what.
type calls struct {
	mu  sync.Mutex
	got []string
}

func (c *calls) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, s)
}

func (c *calls) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// eventTable is a table of commands shaped as /tournament is, so that the
// bot's handling of subcommands is tested apart from the tournaments'
// own handlers: a subcommand offered only in servers beside one offered
// everywhere, a required option, choices, autocomplete, a user option,
// and a group (which the service's table may use one day).
func eventTable(c *calls) []service.Command {
	run := func(path string) func(*service.Service, service.Request, service.Args) (service.Reply, error) {
		return func(_ *service.Service, req service.Request, in service.Args) (service.Reply, error) {
			var words []string
			for _, k := range []string{"game", "format", "rounds", "event", "user"} {
				switch v := in[k].(type) {
				case nil:
				case service.User:
					words = append(words, k+"="+v.Name)
				default:
					words = append(words, fmt.Sprint(k, "=", v))
				}
			}
			c.add(path + " " + strings.Join(words, " "))
			return service.Reply{Text: "ran " + path}, nil
		}
	}
	min1 := 1.0
	return []service.Command{
		{Name: "tournament", Description: "Events in this server", Subcommands: []service.Command{
			{Name: "new", Description: "Open an event", InServer: true, Public: true, Run: run("new"), Options: []service.Option{
				{Type: service.StringOption, Name: "game", Description: "Which game", Required: true,
					Complete: func(_ *service.Service, _ service.Request, in service.Args, typed string) []service.Choice {
						c.add("complete game typed=" + typed + " format=" + in.String("format"))
						return []service.Choice{{Name: "Closure", Value: "closure"}}
					}},
				{Type: service.StringOption, Name: "format", Description: "How players meet", Choices: []service.Choice{{Name: "Swiss", Value: "swiss"}, {Name: "Knockout", Value: "knockout"}}},
				{Type: service.IntegerOption, Name: "rounds", Description: "Rounds of a Swiss event", MinValue: &min1, MaxValue: 20},
			}},
			{Name: "standings", Description: "The standings", Run: run("standings"), Options: []service.Option{
				{Type: service.IntegerOption, Name: "event", Description: "Which event"},
			}},
			{Name: "admin", Description: "Manage an event", Subcommands: []service.Command{
				{Name: "remove", Description: "Remove a player", Public: true, Run: run("admin remove"), Options: []service.Option{
					{Type: service.UserOption, Name: "user", Description: "Who", Required: true, NoBots: true},
				}},
			}},
		}},
	}
}

// TestSubcommands: a command with subcommands registers as Discord's
// SUB_COMMAND options (the fake refuses what Discord refuses), and an
// interaction naming one reaches that subcommand's Run with its options.
// A subcommand the table lacks, and a server's subcommand in a direct
// message get a short answer saying what to do instead.
func TestSubcommands(t *testing.T) {
	t.Parallel()
	c := &calls{}
	w := start(t, bot.Options{Commands: eventTable(c)})
	cmds := w.srv.Commands(w.srv.GuildID)
	if len(cmds) == 0 {
		cmds = w.srv.Commands("")
	}
	if len(cmds) != 1 || cmds[0].Name != "tournament" || len(cmds[0].Options) != 3 {
		t.Fatalf("registered %+v", cmds)
	}
	reg := cmds[0]
	if reg.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand || reg.Options[0].Name != "new" || len(reg.Options[0].Options) != 3 ||
		!reg.Options[0].Options[0].Required || !reg.Options[0].Options[0].Autocomplete || len(reg.Options[0].Options[1].Choices) != 2 {
		t.Fatalf("/tournament new registered as %+v", reg.Options[0])
	}
	if reg.Options[2].Type != discordgo.ApplicationCommandOptionSubCommandGroup || reg.Options[2].Options[0].Name != "remove" {
		t.Fatalf("/tournament admin registered as %+v", reg.Options[2])
	}
	// "new" is for servers, "standings" is not: Discord offers the command
	// everywhere (contexts belong to the command), and the bot refuses new
	// in a direct message.
	if reg.Contexts == nil || len(*reg.Contexts) != 2 {
		t.Fatalf("contexts %+v, want the guild and the bot's DMs", reg.Contexts)
	}

	for _, tc := range []struct {
		name    string
		send    *fakediscord.InteractionBuilder
		ran     string // what Run recorded; "" when nothing ran
		answer  string // in the answer
		private bool
	}{
		{"a subcommand with its options", w.srv.Slash("tournament", fakediscord.Sub("new", fakediscord.Str("game", "closure"),
			fakediscord.Str("format", "swiss"), fakediscord.Int("rounds", 4))).By(w.ana),
			"new game=closure format=swiss rounds=4", "ran new", false},
		{"a private subcommand", w.srv.Slash("tournament", fakediscord.Sub("standings", fakediscord.Int("event", 3))).By(w.bo),
			"standings event=3", "ran standings", false},
		{"a subcommand offered everywhere, in a direct message", w.srv.Slash("tournament", fakediscord.Sub("standings")).By(w.bo).InDM(),
			"standings ", "ran standings", false},
		{"a group's subcommand, its user resolved", w.srv.Slash("tournament", fakediscord.Group("admin", fakediscord.Sub("remove",
			fakediscord.UserOpt("user", w.bo.ID)))).By(w.ana),
			"admin remove user=bo", "ran admin remove", false},
		{"a server's subcommand in a direct message", w.srv.Slash("tournament", fakediscord.Sub("new", fakediscord.Str("game", "closure"))).By(w.ana).InDM(),
			"", "/tournament new works in a server channel", true},
		{"a subcommand this version lacks", w.srv.Slash("tournament", fakediscord.Sub("renamed")).By(w.ana),
			"", "/tournament takes one of: new, standings, admin.", true},
	} {
		before := len(c.list())
		r := w.respond(t, tc.send)
		if !strings.Contains(text(r), tc.answer) || ephemeral(r) != tc.private {
			t.Errorf("%s: answered %q (private %v), want %q (private %v)", tc.name, text(r), ephemeral(r), tc.answer, tc.private)
		}
		got := c.list()[before:]
		switch {
		case tc.ran == "" && len(got) != 0:
			t.Errorf("%s: ran %q", tc.name, got)
		case tc.ran != "" && (len(got) != 1 || got[0] != tc.ran):
			t.Errorf("%s: ran %q, want %q", tc.name, got, tc.ran)
		}
	}

	// Autocomplete: the option typed in is inside the subcommand, and the
	// others given so far come with it.
	before := len(c.list())
	ac := w.respond(t, w.srv.Autocomplete("tournament", fakediscord.Sub("new",
		fakediscord.Focused(fakediscord.Str("game", "clo")), fakediscord.Str("format", "knockout"))).By(w.ana))
	if ac.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(ac.Data.Choices) != 1 || ac.Data.Choices[0].Value != "closure" {
		t.Errorf("autocomplete answered %+v", ac.Data)
	}
	if got := c.list()[before:]; len(got) != 1 || got[0] != "complete game typed=clo format=knockout" {
		t.Errorf("autocomplete ran %q", got)
	}
	// An autocomplete of a subcommand this version lacks: no choices.
	ac = w.respond(t, w.srv.Autocomplete("tournament", fakediscord.Sub("renamed", fakediscord.Focused(fakediscord.Str("game", "clo")))).By(w.ana))
	if ac.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(ac.Data.Choices) != 0 {
		t.Errorf("autocomplete of an unknown subcommand answered %+v", ac.Data)
	}
}
