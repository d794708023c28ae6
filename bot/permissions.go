package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// permission is one the bot needs where a game is played, with the name a
// server owner sees in Discord's settings.
type permission struct {
	bit  int64
	name string
}

// needed are the permissions a game needs in its channel: to see it, post
// the challenge and the boards, find its own earlier posts (Read Message
// History: a post is looked for before it is sent again), and make the
// game's thread and post in it. Plain-text moves also need reactions.
func (b *Bot) needed() []permission {
	need := []permission{
		{discordgo.PermissionViewChannel, "View Channel"},
		{discordgo.PermissionSendMessages, "Send Messages"},
		{discordgo.PermissionAttachFiles, "Attach Files"},
		{discordgo.PermissionReadMessageHistory, "Read Message History"},
	}
	if b.svc.Threads() {
		need = append(need,
			permission{discordgo.PermissionCreatePublicThreads, "Create Public Threads"},
			permission{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"})
	}
	if b.plainText() {
		need = append(need, permission{discordgo.PermissionAddReactions, "Add Reactions"})
	}
	return need
}

// missingPermissions says, in words a server owner can act on, what the
// bot lacks in the interaction's channel to run a game there ("" if
// nothing). app_permissions are the bot's permissions in that channel.
func (b *Bot) missingPermissions(i *discordgo.Interaction) string {
	if i.GuildID == "" {
		return ""
	}
	var missing []string
	for _, p := range b.needed() {
		if i.AppPermissions&p.bit == 0 {
			missing = append(missing, p.name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	list := strings.Join(missing, ", ")
	if n := len(missing); n > 1 {
		list = strings.Join(missing[:n-1], ", ") + " and " + missing[n-1]
	}
	return "I cannot run a game here: I need " + list + " in <#" + i.ChannelID + ">. " +
		"A server admin can give me these (Server Settings → Roles, or the channel's Permissions); then challenge again."
}

// onChannelUpdate and onRoleUpdate retry at once what waits for a permission: a
// channel's overwrites or a role changed, which may have given it back.
// A gateway event has no context of its own: each starts one.
func (b *Bot) onChannelUpdate(_ *discordgo.Session, _ *discordgo.ChannelUpdate) {
	b.svc.RetryWaiting(context.Background())
}
func (b *Bot) onRoleUpdate(_ *discordgo.Session, _ *discordgo.GuildRoleUpdate) {
	b.svc.RetryWaiting(context.Background())
}
