package fakediscord

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

type interactionRec struct {
	id, token, appID   string
	typ                int
	name               string // command name or custom_id
	guildID, channelID string
	user               *discordgo.User
	componentMsgID     string
	obj                map[string]any
	dispatched         time.Time
	// dispatchedWall and offsetAtDispatch split the time an answer takes
	// into the fake's (Advance) and the machine's (answerAgeLocked).
	dispatchedWall   time.Time
	offsetAtDispatch time.Duration
	// created is when Discord made the interaction, the time in its id:
	// the 3 s to answer and the token's 15 minutes count from it. It is
	// dispatched, unless the interaction was sent Aged.
	created    time.Time
	acked      bool
	ackedAt    time.Time
	cbType     int
	cbData     map[string]any
	cbFiles    []File
	originalID string
	followups  []string
	// deferPending: answered with type 5 and neither edited nor followed
	// up yet; the first follow-up then edits the loading message.
	deferPending bool
	// answerLost: the callback was taken but its answer was replaced by an
	// injected fault, so a retry's 40060 is the bot's honest mistake.
	answerLost bool
}

// Opt is a command option in a dispatched interaction; build it with Str,
// Int, Num, Bool, UserOpt, Sub, Group and mark it with Focused.
type Opt = *discordgo.ApplicationCommandInteractionDataOption

// Str is a string option.
func Str(name, value string) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}

// Int is an integer option.
func Int(name string, value int64) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: value}
}

// Num is a number option.
func Num(name string, value float64) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionNumber, Value: value}
}

// Bool is a boolean option.
func Bool(name string, value bool) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: value}
}

// UserOpt is a user option (the user is added to data.resolved).
func UserOpt(name, userID string) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: userID}
}

// Sub is a subcommand with its options.
func Sub(name string, opts ...Opt) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}
}

// Group is a subcommand group.
func Group(name string, subs ...Opt) Opt {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommandGroup, Options: subs}
}

// Focused marks the option the user is typing in (autocomplete); value is
// what they typed so far.
func Focused(o Opt) Opt {
	o.Focused = true
	return o
}

// InteractionBuilder describes an interaction to dispatch; finish with Send.
type InteractionBuilder struct {
	s         *Server
	typ       discordgo.InteractionType
	data      map[string]any
	name      string
	guildID   string
	channelID string
	dm        bool
	user      *discordgo.User
	messageID string
	locale    string
	perms     *int64 // the member's permissions; nil: AllPermissions
	age       time.Duration
}

func (s *Server) builder(typ discordgo.InteractionType, name string, data map[string]any) *InteractionBuilder {
	return &InteractionBuilder{s: s, typ: typ, name: name, data: data, guildID: s.GuildID, channelID: s.ChannelID, user: s.User, locale: "en-US"}
}

func optionsJSON(opts []Opt) []any {
	out := []any{}
	for _, o := range opts {
		m := map[string]any{"name": o.Name, "type": int(o.Type)}
		if o.Value != nil {
			m["value"] = o.Value
		}
		if len(o.Options) > 0 || o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			m["options"] = optionsJSON(o.Options)
		}
		if o.Focused {
			m["focused"] = true
		}
		out = append(out, m)
	}
	return out
}

func userOptions(opts []Opt, into map[string]bool) {
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionUser {
			if id, ok := o.Value.(string); ok {
				into[id] = true
			}
		}
		userOptions(o.Options, into)
	}
}

// Slash builds a chat-input (slash) command interaction. If the command was
// registered, its id is used.
func (s *Server) Slash(name string, opts ...Opt) *InteractionBuilder {
	b := s.builder(discordgo.InteractionApplicationCommand, name, nil)
	b.data = map[string]any{"name": name, "type": 1, "options": optionsJSON(opts)}
	users := map[string]bool{}
	userOptions(opts, users)
	if len(users) > 0 {
		s.mu.Lock()
		ru, rm := map[string]any{}, map[string]any{}
		for id := range users {
			if u, ok := s.st.users[id]; ok {
				ru[id] = userJSON(u)
				mem := memberJSON(u, time.Now())
				delete(mem, "user")
				rm[id] = mem
			}
		}
		s.mu.Unlock()
		b.data["resolved"] = map[string]any{"users": ru, "members": rm}
	}
	return b
}

