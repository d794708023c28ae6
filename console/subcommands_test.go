package console

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"tessera/service"
)

// eventCommand is shaped as /tournament is, so that the console's reading
// of subcommands is tested apart from the tournaments' handlers.
var eventCommand = service.Command{Name: "tournament", Description: "Events in this server", Subcommands: []service.Command{
	{Name: "new", Description: "Open an event in this channel", Options: []service.Option{
		{Type: service.StringOption, Name: "game", Description: "Which game", Required: true},
		{Type: service.StringOption, Name: "format", Description: "How players meet", Required: true},
		{Type: service.IntegerOption, Name: "rounds", Description: "Rounds"},
		{Type: service.StringOption, Name: "options", Description: "Game options"},
		{Type: service.StringOption, Name: "clock", Description: "Clock"},
		{Type: service.BooleanOption, Name: "rated", Description: "Rated"},
	}},
	{Name: "standings", Description: "The standings", Options: []service.Option{
		{Type: service.IntegerOption, Name: "event", Description: "Which event"},
	}},
	{Name: "remove", Description: "Remove a player", Options: []service.Option{
		{Type: service.IntegerOption, Name: "event", Description: "Which event", Required: true},
		{Type: service.UserOption, Name: "user", Description: "Who", Required: true},
	}},
	{Name: "list", Description: "The events"},
}}

// argsText writes parsed options in a stable order for comparing.
func argsText(in service.Args) string {
	var words []string
	for k, v := range in {
		if u, ok := v.(service.User); ok {
			v = "@" + u.ID
		}
		words = append(words, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(words)
	return strings.Join(words, " ")
}

func TestConsoleSubcommands(t *testing.T) {
	for _, tc := range []struct {
		line string // the words after /tournament
		sub  string // the subcommand read; "" when refused
		args string // its options, or a piece of the refusal
	}{
		// Discord's way of writing options, and the console's.
		{"new game:closure format:swiss rounds:4", "new", "format=swiss game=closure rounds=4"},
		{"NEW game=closure format=swiss rounds=4 rated=false", "new", "format=swiss game=closure rated=false rounds=4"},
		// A value may hold the other separator: cut at the first.
		{"new game:tilingking format:swiss options:board=hex clock=bank=7d,inc=1d", "new", "clock=bank=7d,inc=1d format=swiss game=tilingking options=board=hex"},
		{"standings", "standings", ""},
		{"standings #3", "standings", "event=3"},
		{"remove #3 user:bo", "remove", "event=3 user=@bo"},
		{"list", "list", ""},
		// Refusals say what to type.
		{"", "", "Write /tournament and one of: new, standings, remove, list; for example /tournament new game:… format:…."},
		{"frobnicate", "", `/tournament has no "frobnicate"; write /tournament and one of: new, standings, remove, list.`},
		{"new game:closure", "", "/tournament new needs format:; write /tournament new game:… format:… [rounds:…]"},
		{"new game:closure format:swiss rounds:four", "", `rounds: takes a whole number, not "four".`},
		{"new game:closure format:swiss rated:perhaps", "", "rated: takes true or false"},
		{"new game:closure format:swiss colour:red", "", `"colour:red" is not an option of /tournament new`},
		{"new closure swiss", "", `"closure" is not an option of /tournament new`},
		{"standings #three", "", `"#three" is not a number`},
		{"list #3", "", "/tournament list takes no #id"},
		{"remove #3 user:b/o", "", `user: "b/o" is not a player's name.`},
		{"new game:closure format:swiss " + strings.Repeat("x", 6000), "", `"xxxxxxxxxx`},
	} {
		ref, args := "", strings.Fields(tc.line)
		sc, in, refused := subcommand(eventCommand, ref, args)
		switch {
		case tc.sub == "" && refused == nil:
			t.Errorf("%q: read as /tournament %s %s, want a refusal", tc.line, sc.Name, argsText(in))
		case tc.sub == "" && (!strings.Contains(refused.Text, tc.args) || !refused.Ephemeral || len(refused.Text) > 300):
			t.Errorf("%q: refused with %q, want %q, private and short", tc.line, refused.Text, tc.args)
		case tc.sub != "" && refused != nil:
			t.Errorf("%q: refused with %q", tc.line, refused.Text)
		case tc.sub != "" && (sc.Name != tc.sub || argsText(in) != tc.args):
			t.Errorf("%q: read as %s %q, want %s %q", tc.line, sc.Name, argsText(in), tc.sub, tc.args)
		}
	}
}

// TestConsoleSubcommandHelp: the help lists each subcommand on its own
// line, with its options as Discord writes them.
func TestConsoleSubcommandHelp(t *testing.T) {
	var b strings.Builder
	subcommandLines("tournament", eventCommand, func(name, args, about string) {
		fmt.Fprintf(&b, "/%s %s | %s\n", name, args, about)
	})
	want := "/tournament new game:… format:… [rounds:…] [options:…] [clock:…] [rated:…] | Open an event in the console\n" +
		"/tournament standings [event:…] | The standings\n" +
		"/tournament remove event:… user:… | Remove a player\n" +
		"/tournament list  | The events\n"
	if b.String() != want {
		t.Errorf("help lines:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestConsoleTournament: the service's /tournament through the console,
// written as on Discord.
func TestConsoleTournament(t *testing.T) {
	c, out := newConsole(t)
	for _, step := range []struct{ line, want string }{
		{"ana: /tournament new game:closure format:round-robin", "Click Join to enter"},
		{"bo: /tournament join #1", "You joined"},
		{"cy: /tournament join", "You joined"},
		{"ana: /tournament start #1", "has started"},
		{"ana: /tournament pairings round:1", "Table 1: bo v cy"},
		{"ana: /tournament", "Write /tournament and one of: new, list, standings, pairings, start, join, leave, bye, remove, cancel; for example /tournament new game:… format:…."},
		{"ana: /tournament bogus", `/tournament has no "bogus"`},
		{"ana: /tournament new game:closure", "/tournament new needs format:"},
		{"bo: /tournament leave", "Leave the tournament: /click tquit:1"},
	} {
		out.Reset()
		c.Line(t.Context(), step.line)
		if !strings.Contains(out.String(), step.want) {
			t.Errorf("%s: %q, want %q", step.line, out.String(), step.want)
		}
	}
	if h := Help(); !strings.Contains(h, "/tournament new game:… format:… [name:…]") || !strings.Contains(h, "/tournament remove event:… user:…") {
		t.Errorf("the help lacks /tournament's subcommands:\n%s", h)
	}
}
