package fakediscord

import (
	"time"

	"github.com/bwmarrin/discordgo"
)

// What real servers do to a bot over weeks of slow play, each switched on
// per test: the fake's own clock (archiving, nonce memory), the bot's
// permissions per channel, deleted channels, threads and messages, locked
// and archived threads, and a reset token. The refusals these cause are
// Discord's documented answers; they are not violations (the test caused
// them), but everything else about the requests is still checked.

// DefaultNonceWindow is how long the fake remembers a message nonce for
// enforce_nonce. Discord checks uniqueness "in the past few minutes"
// (resources/message.mdx, Create Message); the fake forgets after three.
const DefaultNonceWindow = 3 * time.Minute

// WithNonceWindow sets how long enforce_nonce remembers a nonce on the
// fake's clock (default DefaultNonceWindow).
func WithNonceWindow(d time.Duration) Option {
	return func(c *config) { c.nonceWindow = d }
}

// threadMeta is a thread's thread_metadata, on the fake's clock.
type threadMeta struct {
	autoArchive  time.Duration
	lastActivity time.Time
	archived     bool
	locked       bool
}

// now is the fake's clock: the wall clock moved on by Advance. Message
// timestamps, nonce memory and thread archiving follow it; interaction
// deadlines and token lifetimes stay on the wall clock (a test cannot
// advance a request in flight). Call with s.mu held.
func (s *Server) nowLocked() time.Time { return time.Now().Add(s.offset) }

// Now is the fake Discord's current time.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nowLocked()
}

// Advance moves the fake's clock on by d: threads idle longer than their
// auto_archive_duration archive, and nonces older than the nonce window
// are forgotten.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offset += d
	s.ids.advance(d)
	s.notify()
}

// AllPermissions is what the bot may do where nothing was restricted:
// everything a member may do (as the fake's @everyone role), but not
// moderate (no MANAGE_THREADS: a locked thread is closed to it).
const AllPermissions int64 = 2248473465835073

// SetBotPermissions sets the bot's computed permissions in a channel (a
// thread without its own setting inherits its parent's). They are sent as
// the interactions' app_permissions and enforced on the bot's requests.
func (s *Server) SetBotPermissions(channelID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.perms[channelID] = perms
	if ch, ok := s.st.channels[channelID]; ok {
		// Discord tells the bot its permissions changed (an overwrite edit).
		s.gw.dispatchLocked("CHANNEL_UPDATE", ch.GuildID, discordgo.IntentGuilds, func(*gwSession) any { return channelJSON(ch) })
	}
	s.notify()
}

// DenyBot removes permissions from the bot in a channel.
func (s *Server) DenyBot(channelID string, perms int64) {
	s.SetBotPermissions(channelID, s.BotPermissions(channelID)&^perms)
}

// BotPermissions are the bot's permissions in a channel or thread.
func (s *Server) BotPermissions(channelID string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.permsLocked(channelID)
}

func (s *Server) permsLocked(channelID string) int64 {
	if p, ok := s.st.perms[channelID]; ok {
		return p
	}
	if ch, ok := s.st.channels[channelID]; ok && ch.ParentID != "" {
		if p, ok := s.st.perms[ch.ParentID]; ok {
			return p
		}
	}
	return AllPermissions
}

// DeleteChannel deletes a channel or thread (a channel's threads and all
// their messages go with it). Requests about it then get 10003 Unknown
// Channel.
func (s *Server) DeleteChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for cid, ch := range s.st.channels {
		if cid == id || ch.ParentID == id {
			ids = append(ids, cid)
		}
	}
	for _, cid := range ids {
		ch := s.st.channels[cid]
		for _, mid := range s.st.chanMsgs[cid] {
			delete(s.st.messages, mid)
		}
		delete(s.st.chanMsgs, cid)
		delete(s.st.channels, cid)
		s.st.deleted[cid] = true
		delete(s.st.threads, cid)
		event := "CHANNEL_DELETE"
		if ch.IsThread() {
			event = "THREAD_DELETE"
		}
		s.gw.dispatchLocked(event, ch.GuildID, discordgo.IntentGuilds, func(*gwSession) any { return channelJSON(ch) })
	}
	s.notify()
}

// DeleteMessage deletes a message (as a moderator would); the bot's later
// edits of it get 10008 Unknown Message.
func (s *Server) DeleteMessage(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleteMessageLocked(id)
	s.st.deleted[id] = true
	s.notify()
}

// LockThread locks a thread: without MANAGE_THREADS the bot can no longer
// create or edit messages in it (160005 Thread is locked), nor unarchive it.
func (s *Server) LockThread(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.st.threads[id]; m != nil {
		m.locked = true
	}
	s.notify()
}

// ArchiveThread archives a thread now (as a moderator, or the auto-archive
// timer, would).
func (s *Server) ArchiveThread(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.st.threads[id]; m != nil {
		m.archived = true
	}
	s.notify()
}

// ThreadState reports whether a thread is archived and locked now.
func (s *Server) ThreadState(id string) (archived, locked bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.threadLocked(id)
	if m == nil {
		return false, false
	}
	return m.archived, m.locked
}