// Autocomplete builds an autocomplete interaction for a command; exactly one
// option should be wrapped in Focused.
func (s *Server) Autocomplete(name string, opts ...Opt) *InteractionBuilder {
	b := s.Slash(name, opts...)
	b.typ = discordgo.InteractionApplicationCommandAutocomplete
	return b
}

// Button builds a button click. By default it clicks the newest message that
// has a component with this custom_id (and uses its channel); use OnMessage
// to choose the message.
func (s *Server) Button(customID string) *InteractionBuilder {
	return s.builder(discordgo.InteractionMessageComponent, customID,
		map[string]any{"custom_id": customID, "component_type": int(discordgo.ButtonComponent)})
}

// SelectMenu builds a string select menu choice (see Button for the message).
func (s *Server) SelectMenu(customID string, values ...string) *InteractionBuilder {
	return s.builder(discordgo.InteractionMessageComponent, customID,
		map[string]any{"custom_id": customID, "component_type": int(discordgo.SelectMenuComponent), "values": values})
}

// ModalSubmit builds a modal submission with text input values by custom_id.
func (s *Server) ModalSubmit(customID string, fields map[string]string) *InteractionBuilder {
	var rows []any
	for id, v := range fields {
		rows = append(rows, map[string]any{"type": 1, "components": []any{
			map[string]any{"type": 4, "custom_id": id, "value": v},
		}})
	}
	return s.builder(discordgo.InteractionModalSubmit, customID, map[string]any{"custom_id": customID, "components": rows})
}

// By sets the user who interacts (default: the server's User).
func (b *InteractionBuilder) By(u *discordgo.User) *InteractionBuilder {
	b.user = u
	return b
}

// In sets the guild and channel (default: the server's GuildID and ChannelID).
// Unknown channels are created.
func (b *InteractionBuilder) In(guildID, channelID string) *InteractionBuilder {
	b.guildID, b.channelID, b.dm = guildID, channelID, false
	return b
}

// InDM sends the interaction from the user's DM channel with the bot.
func (b *InteractionBuilder) InDM() *InteractionBuilder {
	b.dm, b.guildID = true, ""
	return b
}

// OnMessage sets the message a component belongs to.
func (b *InteractionBuilder) OnMessage(messageID string) *InteractionBuilder {
	b.messageID = messageID
	return b
}

// Permissions sets the interacting member's permissions in the channel
// (the interaction's member.permissions; default AllPermissions), e.g.
// AllPermissions &^ 0x20 for a member without Manage Server.
func (b *InteractionBuilder) Permissions(p int64) *InteractionBuilder {
	b.perms = &p
	return b
}

// Locale sets the user's locale (default en-US).
func (b *InteractionBuilder) Locale(l string) *InteractionBuilder {
	b.locale = l
	return b
}

// Aged makes the interaction reach the bot d after Discord made it (its
// id is stamped d before it is dispatched), as one that waited in
// Discord's queue or in a busy process's: its 3 s to answer are what is
// left of them.
func (b *InteractionBuilder) Aged(d time.Duration) *InteractionBuilder {
	b.age = d
	return b
}

// Sent is a dispatched interaction.
type Sent struct {
	s           *Server
	ID          string
	Token       string
	Interaction *discordgo.Interaction // as the bot decodes it
}

