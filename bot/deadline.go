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
	t := made(i, now)
	b.warnIfOld(now.Sub(t))
	return min(b.opt.DeferAfter, t.Add(b.opt.DeferAfter).Sub(now))
}

// untilAutocomplete is how long an autocomplete may still wait for its
// choices: what is left of AutocompleteBy since it was made.
func (b *Bot) untilAutocomplete(i *discordgo.Interaction) time.Duration {
	now := b.opt.Now()
	t := made(i, now)
	b.warnIfOld(now.Sub(t))
	return min(b.opt.AutocompleteBy, t.Add(b.opt.AutocompleteBy).Sub(now))
}

// interactionWindow is Discord's time for an interaction's first answer.
const interactionWindow = 3 * time.Second

// warnIfOld logs, at most once a minute, an interaction that arrived with
// Discord's 3 s already spent: the process is overloaded, or this
// machine's clock runs ahead of Discord's (then every interaction looks
// old: each is deferred at once, and autocompletes answer with nothing).
func (b *Bot) warnIfOld(age time.Duration) {
	if age <= interactionWindow {
		return
	}
	now := time.Now().UnixNano()
	last := b.oldWarned.Load()
	if now-last < int64(time.Minute) || !b.oldWarned.CompareAndSwap(last, now) {
		return
	}
	b.log.Warn("an interaction arrived after Discord's 3 s to answer it had passed: is the bot overloaded, or is this machine's clock ahead of Discord's (check NTP)?", "age", age.Round(time.Millisecond))
}