// threadLocked returns a thread's metadata with the auto-archive timer
// applied (nil for a channel that is not a thread).
func (s *Server) threadLocked(id string) *threadMeta {
	m := s.st.threads[id]
	if m != nil && !m.archived && m.autoArchive > 0 && s.nowLocked().Sub(m.lastActivity) >= m.autoArchive {
		m.archived = true
	}
	return m
}

// ResetToken replaces the bot's token, as "Reset Token" in the developer
// portal does: every REST request with the old one gets 401, the gateway
// closes its connections with 4004 Authentication failed and refuses
// IDENTIFY and RESUME with the old token.
func (s *Server) ResetToken(newToken string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.token = newToken
	s.tokenReset = true
	for c := range s.gw.conns {
		if !c.closed {
			s.gw.closeLocked(c, 4004, "Authentication failed.")
		}
	}
	s.notify()
}

// refuse answers one of Discord's documented refusals that the test
// switched on (a missing permission, a deleted channel, a locked thread):
// like fail, but not a violation.
func (c *call) refuse(status, code int, msg string) (int, any) {
	return status, map[string]any{"code": code, "message": msg}
}

// refused is refuse as a refusal a lookup returns.
func (c *call) refused(status, code int, msg string) *answer {
	st, b := c.refuse(status, code, msg)
	return &answer{st, b}
}

// guildChannel reports whether permissions apply (not a DM).
func guildChannel(ch *discordgo.Channel) bool { return ch.GuildID != "" }

// need refuses when the bot lacks VIEW_CHANNEL (50001 Missing Access) or any
// of perms (50013 Missing Permissions) in ch; ok is true when it may go on.
func (c *call) need(ch *discordgo.Channel, perms int64) *answer {
	if !guildChannel(ch) {
		return nil
	}
	have := c.s.permsLocked(ch.ID)
	if have&discordgo.PermissionViewChannel == 0 {
		return c.refused(403, 50001, "Missing Access")
	}
	if have&perms != perms {
		return c.refused(403, 50013, "Missing Permissions")
	}
	return nil
}

// sendPerm is the permission that lets the bot post in ch.
func sendPerm(ch *discordgo.Channel) int64 {
	if ch.IsThread() {
		return discordgo.PermissionSendMessagesInThreads
	}
	return discordgo.PermissionSendMessages
}

// threadGate applies a thread's state to an operation: create says whether
// it creates a message (which unarchives an archived, unlocked thread), as
// opposed to editing a message or reacting (refused in archived threads).
func (c *call) threadGate(ch *discordgo.Channel, create bool) *answer {
	m := c.s.threadLocked(ch.ID)
	if m == nil {
		return nil
	}
	mod := c.s.permsLocked(ch.ID)&discordgo.PermissionManageThreads != 0
	switch {
	case m.locked && m.archived && !mod:
		return c.refused(400, 50083, "Thread is archived")
	case m.locked && !mod:
		return c.refused(403, 160005, "Thread is locked")
	case m.archived && !create:
		return c.refused(400, 50083, "Thread is archived")
	}
	if create {
		c.s.touchThreadLocked(ch.ID, m)
	}
	return nil
}

// touchThreadLocked records activity: an archived thread unarchives.
func (s *Server) touchThreadLocked(id string, m *threadMeta) {
	m.lastActivity = s.nowLocked()
	if m.archived {
		m.archived = false
		ch := s.st.channels[id]
		s.gw.dispatchLocked("THREAD_UPDATE", ch.GuildID, discordgo.IntentGuilds, func(*gwSession) any { return s.channelJSONLocked(ch) })
	}
}

// channelJSONLocked is channelJSON with the thread's real metadata.
func (s *Server) channelJSONLocked(ch *discordgo.Channel) map[string]any {
	o := channelJSON(ch)
	if m := s.threadLocked(ch.ID); m != nil {
		o["thread_metadata"] = map[string]any{
			"archived":              m.archived,
			"auto_archive_duration": int(m.autoArchive / time.Minute),
			"archive_timestamp":     m.lastActivity.UTC().Format(time.RFC3339Nano),
			"locked":                m.locked,
		}
	}
	return o
}

// editChannel answers PATCH /channels/{id}; the fake supports unarchiving
// a thread (and archiving it, or changing auto_archive_duration).
func (c *call) editChannel() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	if no := c.need(ch, 0); no != nil {
		return no.reply()
	}
	m := c.s.threadLocked(ch.ID)
	if m == nil {
		return 200, c.s.channelJSONLocked(ch)
	}
	mod := c.s.permsLocked(ch.ID)&discordgo.PermissionManageThreads != 0
	if _, ok := c.body["locked"]; ok && !mod {
		return c.refuse(403, 50013, "Missing Permissions")
	}
	if v, ok := c.body["archived"].(bool); ok {
		if !v && m.archived {
			if m.locked && !mod {
				return c.refuse(403, 50013, "Missing Permissions")
			}
			c.s.touchThreadLocked(ch.ID, m)
		}
		if v {
			m.archived = true
		}
	}
	if d := num(c.body["auto_archive_duration"]); d != 0 {
		m.autoArchive = time.Duration(d) * time.Minute
		m.lastActivity = c.s.nowLocked()
	}
	return 200, c.s.channelJSONLocked(ch)
}