// Send dispatches the interaction as INTERACTION_CREATE. It waits (up to
// DefaultTimeout) for a gateway session covering the guild, and fails the
// test if there is none. The answer deadline starts now. With an
// Interactions Endpoint URL (SetInteractionsEndpoint) it POSTs the
// interaction there instead.
func (b *InteractionBuilder) Send(t testing.TB) *Sent {
	t.Helper()
	s := b.s
	guild := b.guildID
	if b.dm {
		guild = ""
	}
	if !s.httpInteractions() && !s.waitUntil(0, func() bool { return s.gw.liveSessionLocked(guild) }) {
		t.Fatalf("fakediscord: no gateway session to send the interaction to (did the bot Open()?)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := &interactionRec{
		id: s.ids.next(), token: interactionToken(), appID: s.AppID, typ: int(b.typ),
		name: b.name, guildID: guild, user: b.user, created: s.nowLocked(),
	}
	if b.age > 0 {
		rec.created = rec.created.Add(-b.age)
		rec.id = s.ids.at(rec.created)
	}
	var channel *discordgo.Channel
	data := b.data
	if b.typ == discordgo.InteractionMessageComponent {
		mid := b.messageID
		if mid == "" {
			mid = s.findComponentLocked(b.name)
		}
		if m, ok := s.st.messages[mid]; ok {
			rec.componentMsgID = mid
			if ch, ok := s.st.channels[m.obj["channel_id"].(string)]; ok && !b.dm {
				channel = ch
				rec.guildID = ch.GuildID
			}
		}
	}
	if b.typ == discordgo.InteractionApplicationCommand || b.typ == discordgo.InteractionApplicationCommandAutocomplete {
		data = map[string]any{}
		for k, v := range b.data {
			data[k] = v
		}
		data["id"] = s.commandIDLocked(rec.guildID, b.name)
		context := 0
		if rec.guildID == "" {
			context = 1
		}
		if cmd := s.commandLocked(rec.guildID, b.name); cmd != nil && !offeredIn(cmd, context) {
			t.Fatalf("fakediscord: Discord does not offer /%s in this context (%d); see the command's contexts", b.name, context)
		} else if cmd != nil {
			if why := invocationShape(list(cmd["options"]), list(data["options"])); why != "" {
				t.Fatalf("fakediscord: Discord would not send this /%s: %s", b.name, why)
			}
		}
		if rec.guildID != "" {
			data["guild_id"] = rec.guildID
		}
	}
	if channel == nil {
		if b.dm {
			channel = s.dmChannelLocked(b.user)
		} else {
			channel = s.ensureChannelLocked(rec.guildID, b.channelID)
		}
	}
	rec.channelID = channel.ID
	if m := s.threadLocked(channel.ID); m != nil && m.archived {
		// "Users cannot edit messages, add reactions, use application
		// commands, or join archived threads" (topics/threads.mdx).
		t.Fatalf("fakediscord: nobody can use an interaction in the archived thread %s", channel.ID)
	}
	o := map[string]any{
		"id":                             rec.id,
		"application_id":                 rec.appID,
		"type":                           rec.typ,
		"data":                           data,
		"channel_id":                     channel.ID,
		"channel":                        s.channelJSONLocked(channel),
		"token":                          rec.token,
		"version":                        1,
		"locale":                         b.locale,
		"app_permissions":                strconv.FormatInt(s.permsLocked(channel.ID), 10),
		"entitlements":                   []any{},
		"authorizing_integration_owners": map[string]any{"0": rec.guildID},
	}
	if rec.guildID != "" {
		o["guild_id"] = rec.guildID
		o["guild_locale"] = "en-US"
		member := memberJSON(b.user, time.Now())
		if b.perms != nil {
			member["permissions"] = strconv.FormatInt(*b.perms, 10)
		}
		o["member"] = member
		o["context"] = 0
	} else {
		o["user"] = userJSON(b.user)
		o["context"] = 1
		o["authorizing_integration_owners"] = map[string]any{"1": b.user.ID}
	}
	if rec.componentMsgID != "" {
		o["message"] = s.st.messages[rec.componentMsgID].obj
	}
	rec.obj = o
	rec.dispatched = s.nowLocked()
	rec.dispatchedWall, rec.offsetAtDispatch = time.Now(), s.offset
	s.st.interactions[rec.id] = rec
	s.st.byToken[rec.token] = rec
	if !s.deliverLocked(rec, o) { // an Interactions Endpoint URL takes them all (webhook.go)
		s.gw.dispatchLocked("INTERACTION_CREATE", rec.guildID, 0, func(*gwSession) any { return o })
	}
	s.notify()
	raw, _ := json.Marshal(o)
	var di discordgo.Interaction
	if err := json.Unmarshal(raw, &di); err != nil {
		t.Fatalf("fakediscord: interaction does not decode: %v", err)
	}
	return &Sent{s: s, ID: rec.id, Token: rec.token, Interaction: &di}
}

// invocationShape checks that an interaction's options have the shape
// of the registered command's: a command with subcommands (or groups) is
// sent as exactly one of them, a group as exactly one of its
// subcommands, and the options a player gives are inside
// (interactions/application-commands.mdx: "Using subcommands or subcommand
// groups will make your base command unusable"; Subcommands and
// Subcommand Groups, whose example interaction carries the subcommand as
// the only option). A subcommand's name the registration lacks is let
// through: a process of an older version may answer for commands a newer
// one registered, and the bot's refusal is tested with it. It returns
// what is wrong, or "".
func invocationShape(registered, sent []any) string {
	nests := func(o any) bool { t := num(obj(o)["type"]); return t == subCommand || t == subCommandGroup }
	hasSubs := false
	for _, r := range registered {
		hasSubs = hasSubs || nests(r)
	}
	if !hasSubs {
		for _, o := range sent {
			if nests(o) {
				return fmt.Sprintf("%q is a subcommand, and the command has none", obj(o)["name"])
			}
		}
		return ""
	}
	if len(sent) != 1 || !nests(sent[0]) {
		return "a command with subcommands is sent as exactly one of them (Sub(name, options...))"
	}
	sub := obj(sent[0])
	for _, r := range registered {
		if ro := obj(r); ro["name"] == sub["name"] {
			if num(ro["type"]) != num(sub["type"]) {
				return fmt.Sprintf("%q is registered as option type %d, sent as %d", sub["name"], num(ro["type"]), num(sub["type"]))
			}
			return invocationShape(list(ro["options"]), list(sub["options"]))
		}
	}
	return ""
}

func interactionToken() string {
	b := make([]byte, 48)
	_, _ = rand.Read(b)
	return "aW50ZXJhY3Rpb246" + base64.RawURLEncoding.EncodeToString(b)
}

// commandLocked is a registered command by name (guild first, then global).
func (s *Server) commandLocked(guildID, name string) map[string]any {
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.st.commands[scope] {
			if c["name"] == name {
				return c
			}
		}
	}
	return nil
}

