package fakediscord_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
)

// TestSubcommandRegistration: the fake takes and refuses subcommands as
// Discord's Application Commands page says (docs/testing.md cites it):
// a command holds subcommands and groups or other options, never both; a
// group holds subcommands; a subcommand holds options; choices and
// autocomplete belong to string, integer and number options; and a slash
// command's names, descriptions and choices stay within 8000 characters.
func TestSubcommandRegistration(t *testing.T) {
	t.Parallel()
	str := func(name string) string {
		return `{"type":3,"name":"` + name + `","description":"d"}`
	}
	sub := func(name string, opts ...string) string {
		return `{"type":1,"name":"` + name + `","description":"d","options":[` + strings.Join(opts, ",") + `]}`
	}
	group := func(name string, subs ...string) string {
		return `{"type":2,"name":"` + name + `","description":"d","options":[` + strings.Join(subs, ",") + `]}`
	}
	// 9 subcommands of 25 options with descriptions of 100: far past 8000.
	var big []string
	for i := range 9 {
		var opts []string
		for j := range 25 {
			opts = append(opts, fmt.Sprintf(`{"type":3,"name":"o%d","description":"%s"}`, j, strings.Repeat("d", 100)))
		}
		big = append(big, sub(fmt.Sprintf("s%d", i), opts...))
	}
	var many []string // 26 options of distinct names
	for i := range 26 {
		many = append(many, str(fmt.Sprintf("x%d", i)))
	}
	for _, tc := range []struct {
		name    string
		options string // the command's options, a JSON array's items
		field   string // a field the refusal names; "" when taken
	}{
		{"subcommands with options", sub("new", str("game"), str("format")) + "," + sub("list"), ""},
		{"a group of subcommands beside a subcommand", group("admin", sub("remove", str("user"))) + "," + sub("list"), ""},
		{"a required option after an optional one, in a subcommand", sub("new", str("game"), `{"type":3,"name":"format","description":"d","required":true}`), "required"},
		{"a subcommand beside an option", sub("new") + "," + str("game"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"},
		{"a subcommand in a subcommand", sub("new", sub("deeper")), "APPLICATION_COMMAND_OPTION_TYPE_INVALID"},
		{"a group in a subcommand", sub("new", group("deeper", sub("x"))), "APPLICATION_COMMAND_OPTION_TYPE_INVALID"},
		{"a group in a group", group("a", group("b", sub("c"))), "APPLICATION_COMMAND_OPTION_TYPE_INVALID"},
		{"an option in a group", group("a", str("game")), "APPLICATION_COMMAND_OPTION_TYPE_INVALID"},
		{"choices on a subcommand", `{"type":1,"name":"new","description":"d","choices":[{"name":"a","value":"a"}]}`, "choices"},
		{"autocomplete on a subcommand", `{"type":1,"name":"new","description":"d","autocomplete":true}`, "autocomplete"},
		{"a subcommand's name in capitals", sub("New"), "APPLICATION_COMMAND_INVALID_NAME"},
		{"two subcommands of one name", sub("new") + "," + sub("new"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"},
		{"a subcommand's description over 100", `{"type":1,"name":"new","description":"` + strings.Repeat("d", 101) + `"}`, "description"},
		{"26 options in a subcommand", sub("new", many...), "BASE_TYPE_MAX_LENGTH"},
		{"options on a string option", `{"type":3,"name":"game","description":"d","options":[` + str("x") + `]}`, "APPLICATION_COMMAND_OPTIONS_INVALID"},
		{"a command past 8000 characters", strings.Join(big, ","), "APPLICATION_COMMAND_TOO_LARGE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			srv := fakediscord.New(rec)
			a := sendJSON(t, srv, "PUT", "/applications/"+srv.AppID+"/guilds/"+srv.GuildID+"/commands",
				`[{"name":"tournament","description":"Events","options":[`+tc.options+`]}]`)
			rec.finish()
			if tc.field == "" {
				if a.Status != 200 || len(rec.errs) != 0 {
					t.Fatalf("refused: %+v %q", a, rec.errs)
				}
				return
			}
			if a.Status != 400 || a.Code != 50035 || !strings.Contains(string(a.Errors), tc.field) {
				t.Fatalf("answer %d %d %s, want 50035 naming %s", a.Status, a.Code, a.Errors, tc.field)
			}
		})
	}
}

// fatalRecorder is a testing.TB whose Fatalf records the message and
// ends the goroutine, as testing's does.
type fatalRecorder struct {
	testing.TB
	mu    sync.Mutex
	fatal string
}

func (r *fatalRecorder) Helper() {}
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.fatal = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

// TestSubcommandInteractions: a command registered with subcommands
// arrives as exactly one of them, its options inside (Sub), as Discord
// sends it; the fake fails a test that sends a shape Discord never would.
// A subcommand the registration lacks is let through: a process of an
// older version may receive commands a newer one registered.
func TestSubcommandInteractions(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := open(t, srv, 0)
	_, err := dg.ApplicationCommandBulkOverwrite(srv.AppID, srv.GuildID, []*discordgo.ApplicationCommand{
		{Name: "tournament", Description: "Events", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "New event", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game", Required: true, Autocomplete: true},
			}},
			{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "admin", Description: "Manage", Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "remove", Description: "Remove a player"},
			}},
		}},
		{Name: "games", Description: "Your games"},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *discordgo.ApplicationCommandInteractionDataOption, 4)
	dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
		if d := ic.ApplicationCommandData(); len(d.Options) > 0 {
			got <- d.Options[0]
		} else {
			got <- nil
		}
	})
	// Sent as Discord sends them.
	srv.Slash("tournament", fakediscord.Sub("new", fakediscord.Str("game", "closure"))).Send(t)
	if o := <-got; o == nil || o.Type != discordgo.ApplicationCommandOptionSubCommand || o.Name != "new" || o.GetOption("game").StringValue() != "closure" {
		t.Errorf("subcommand arrived as %+v", o)
	}
	srv.Autocomplete("tournament", fakediscord.Sub("new", fakediscord.Focused(fakediscord.Str("game", "clo")))).Send(t)
	if o := <-got; o == nil || !o.GetOption("game").Focused {
		t.Errorf("autocomplete arrived as %+v", o)
	}
	srv.Slash("tournament", fakediscord.Group("admin", fakediscord.Sub("remove"))).Send(t)
	if o := <-got; o == nil || o.Type != discordgo.ApplicationCommandOptionSubCommandGroup || o.Options[0].Name != "remove" {
		t.Errorf("group arrived as %+v", o)
	}
	srv.Slash("tournament", fakediscord.Sub("renamed")).Send(t)
	if o := <-got; o == nil || o.Name != "renamed" {
		t.Errorf("an unregistered subcommand arrived as %+v", o)
	}

	for _, tc := range []struct {
		name    string
		command string
		opts    []fakediscord.Opt
		want    string // in the test's failure
	}{
		{"the bare command", "tournament", nil, "exactly one of them"},
		{"an option beside the subcommand", "tournament", []fakediscord.Opt{fakediscord.Sub("new"), fakediscord.Str("game", "x")}, "exactly one of them"},
		{"an option instead of a subcommand", "tournament", []fakediscord.Opt{fakediscord.Str("game", "x")}, "exactly one of them"},
		{"a group sent as a subcommand", "tournament", []fakediscord.Opt{fakediscord.Sub("admin")}, "registered as option type 2"},
		{"a group without its subcommand", "tournament", []fakediscord.Opt{fakediscord.Group("admin")}, "exactly one of them"},
		{"a subcommand of a command without any", "games", []fakediscord.Opt{fakediscord.Sub("new")}, "has none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &fatalRecorder{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				srv.Slash(tc.command, tc.opts...).Send(rec)
			}()
			<-done
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if !strings.Contains(rec.fatal, tc.want) {
				t.Errorf("the fake said %q, want it to fail the test with %q", rec.fatal, tc.want)
			}
		})
	}
}
