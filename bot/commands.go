package bot

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"tessera/service"
)

// Where commands are offered (contexts and integration_types replace the
// deprecated dm_permission): the bot is installed to servers; a challenge
// needs a server channel, everything else works in the bot's direct
// messages too (a game whose channel was deleted goes on there).
var (
	guildOnly = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	anywhere  = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	guildApp  = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
)

// optionTypes are Discord's types of the service's option types.
var optionTypes = map[service.OptionType]discordgo.ApplicationCommandOptionType{
	service.StringOption:  discordgo.ApplicationCommandOptionString,
	service.IntegerOption: discordgo.ApplicationCommandOptionInteger,
	service.BooleanOption: discordgo.ApplicationCommandOptionBoolean,
	service.UserOption:    discordgo.ApplicationCommandOptionUser,
}

// Commands are the slash commands the bot registers: the service's table
// of commands in Discord's shape.
func Commands() []*discordgo.ApplicationCommand { return slashCommands(service.Commands()) }

// slashCommands are a table of commands in Discord's shape. A command with
// Subcommands registers them as its only options, SUB_COMMAND options
// each with its own (a subcommand that has subcommands of its own is a
// SUB_COMMAND_GROUP): Discord offers "/tournament new game: ..." and
// never the bare /tournament.
func slashCommands(table []service.Command) []*discordgo.ApplicationCommand {
	var cmds []*discordgo.ApplicationCommand
	for _, c := range table {
		dc := &discordgo.ApplicationCommand{Name: c.Name, Description: c.Description, IntegrationTypes: guildApp, Contexts: anywhere,
			Options: slashOptions(c)}
		if serverOnly(c) {
			dc.Contexts = guildOnly
		}
		cmds = append(cmds, dc)
	}
	return cmds
}

// serverOnly reports whether Discord should offer a command only in
// servers: it is InServer, or every one of its subcommands is. Contexts
// belong to the top-level command alone, so a command with some InServer
// subcommands is offered everywhere and those are refused in a direct
// message when they arrive (command).
func serverOnly(c service.Command) bool {
	if c.InServer || len(c.Subcommands) == 0 {
		return c.InServer
	}
	for _, sc := range c.Subcommands {
		if !serverOnly(sc) {
			return false
		}
	}
	return true
}

// slashOptions are a command's options, or its subcommands, in Discord's
// shape.
func slashOptions(c service.Command) []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, sc := range c.Subcommands {
		typ := discordgo.ApplicationCommandOptionSubCommand
		if len(sc.Subcommands) > 0 {
			typ = discordgo.ApplicationCommandOptionSubCommandGroup
		}
		out = append(out, &discordgo.ApplicationCommandOption{Type: typ, Name: sc.Name, Description: sc.Description, Options: slashOptions(sc)})
	}
	for _, o := range c.Options {
		out = append(out, slashOption(o))
	}
	return out
}

func slashOption(o service.Option) *discordgo.ApplicationCommandOption {
	do := &discordgo.ApplicationCommandOption{Type: optionTypes[o.Type], Name: o.Name, Description: o.Description,
		Required: o.Required, Autocomplete: o.Complete != nil, MinValue: o.MinValue, MaxValue: o.MaxValue, MaxLength: o.MaxLength}
	for _, ch := range o.Choices {
		do.Choices = append(do.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch.Name, Value: ch.Value})
	}
	return do
}

// An invocation is the command an interaction runs, its subcommand
// resolved: "/tournament new game:closure" is /tournament's subcommand
// new, whose options are those inside the interaction's SUB_COMMAND
// option.
type invocation struct {
	service.Command
	// Path is the command as the player typed it: "tournament new".
	Path string
	// Values are the values given for Command's options.
	Values []*discordgo.ApplicationCommandInteractionDataOption
	// ServerOnly: the subcommand or one of its parents is InServer.
	ServerOnly bool
}

// invoked resolves an interaction's command by the table, down to the
// subcommand it names. refusal, when set, is the short answer to an
// interaction naming no subcommand or one the table does not have (a
// process of an older version may still serve the commands a newer one
// registered).
func invoked(c service.Command, data discordgo.ApplicationCommandInteractionData) (inv invocation, refusal string) {
	inv = invocation{Command: c, Path: c.Name, Values: data.Options, ServerOnly: c.InServer}
	for len(inv.Subcommands) > 0 {
		var sub *discordgo.ApplicationCommandInteractionDataOption
		if len(inv.Values) == 1 && (inv.Values[0].Type == discordgo.ApplicationCommandOptionSubCommand ||
			inv.Values[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			sub = inv.Values[0]
		}
		var sc service.Command
		ok := false
		if sub != nil {
			sc, ok = inv.Sub(sub.Name)
		}
		if !ok {
			return invocation{}, "/" + inv.Path + " takes one of: " + subcommandList(inv.Command) + "."
		}
		inv = invocation{Command: sc, Path: inv.Path + " " + sc.Name, Values: sub.Options, ServerOnly: inv.ServerOnly || sc.InServer}
	}
	return inv, ""
}

// subcommandList names a command's subcommands for a refusal: "new,
// list, standings".
func subcommandList(c service.Command) string {
	var names []string
	for _, sc := range c.Subcommands {
		names = append(names, sc.Name)
	}
	return strings.Join(names, ", ")
}

// dataOption finds an option among an interaction's option values.
func dataOption(opts []*discordgo.ApplicationCommandInteractionDataOption, name string) *discordgo.ApplicationCommandInteractionDataOption {
	for _, o := range opts {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// args are an interaction's option values as the table declares them,
// users resolved to their names. refusal is set when an option names
// someone the command does not take (another bot).
func (b *Bot) args(inv invocation, data discordgo.ApplicationCommandInteractionData) (in service.Args, refusal string) {
	in = service.Args{}
	for _, o := range inv.Command.Options {
		do := dataOption(inv.Values, o.Name)
		if do == nil {
			continue
		}
		switch o.Type {
		case service.StringOption:
			if v, ok := do.Value.(string); ok {
				in[o.Name] = v
			}
		case service.IntegerOption:
			if v, ok := do.Value.(float64); ok && v >= -1e9 && v <= 1e9 {
				in[o.Name] = int(v)
			}
		case service.BooleanOption:
			if v, ok := do.Value.(bool); ok && do.Type == discordgo.ApplicationCommandOptionBoolean {
				in[o.Name] = v
			}
		case service.UserOption:
			id, _ := do.Value.(string)
			if data.Resolved != nil && o.NoBots {
				if du := data.Resolved.Users[id]; du != nil && du.Bot && id != b.svc.Bot().ID { // the bot itself is the AI
					return nil, du.Username + " is a bot; challenge people, or me to play the computer."
				}
			}
			in[o.Name] = service.User{ID: id, Name: resolvedName(data, id)}
		}
	}
	return in, ""
}