func (s *Server) commandIDLocked(guildID, name string) string {
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.st.commands[scope] {
			if c["name"] == name {
				id, _ := c["id"].(string)
				return id
			}
		}
	}
	return s.ids.next()
}

// findComponentLocked returns the newest message with a component custom_id
// (snowflake ids grow with time).
func (s *Server) findComponentLocked(customID string) string {
	best, bestN := "", uint64(0)
	for id, m := range s.st.messages {
		if hasCustomID(list(m.obj["components"]), customID) {
			if n, _ := strconv.ParseUint(id, 10, 64); best == "" || n > bestN {
				best, bestN = id, n
			}
		}
	}
	return best
}

func hasCustomID(comps []any, id string) bool {
	for _, c := range comps {
		m := obj(c)
		if m["custom_id"] == id || hasCustomID(list(m["components"]), id) {
			return true
		}
	}
	return false
}

// InteractionResponse is what the bot did with an interaction so far.
type InteractionResponse struct {
	ID           string
	DispatchedAt time.Time
	Acknowledged bool
	AckedAt      time.Time
	// Latency is the time from dispatch to the accepted callback.
	Latency time.Duration
	// Type is the callback type (4 message, 5 deferred, 6 deferred update,
	// 7 update, 8 autocomplete result, 9 modal).
	Type discordgo.InteractionResponseType
	// Data is the callback's data, decoded (Choices for autocomplete).
	Data *discordgo.InteractionResponseData
	// DataJSON is the callback's raw data object.
	DataJSON json.RawMessage
	// Files are the files uploaded with the callback.
	Files []File
	// Original is the current @original message (nil if none).
	Original *Message
	// Followups are the follow-up messages, in order.
	Followups []*Message
}

func (s *Server) responseLocked(rec *interactionRec) InteractionResponse {
	r := InteractionResponse{ID: rec.id, DispatchedAt: rec.dispatched, Acknowledged: rec.acked, AckedAt: rec.ackedAt,
		Type: discordgo.InteractionResponseType(rec.cbType), Files: append([]File(nil), rec.cbFiles...)}
	if rec.acked {
		r.Latency = rec.ackedAt.Sub(rec.dispatched)
		raw, _ := json.Marshal(rec.cbData)
		r.DataJSON = raw
		r.Data = decodeResponseData(rec.cbData)
	}
	if m, ok := s.st.messages[rec.originalID]; ok {
		r.Original = m.snapshot()
	}
	for _, id := range rec.followups {
		if m, ok := s.st.messages[id]; ok {
			r.Followups = append(r.Followups, m.snapshot())
		}
	}
	return r
}

