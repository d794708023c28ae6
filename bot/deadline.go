package bot

import (
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord takes an interaction's first answer within 3 s of when it made
// the interaction, and refuses it after ("Interactions must receive an
// initial response within 3 seconds of receipt"; see docs/testing.md).
// Those 3 s run on Discord's clock, from when the player clicked: an
// interaction that waited in a queue, or reached a process busy with
// something else, arrives with part of them spent. So the bot counts
// from the interaction's creation, which its id tells (a snowflake:
// milliseconds since the Discord epoch in its top 42 bits), not from
// when its handler began: a command defers once DeferAfter has passed
// since the interaction was made, at once when that is already past; an
// autocomplete answers with what is ready by AutocompleteBy after it.

// made is when Discord made interaction i, as its id says. An id that
// does not parse, or that lies in the future of now (this machine's clock
// behind Discord's), counts from now: the bot then waits no longer than
// it would have without the id.
func made(i *discordgo.Interaction, now time.Time) time.Time {
	t, err := discordgo.SnowflakeTimestamp(i.ID)
	if err != nil || t.After(now) {
		return now
	}
	return t
}

// untilDeferral is how long a command's answer may still wait for the
// command before the bot defers it: what is left of DeferAfter since the
// interaction was made (zero or less: defer at once), never more than
// DeferAfter.
func (b *Bot) untilDeferral(i *discordgo.Interaction) time.Duration {
	now := b.opt.Now()
	return min(b.opt.DeferAfter, made(i, now).Add(b.opt.DeferAfter).Sub(now))
}

// untilAutocomplete is how long an autocomplete may still wait for its
// choices: what is left of AutocompleteBy since it was made.
func (b *Bot) untilAutocomplete(i *discordgo.Interaction) time.Duration {
	now := b.opt.Now()
	return min(b.opt.AutocompleteBy, made(i, now).Add(b.opt.AutocompleteBy).Sub(now))
}
