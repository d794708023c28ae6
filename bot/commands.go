package bot

import (
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
func Commands() []*discordgo.ApplicationCommand {
	var cmds []*discordgo.ApplicationCommand
	for _, c := range service.Commands() {
		dc := &discordgo.ApplicationCommand{Name: c.Name, Description: c.Description, IntegrationTypes: guildApp, Contexts: anywhere}
		if c.InServer {
			dc.Contexts = guildOnly
		}
		for _, o := range c.Options {
			dc.Options = append(dc.Options, slashOption(o))
		}
		cmds = append(cmds, dc)
	}
	return cmds
}

func slashOption(o service.Option) *discordgo.ApplicationCommandOption {
	do := &discordgo.ApplicationCommandOption{Type: optionTypes[o.Type], Name: o.Name, Description: o.Description,
		Required: o.Required, Autocomplete: o.Complete != nil, MinValue: o.MinValue, MaxValue: o.MaxValue, MaxLength: o.MaxLength}
	for _, ch := range o.Choices {
		do.Choices = append(do.Choices, &discordgo.ApplicationCommandOptionChoice{Name: ch.Name, Value: ch.Value})
	}
	return do
}

// args are an interaction's option values as the table declares them,
// users resolved to their names. refusal is set when an option names
// someone the command does not take (another bot).
func (b *Bot) args(c service.Command, data discordgo.ApplicationCommandInteractionData) (in service.Args, refusal string) {
	in = service.Args{}
	for _, o := range c.Options {
		do := data.GetOption(o.Name)
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