// InteractionResponse returns what the bot did with an interaction so far.
func (s *Server) InteractionResponse(id string) (InteractionResponse, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.st.interactions[id]
	if !ok {
		return InteractionResponse{}, false
	}
	return s.responseLocked(rec), true
}

// WaitInteraction waits until the interaction's state satisfies match (nil:
// acknowledged) and returns it; it fails the test after the timeout.
func (s *Server) WaitInteraction(t testing.TB, id string, match func(InteractionResponse) bool, timeout time.Duration) InteractionResponse {
	t.Helper()
	if match == nil {
		match = func(r InteractionResponse) bool { return r.Acknowledged }
	}
	var r InteractionResponse
	if !s.waitUntil(timeout, func() bool {
		rec, ok := s.st.interactions[id]
		if !ok {
			return false
		}
		r = s.responseLocked(rec)
		return match(r)
	}) {
		t.Fatalf("fakediscord: interaction %s: condition not met within %v (state %+v); requests:\n%s", id, orDefault(timeout), r, s.requestList())
	}
	return r
}

// Response waits until the bot acknowledged the interaction and returns it.
func (x *Sent) Response(t testing.TB) InteractionResponse {
	t.Helper()
	return x.s.WaitInteraction(t, x.ID, nil, 0)
}

// Wait waits until the interaction's state satisfies match.
func (x *Sent) Wait(t testing.TB, match func(InteractionResponse) bool) InteractionResponse {
	t.Helper()
	return x.s.WaitInteraction(t, x.ID, match, 0)
}

// UserMessage makes a user post a message in a channel (default guild
// channel if channelID is "") and dispatches MESSAGE_CREATE to the bot
// (subject to intents: content is empty without MESSAGE_CONTENT, unless the
// bot is mentioned or it is a DM). It returns the stored message.
func (s *Server) UserMessage(u *discordgo.User, channelID, content string) *Message {
	if u == nil {
		u = s.User
	}
	if channelID == "" {
		channelID = s.ChannelID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureChannelLocked(s.GuildID, channelID)
	p := map[string]any{"content": content}
	mentions := []any{}
	if containsMention(content, s.Bot.ID) {
		mentions = append(mentions, userJSON(s.Bot))
	}
	m := s.newMessageLocked(channelID, u, p, nil, map[string]any{"mentions": mentions})
	// newMessageLocked dispatched already; mentions were set via extra.
	s.notify()
	return m.snapshot()
}

// UserDM makes a user post a message in their DM channel with the bot.
func (s *Server) UserDM(u *discordgo.User, content string) *Message {
	if u == nil {
		u = s.User
	}
	s.mu.Lock()
	ch := s.dmChannelLocked(u)
	s.mu.Unlock()
	return s.UserMessage(u, ch.ID, content)
}

func containsMention(content, id string) bool {
	for _, p := range []string{"<@" + id + ">", "<@!" + id + ">"} {
		if len(content) >= len(p) {
			for i := 0; i+len(p) <= len(content); i++ {
				if content[i:i+len(p)] == p {
					return true
				}
			}
		}
	}
	return false
}

// decodeResponseData decodes a callback's data. discordgo's
// InteractionResponseData cannot unmarshal its Components (an interface
// slice), so they are decoded one by one with MessageComponentFromJSON.
func decodeResponseData(data map[string]any) *discordgo.InteractionResponseData {
	rest := make(map[string]any, len(data))
	for k, v := range data {
		if k != "components" {
			rest[k] = v
		}
	}
	raw, _ := json.Marshal(rest)
	var d discordgo.InteractionResponseData
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	if comps, ok := data["components"].([]any); ok {
		for _, c := range comps {
			b, _ := json.Marshal(c)
			if mc, err := discordgo.MessageComponentFromJSON(b); err == nil {
				d.Components = append(d.Components, mc)
			}
		}
	}
	return &d
}
