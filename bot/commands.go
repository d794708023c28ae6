package bot

import (
	"github.com/bwmarrin/discordgo"

	"tessera/service"
)

func gameOption(required bool) *discordgo.ApplicationCommandOption {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, g := range service.GameIDs() {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: g.Name, Value: g.Value})
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which game", Required: required, Choices: choices}
}

// gameRef is the optional game: option of commands about one game.
var gameRef = &discordgo.ApplicationCommandOption{
	Type: discordgo.ApplicationCommandOptionString, Name: "game", Autocomplete: true,
	Description: "Which of your games (needed only when this channel has several)",
}

// Where commands are offered (contexts and integration_types replace the
// deprecated dm_permission): the bot is installed to servers; a challenge
// needs a server channel, everything else works in the bot's direct
// messages too (a game whose channel was deleted goes on there).
var (
	guildOnly = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	anywhere  = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	guildApp  = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
)

// Commands are the slash commands the bot registers.
func Commands() []*discordgo.ApplicationCommand {
	cmds := commands()
	for _, c := range cmds {
		c.IntegrationTypes = guildApp
		if c.Contexts == nil {
			c.Contexts = anywhere
		}
	}
	return cmds
}

func commands() []*discordgo.ApplicationCommand {
	one := 1.0
	return []*discordgo.ApplicationCommand{
		{Name: "new", Description: "Challenge people to a game", Contexts: guildOnly, Options: []*discordgo.ApplicationCommandOption{
			gameOption(true),
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who you challenge (name me to play the computer); leave out for an open challenge"},
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent2", Description: "A second opponent (games for 3+)"},
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent3", Description: "A third opponent (games for 4)"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "options", Description: "Game options, e.g. borders=RBGY (see /rules)", MaxLength: 200},
			{Type: discordgo.ApplicationCommandOptionString, Name: "clock", Description: "Time control: 3d (days per move), bank=7d,inc=1d,cap=14d, or none", MaxLength: 60},
			{Type: discordgo.ApplicationCommandOptionString, Name: "level", Description: "When you challenge me: how strong I play (default normal)", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "easy", Value: "easy"}, {Name: "normal", Value: "normal"}, {Name: "hard", Value: "hard"}}},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "seats", Description: "Players of an open challenge (default the game's fewest)", MinValue: &one, MaxValue: 4},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Whether the game changes ratings (default true; games against me never do)"},
		}},
		{Name: "move", Description: "Make your move (the list shows your legal moves)", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "notation", Description: "Your move, e.g. d5 RGBY; start typing to see the legal moves", Required: true, Autocomplete: true, MaxLength: 200},
			gameRef,
		}},
		{Name: "puzzle", Description: "Play a Knotwork puzzle alone: fit all 25 tiles into 5x5 (easy) or make one knot (hard)", Contexts: guildOnly, Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "level", Description: "easy (fit all 25 tiles) or hard (one single knot); default easy", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "easy", Value: "easy"}, {Name: "hard", Value: "hard"}}},
		}},
		{Name: "hint", Description: "A tile of a solution from your puzzle's position (only you see it)", Options: []*discordgo.ApplicationCommandOption{gameRef}},
		{Name: "hand", Description: "See your hand (only you see it)", Options: []*discordgo.ApplicationCommandOption{gameRef}},
		{Name: "board", Description: "Show a game's board again", Options: []*discordgo.ApplicationCommandOption{gameRef}},
		{Name: "games", Description: "Your games and whose turn it is"},
		{Name: "resign", Description: "Resign a game (asks to confirm)", Options: []*discordgo.ApplicationCommandOption{gameRef}},
		{Name: "rules", Description: "A game's rules and move notation", Options: []*discordgo.ApplicationCommandOption{gameOption(true)}},
		{Name: "abort", Description: "End a game without result (only before its second move)", Options: []*discordgo.ApplicationCommandOption{gameRef}},
		{Name: "challenges", Description: "The open challenges of this server, to join"},
		{Name: "history", Description: "Finished games, newest first", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose games (default yours)"},
			gameOption(false),
		}},
		{Name: "leaderboard", Description: "The best players of a game in this server, as a picture", Options: []*discordgo.ApplicationCommandOption{gameOption(true)}},
		{Name: "profile", Description: "A player's ratings, records and games, as a picture", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose profile (default yours)"},
		}},
		{Name: "export", Description: "The record of a finished game, as files to keep", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Autocomplete: true, Required: true, Description: "Which finished game"},
		}},
		{Name: "replay", Description: "A game as an animated picture, one frame per move", Options: []*discordgo.ApplicationCommandOption{
			gameRef,
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "from", Description: "First move to show (default the first)", MinValue: &one, MaxValue: 10000},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "to", Description: "Last move to show (default the last)", MinValue: &one, MaxValue: 10000},
		}},
		{Name: "vacation", Description: "Pause your clocks in all your games", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "days", Description: "How many days you are away", Required: true, MinValue: &one, MaxValue: 366},
		}},
		{Name: "settings", Description: "Your settings: turn notices by direct message, time zone", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "notify", Description: "Direct message when it is your turn", Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "on", Value: "on"}, {Name: "off", Value: "off"}}},
			{Type: discordgo.ApplicationCommandOptionString, Name: "timezone", Description: "Your time zone, e.g. Europe/Paris", MaxLength: 64},
		}},
	}
}
