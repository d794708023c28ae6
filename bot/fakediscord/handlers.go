package fakediscord

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ---- gateway, users ----

func (c *call) getGateway() (int, any) {
	return 200, map[string]any{"url": c.s.GatewayURL()}
}

func (c *call) getMe() (int, any) { return 200, userJSON(c.s.Bot) }

func (c *call) getUser() (int, any) {
	u, ok := c.s.st.users[c.params["user"]]
	if !ok {
		return c.fail(404, 10013, "", "", "Unknown User")
	}
	return 200, userJSON(u)
}

func (c *call) createDM() (int, any) {
	rid, _ := c.body["recipient_id"].(string)
	u, ok := c.s.st.users[rid]
	if !ok {
		return c.fail(404, 10013, "recipient_id", "", "Unknown User")
	}
	return 200, channelJSON(c.s.dmChannelLocked(u))
}

func (c *call) getApplication() (int, any) {
	return 200, map[string]any{
		"id": c.s.AppID, "name": c.s.Bot.Username, "icon": nil, "description": "",
		"bot_public": true, "bot_require_code_grant": false, "flags": 0,
		"bot": userJSON(c.s.Bot), "owner": userJSON(c.s.User), "verify_key": randomHex(32),
	}
}

// ---- application commands ----

func (c *call) commandScope() (string, *answer) {
	if c.params["app"] != c.s.AppID {
		return "", c.failed(403, 50001, "", "", "Missing Access (application id "+c.params["app"]+" is not this bot's "+c.s.AppID+")")
	}
	g := c.params["guild"]
	if g != "" {
		if _, ok := c.s.st.guilds[g]; !ok {
			return "", c.failed(403, 50001, "", "", "Missing Access (the bot is not in guild "+g+")")
		}
	}
	return g, nil
}

func (c *call) listCommands() (int, any) {
	g, no := c.commandScope()
	if no != nil {
		return no.reply()
	}
	out := []any{}
	for _, cmd := range c.s.st.commands[g] {
		out = append(out, cmd)
	}
	return 200, out
}

func (c *call) storeCommand(g string, def map[string]any, existing []map[string]any) map[string]any {
	typ := num(def["type"])
	if typ == 0 {
		typ = 1
	}
	id := ""
	for _, old := range existing {
		if old["name"] == def["name"] && num(old["type"]) == typ {
			id, _ = old["id"].(string)
		}
	}
	if id == "" {
		id = c.s.ids.next()
	}
	cmd := map[string]any{}
	for k, v := range def {
		cmd[k] = v
	}
	cmd["id"] = id
	cmd["application_id"] = c.s.AppID
	cmd["type"] = typ
	cmd["version"] = c.s.ids.next()
	if _, ok := cmd["description"]; !ok {
		cmd["description"] = ""
	}
	if _, ok := cmd["default_member_permissions"]; !ok {
		cmd["default_member_permissions"] = nil
	}
	cmd["nsfw"] = false
	if g != "" {
		cmd["guild_id"] = g
	}
	return cmd
}

func (c *call) overwriteCommands() (int, any) {
	g, no := c.commandScope()
	if no != nil {
		return no.reply()
	}
	var defs []any
	if err := c.req.Decode(&defs); err != nil {
		return c.fail(400, 50035, "", "", "Invalid Form Body (expected a JSON array of commands)")
	}
	var e formErrors
	if len(defs) > 100 {
		e.add("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	names := map[string]bool{}
	for i, d := range defs {
		def := obj(d)
		validateCommand(&e, strconv.Itoa(i), def)
		key := fmt.Sprint(num(def["type"]), def["name"])
		if names[key] {
			e.add(strconv.Itoa(i)+".name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		names[key] = true
	}
	if !e.empty() {
		return c.invalidForm(&e)
	}
	old := c.s.st.commands[g]
	var cmds []map[string]any
	out := []any{}
	for _, d := range defs {
		cmd := c.storeCommand(g, obj(d), old)
		cmds = append(cmds, cmd)
		out = append(out, cmd)
	}
	c.s.st.commands[g] = cmds
	return 200, out
}

func (c *call) createCommand() (int, any) {
	g, no := c.commandScope()
	if no != nil {
		return no.reply()
	}
	var e formErrors
	validateCommand(&e, "_root", c.body)
	if !e.empty() {
		return c.invalidForm(&e)
	}
	old := c.s.st.commands[g]
	cmd := c.storeCommand(g, c.body, old)
	status := 201
	var cmds []map[string]any
	for _, o := range old {
		if o["id"] == cmd["id"] {
			status = 200
			continue
		}
		cmds = append(cmds, o)
	}
	c.s.st.commands[g] = append(cmds, cmd)
	return status, cmd
}

func (c *call) deleteCommand() (int, any) {
	g, no := c.commandScope()
	if no != nil {
		return no.reply()
	}
	var cmds []map[string]any
	found := false
	for _, o := range c.s.st.commands[g] {
		if o["id"] == c.params["command"] {
			found = true
			continue
		}
		cmds = append(cmds, o)
	}
	if !found {
		return c.fail(404, 10063, "", "", "Unknown application command")
	}
	c.s.st.commands[g] = cmds
	return 204, nil
}

// ---- interactions ----

func (c *call) interactionCallback() (int, any) {
	s := c.s
	rec, ok := s.st.interactions[c.params["interaction"]]
	if !ok || rec.token != c.params["token"] {
		return c.fail(404, 10062, "", "", "Unknown interaction")
	}
	if rec.acked && rec.answerLost {
		return c.refuse(400, 40060, "Interaction has already been acknowledged.")
	}
	if rec.acked {
		return c.fail(400, 40060, "", "", "Interaction has already been acknowledged.")
	}
	if age, wall := s.answerAgeLocked(rec, c); age > s.cfg.interactionDeadline || s.cfg.wallDeadline && age+wall > s.cfg.interactionDeadline {
		late := age + wall
		c.errs = append(c.errs, Violation{Code: 10062, Rule: "INTERACTION_DEADLINE",
			Detail: fmt.Sprintf("Unknown interaction (answered %v after it was made, %v after dispatch; the limit is %v)", late.Round(time.Millisecond), (late - rec.dispatched.Sub(rec.created)).Round(time.Millisecond), s.cfg.interactionDeadline)})
		return 404, map[string]any{"code": 10062, "message": "Unknown interaction"}
	} else if age+wall > s.cfg.interactionDeadline {
		s.st.late = append(s.st.late, LateAnswer{Interaction: rec.id, Name: rec.name, Age: age, Wall: wall})
	}
	typ := num(c.body["type"])
	allowed := map[int][]int{
		int(discordgo.InteractionApplicationCommand):             {4, 5, 9},
		int(discordgo.InteractionMessageComponent):               {4, 5, 6, 7, 9},
		int(discordgo.InteractionApplicationCommandAutocomplete): {8},
		int(discordgo.InteractionModalSubmit):                    {4, 5, 6, 7},
	}[rec.typ]
	okType := false
	for _, a := range allowed {
		okType = okType || a == typ
	}
	var e formErrors
	if !okType {
		e.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", fmt.Sprintf("Interaction response type %d is not valid for interaction type %d (allowed: %v).", typ, rec.typ, allowed))
		return c.invalidForm(&e)
	}
	data := obj(c.body["data"])
	switch typ {
	case 4, 7:
		validateMessage(&e, "data.", data, c.req.Files)
		var existing []any
		if old, ok := s.st.messages[rec.componentMsgID]; ok && typ == 7 {
			existing = list(old.obj["attachments"])
		}
		validateAttachments(&e, "data.", data, c.req.Files, existing)
		if e.empty() && typ == 4 && messageEmpty(data, c.req.Files) {
			return c.fail(400, 50006, "", "", "Cannot send an empty message")
		}
	case 5:
		validateMessage(&e, "data.", data, c.req.Files)
		validateAttachments(&e, "data.", data, c.req.Files, nil)
	case 8:
		validateChoices(&e, list(data["choices"]))
	case 9:
		between(&e, "data.custom_id", data["custom_id"], 1, MaxCustomID)
		between(&e, "data.title", data["title"], 1, MaxModalTitleLength)
		rows := list(data["components"])
		if len(rows) == 0 || len(rows) > MaxActionRows {
			e.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		validateComponents(&e, "data.components", rows)
	}
	if !e.empty() {
		return c.invalidForm(&e)
	}
	rec.acked = true
	rec.ackedAt = s.nowLocked()
	rec.cbType = typ
	rec.cbData = data
	rec.cbFiles = c.req.Files
	switch typ {
	case 4:
		m := s.newMessageLocked(rec.channelID, s.Bot, data, c.req.Files, rec.messageExtra())
		rec.originalID = m.obj["id"].(string)
	case 5:
		rec.deferPending = true
		flags := num(data["flags"])&64 | 128 // ephemeral kept, LOADING set
		m := s.newMessageLocked(rec.channelID, s.Bot, map[string]any{"flags": float64(flags)}, nil, rec.messageExtra())
		rec.originalID = m.obj["id"].(string)
	case 6:
		rec.originalID = rec.componentMsgID
	case 7:
		rec.originalID = rec.componentMsgID
		if old, ok := s.st.messages[rec.componentMsgID]; ok {
			s.editMessageLocked(old, data, c.req.Files)
		}
	}
	return 204, nil
}

func (rec *interactionRec) messageExtra() map[string]any {
	t := 20 // CHAT_INPUT_COMMAND
	if rec.typ != int(discordgo.InteractionApplicationCommand) {
		t = 0
	}
	return map[string]any{
		"type":           t,
		"webhook_id":     rec.appID,
		"application_id": rec.appID,
		"interaction": map[string]any{
			"id":   rec.id,
			"type": rec.typ,
			"name": rec.name,
			"user": userJSON(rec.user),
		},
	}
}

// webhookRec finds the interaction behind a webhook token and checks that
// it may be used now.
func (c *call) webhookRec() (*interactionRec, *answer) {
	rec, ok := c.s.st.byToken[c.params["token"]]
	if !ok || c.params["app"] != c.s.AppID {
		return nil, c.failed(404, 10015, "", "", "Unknown Webhook")
	}
	if c.s.nowLocked().Sub(rec.created)+c.upload > c.s.cfg.tokenLifetime {
		return nil, c.failed(401, 50027, "", "", "Invalid Webhook Token (interaction tokens live "+c.s.cfg.tokenLifetime.String()+")")
	}
	if !rec.acked {
		return nil, c.failed(404, 10015, "", "", "Unknown Webhook (the interaction has not been acknowledged yet)")
	}
	return rec, nil
}

func (c *call) webhookMessageID(rec *interactionRec) (string, *answer) {
	mid := c.params["message"]
	if mid == "@original" {
		mid = rec.originalID
		if mid == "" {
			return "", c.failed(404, 10008, "", "", "Unknown Message (this interaction has no original response message)")
		}
		return mid, nil
	}
	if mid == rec.originalID {
		return mid, nil
	}
	for _, f := range rec.followups {
		if f == mid {
			return mid, nil
		}
	}
	return "", c.failed(404, 10008, "", "", "Unknown Message")
}

func (c *call) followup() (int, any) {
	rec, no := c.webhookRec()
	if no != nil {
		return no.reply()
	}
	var e formErrors
	validateMessage(&e, "", c.body, c.req.Files)
	validateAttachments(&e, "", c.body, c.req.Files, nil)
	if !e.empty() {
		return c.invalidForm(&e)
	}
	if messageEmpty(c.body, c.req.Files) {
		return c.fail(400, 50006, "", "", "Cannot send an empty message")
	}
	if rec.deferPending {
		// "When using this endpoint directly after responding to an
		// interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this
		// endpoint will function as Edit Original Interaction Response [...]
		// The ephemeral flag will be ignored" (receiving-and-responding).
		rec.deferPending = false
		old, ok := c.s.st.messages[rec.originalID]
		if !ok {
			return c.fail(404, 10008, "", "", "Unknown Message (the first follow-up after a deferral edits the loading message, which was deleted)")
		}
		m := c.s.editMessageLocked(old, c.body, c.req.Files)
		if c.req.Query.Get("wait") == "true" {
			return 200, m.obj
		}
		return 204, nil
	}
	extra := rec.messageExtra()
	if tid := c.req.Query.Get("thread_id"); tid != "" {
		c.s.ensureChannelLocked(rec.guildID, tid)
	}
	ch := rec.channelID
	if tid := c.req.Query.Get("thread_id"); tid != "" {
		ch = tid
	}
	m := c.s.newMessageLocked(ch, c.s.Bot, c.body, c.req.Files, extra)
	id := m.obj["id"].(string)
	if rec.originalID == "" {
		rec.originalID = id
	}
	rec.followups = append(rec.followups, id)
	if c.req.Query.Get("wait") == "true" {
		return 200, m.obj
	}
	return 204, nil
}

// webhookMessage finds the message a webhook-message route names (its
// interaction, then @original or a follow-up id).
func (c *call) webhookMessage() (string, *storedMessage, *answer) {
	rec, no := c.webhookRec()
	if no != nil {
		return "", nil, no
	}
	mid, no := c.webhookMessageID(rec)
	if no != nil {
		return "", nil, no
	}
	m, ok := c.s.st.messages[mid]
	if !ok {
		return "", nil, c.failed(404, 10008, "", "", "Unknown Message")
	}
	return mid, m, nil
}

func (c *call) getWebhookMessage() (int, any) {
	_, m, no := c.webhookMessage()
	if no != nil {
		return no.reply()
	}
	return 200, m.obj
}

func (c *call) editWebhookMessage() (int, any) {
	mid, old, no := c.webhookMessage()
	if no != nil {
		return no.reply()
	}
	var e formErrors
	validateMessage(&e, "", c.body, c.req.Files)
	validateAttachments(&e, "", c.body, c.req.Files, list(old.obj["attachments"]))
	if !e.empty() {
		return c.invalidForm(&e)
	}
	if r := c.s.st.byToken[c.params["token"]]; mid == r.originalID {
		r.deferPending = false
	}
	m := c.s.editMessageLocked(old, c.body, c.req.Files)
	return 200, m.obj
}

func (c *call) deleteWebhookMessage() (int, any) {
	mid, _, no := c.webhookMessage()
	if no != nil {
		return no.reply()
	}
	c.s.deleteMessageLocked(mid)
	return 204, nil
}

// ---- channels and messages ----

func (c *call) channel() (*discordgo.Channel, *answer) {
	ch, ok := c.s.st.channels[c.params["channel"]]
	if !ok && c.s.st.deleted[c.params["channel"]] {
		return nil, c.refused(404, 10003, "Unknown Channel")
	}
	if !ok {
		return nil, c.failed(404, 10003, "", "", "Unknown Channel")
	}
	return ch, nil
}

func (c *call) message(ch *discordgo.Channel) (*storedMessage, *answer) {
	m, ok := c.s.st.messages[c.params["message"]]
	if !ok && c.s.st.deleted[c.params["message"]] {
		return nil, c.refused(404, 10008, "Unknown Message")
	}
	if !ok || m.obj["channel_id"] != ch.ID {
		return nil, c.failed(404, 10008, "", "", "Unknown Message")
	}
	return m, nil
}

func (c *call) getChannel() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	if no := c.need(ch, 0); no != nil {
		return no.reply()
	}
	return 200, c.s.channelJSONLocked(ch)
}

func (c *call) typing() (int, any) {
	if _, no := c.channel(); no != nil {
		return no.reply()
	}
	return 204, nil
}

func (c *call) createMessage() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	var e formErrors
	validateMessage(&e, "", c.body, c.req.Files)
	validateAttachments(&e, "", c.body, c.req.Files, nil)
	if flags := num(c.body["flags"]); flags&64 != 0 {
		e.add("flags", "MESSAGE_FLAGS_INVALID", "Ephemeral messages can only be sent as interaction responses")
	}
	if !e.empty() {
		return c.invalidForm(&e)
	}
	if messageEmpty(c.body, c.req.Files) {
		return c.fail(400, 50006, "", "", "Cannot send an empty message")
	}
	// Create Message's limitations (resources/message.mdx): SEND_MESSAGES
	// (SEND_MESSAGES_IN_THREADS in a thread, permissions.mdx), ATTACH_FILES
	// for files, READ_MESSAGE_HISTORY for a reply.
	perms := sendPerm(ch)
	if len(c.req.Files) > 0 {
		perms |= discordgo.PermissionAttachFiles
	}
	if no := c.need(ch, perms); no != nil {
		return no.reply()
	}
	if obj(c.body["message_reference"]) != nil && guildChannel(ch) && c.s.permsLocked(ch.ID)&discordgo.PermissionReadMessageHistory == 0 {
		return c.refuse(403, 160002, "Cannot reply without permission to read message history")
	}
	if no := c.threadGate(ch, true); no != nil {
		return no.reply()
	}
	extra := map[string]any{}
	if ref := obj(c.body["message_reference"]); ref != nil {
		mid, _ := ref["message_id"].(string)
		if _, ok := c.s.st.messages[mid]; !ok {
			if fail, _ := ref["fail_if_not_exists"].(bool); fail || ref["fail_if_not_exists"] == nil {
				var e formErrors
				e.add("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
				return c.invalidForm(&e)
			}
		}
		extra["type"] = 19
		extra["message_reference"] = map[string]any{"message_id": mid, "channel_id": ch.ID, "guild_id": nilIfEmpty(ch.GuildID)}
	}
	// enforce_nonce: a message with a nonce already used in this channel by
	// the same author is not created again; Discord returns the first one.
	nonce := fmt.Sprint(c.body["nonce"])
	enforce, _ := c.body["enforce_nonce"].(bool)
	if c.body["nonce"] != nil && len(nonce) > 25 {
		var e formErrors
		e.add("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		return c.invalidForm(&e)
	}
	if enforce && c.body["nonce"] != nil {
		since := c.s.nowLocked().Add(-c.s.cfg.nonceWindow) // "in the past few minutes"
		for _, id := range c.s.st.chanMsgs[ch.ID] {
			if m, ok := c.s.st.messages[id]; ok && fmt.Sprint(m.obj["nonce"]) == nonce && obj(m.obj["author"])["id"] == c.s.Bot.ID && m.created.After(since) {
				return 200, m.obj
			}
		}
	}
	m := c.s.newMessageLocked(ch.ID, c.s.Bot, c.body, c.req.Files, extra)
	return 200, m.obj
}

// listMessages answers GET /channels/{id}/messages: newest first, at most
// limit (default 50, 1 to 100), the newest before a message id (before),
// the oldest after one (after) or those around one (around, itself
// included); the three are mutually exclusive (resources/message.mdx, Get
// Channel Messages; ids are snowflakes, reference.mdx, Snowflake IDs in
// Pagination: any number works, e.g. one made from a time).
func (c *call) listMessages() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	var e formErrors
	limit := 50
	if l := c.req.Query.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 100 {
			e.add("limit", "NUMBER_TYPE_MAX", "int value should be between 1 and 100.")
		}
		limit = n
	}
	var anchor uint64
	mode := ""
	for _, k := range []string{"before", "after", "around"} {
		v := c.req.Query.Get(k)
		if v == "" {
			continue
		}
		if mode != "" {
			e.add(k, "PAGINATION_PARAMS_EXCLUSIVE", "before, after and around are mutually exclusive ("+mode+" is given too).")
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			e.add(k, "NUMBER_TYPE_COERCE", fmt.Sprintf("Value %q is not snowflake.", v))
		}
		mode, anchor = k, n
	}
	if !e.empty() {
		return c.invalidForm(&e)
	}
	if no := c.need(ch, 0); no != nil {
		return no.reply()
	}
	out := []any{}
	if guildChannel(ch) && c.s.permsLocked(ch.ID)&discordgo.PermissionReadMessageHistory == 0 {
		// "If the current user is missing the READ_MESSAGE_HISTORY
		// permission in the channel, then no messages will be returned."
		return 200, out
	}
	// The channel's visible messages, oldest first (ids grow with time).
	var msgs []*storedMessage
	var ids []uint64
	for _, id := range c.s.st.chanMsgs[ch.ID] {
		if m, ok := c.s.st.messages[id]; ok && num(m.obj["flags"])&64 == 0 {
			n, _ := strconv.ParseUint(id, 10, 64)
			msgs, ids = append(msgs, m), append(ids, n)
		}
	}
	// [lo, hi) is the page, oldest first.
	lo, hi := 0, len(msgs)
	split := func(x uint64, orEqual bool) int { // first index with id > x (>= x when orEqual)
		i := 0
		for i < len(ids) && (ids[i] < x || (!orEqual && ids[i] == x)) {
			i++
		}
		return i
	}
	switch mode {
	case "", "before":
		if mode == "before" {
			hi = split(anchor, true)
		}
		lo = max(0, hi-limit)
	case "after":
		lo = split(anchor, false)
		hi = min(len(msgs), lo+limit)
	case "around":
		mid := split(anchor, false) // messages up to and including the anchor end here
		lo = max(0, mid-(limit-limit/2))
		hi = min(len(msgs), mid+limit/2)
	}
	for i := hi - 1; i >= lo; i-- {
		out = append(out, msgs[i].obj)
	}
	return 200, out
}

func (c *call) getMessage() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	m, no := c.message(ch)
	if no != nil {
		return no.reply()
	}
	return 200, m.obj
}

func (c *call) editMessage() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	m, no := c.message(ch)
	if no != nil {
		return no.reply()
	}
	if obj(m.obj["author"])["id"] != c.s.Bot.ID {
		return c.fail(403, 50005, "", "", "Cannot edit a message authored by another user")
	}
	var e formErrors
	validateMessage(&e, "", c.body, c.req.Files)
	validateAttachments(&e, "", c.body, c.req.Files, list(m.obj["attachments"]))
	if !e.empty() {
		return c.invalidForm(&e)
	}
	if e := uploadsListed(c.body, c.req.Files); !e.empty() {
		return c.invalidForm(e)
	}
	var perms int64
	if len(c.req.Files) > 0 {
		perms = discordgo.PermissionAttachFiles
	}
	if no := c.need(ch, perms); no != nil {
		return no.reply()
	}
	if no := c.threadGate(ch, false); no != nil {
		return no.reply()
	}
	return 200, c.s.editMessageLocked(m, c.body, c.req.Files).obj
}

func (c *call) deleteMessage() (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	m, no := c.message(ch)
	if no != nil {
		return no.reply()
	}
	c.s.deleteMessageLocked(m.obj["id"].(string))
	return 204, nil
}

// uploadsListed checks an edit's new files against its attachments: API
// v10 keeps only the attachments listed (a new upload as {"id": n}, its
// files[n] index), while v9 also added unlisted uploads. An edit that
// relies on v9's rule is flagged, since the same request on v10 would
// silently drop the picture (resources/message.mdx, Edit Message; the
// reference's Uploading Files).
func uploadsListed(body map[string]any, files []File) *formErrors {
	e := &formErrors{}
	atts, ok := body["attachments"]
	if !ok || len(files) == 0 {
		return e
	}
	listed := map[string]bool{}
	for _, a := range list(atts) {
		listed[fmt.Sprint(obj(a)["id"])] = true
	}
	for i, f := range files {
		n := strings.TrimSuffix(strings.TrimPrefix(f.Field, "files["), "]")
		if f.Field == "" || n == f.Field {
			n = strconv.Itoa(i)
		}
		if !listed[n] {
			e.add("attachments", "ATTACHMENT_NOT_LISTED", "The upload "+f.Field+" is not listed in attachments (API v10 drops it).")
		}
	}
	return e
}

// validEmoji accepts unicode emoji and custom emoji as name:id.
func validEmoji(e string) bool {
	if name, id, ok := strings.Cut(e, ":"); ok {
		_, err := strconv.ParseUint(id, 10, 64)
		return name != "" && err == nil
	}
	for _, r := range e {
		if r > 127 {
			return true
		}
	}
	return false
}

func (c *call) reaction(add bool) (int, any) {
	ch, no := c.channel()
	if no != nil {
		return no.reply()
	}
	m, no := c.message(ch)
	if no != nil {
		return no.reply()
	}
	// Create Reaction needs READ_MESSAGE_HISTORY, and ADD_REACTIONS for a
	// new emoji (resources/message.mdx); reactions are refused in archived
	// threads (topics/threads.mdx).
	if no := c.need(ch, discordgo.PermissionReadMessageHistory|discordgo.PermissionAddReactions); no != nil {
		return no.reply()
	}
	if no := c.threadGate(ch, false); no != nil {
		return no.reply()
	}
	emoji := c.params["emoji"]
	if !validEmoji(emoji) {
		return c.fail(400, 10014, "", "", "Unknown Emoji ("+emoji+"; use the unicode character or name:id)")
	}
	name, id, _ := strings.Cut(emoji, ":")
	key := map[string]any{"id": nilIfEmpty(id), "name": name}
	var out []any
	found := false
	for _, r := range list(m.obj["reactions"]) {
		rm := obj(r)
		if obj(rm["emoji"])["name"] != name {
			out = append(out, r)
			continue
		}
		found = true
		count := num(rm["count"])
		me, _ := rm["me"].(bool)
		switch {
		case add && !me:
			count++
		case !add && me:
			count--
		}
		if count > 0 {
			out = append(out, map[string]any{"emoji": key, "count": float64(count), "me": add})
		}
	}
	if !found && add {
		out = append(out, map[string]any{"emoji": key, "count": float64(1), "me": true})
	}
	nm := m.with(map[string]any{"reactions": out})
	c.s.st.messages[nm.obj["id"].(string)] = nm
	return 204, nil
}

func (c *call) addReaction() (int, any)    { return c.reaction(true) }
func (c *call) removeReaction() (int, any) { return c.reaction(false) }

func (c *call) createThread() (int, any) {
	parent, no := c.channel()
	if no != nil {
		return no.reply()
	}
	if parent.Type != discordgo.ChannelTypeGuildText && parent.Type != discordgo.ChannelTypeGuildNews && parent.Type != discordgo.ChannelTypeGuildForum {
		return c.fail(400, 50024, "", "", "Cannot execute action on this channel type")
	}
	need := int64(discordgo.PermissionCreatePublicThreads)
	if c.params["message"] == "" && num(c.body["type"]) != int(discordgo.ChannelTypeGuildPublicThread) {
		need = discordgo.PermissionCreatePrivateThreads
	}
	if no := c.need(parent, need); no != nil {
		return no.reply()
	}
	var e formErrors
	between(&e, "name", c.body["name"], 1, MaxThreadNameLen)
	if d := num(c.body["auto_archive_duration"]); d != 0 && d != 60 && d != 1440 && d != 4320 && d != 10080 {
		e.add("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
	}
	if !e.empty() {
		return c.invalidForm(&e)
	}
	name, _ := c.body["name"].(string)
	th := &discordgo.Channel{GuildID: parent.GuildID, ParentID: parent.ID, Name: name, OwnerID: c.s.Bot.ID}
	if mid := c.params["message"]; mid != "" {
		m, no := c.message(parent)
		if no != nil {
			return no.reply()
		}
		if m.obj["thread"] != nil {
			return c.fail(400, 160004, "", "", "A thread has already been created for this message")
		}
		th.ID = mid // a thread started from a message has the message's id
		th.Type = discordgo.ChannelTypeGuildPublicThread
		nm := m.with(map[string]any{"thread": channelJSON(th), "flags": float64(num(m.obj["flags"]) | 32)})
		c.s.st.messages[mid] = nm
	} else {
		th.ID = c.s.ids.next()
		th.Type = discordgo.ChannelTypeGuildPrivateThread // API v9 default
		if t := num(c.body["type"]); t != 0 {
			th.Type = discordgo.ChannelType(t)
		}
	}
	c.s.st.channels[th.ID] = th
	archive := time.Duration(num(c.body["auto_archive_duration"])) * time.Minute
	if archive == 0 {
		archive = 24 * time.Hour // Discord's default for a new thread
	}
	c.s.st.threads[th.ID] = &threadMeta{autoArchive: archive, lastActivity: c.s.nowLocked()}
	c.s.gw.dispatchLocked("THREAD_CREATE", th.GuildID, discordgo.IntentGuilds, func(_ *gwSession) any {
		m := c.s.channelJSONLocked(th)
		m["newly_created"] = true
		return m
	})
	return 201, c.s.channelJSONLocked(th)
}

// ---- guilds ----

func (c *call) getGuild() (int, any) {
	g, ok := c.s.st.guilds[c.params["guild"]]
	if !ok {
		return c.fail(404, 10004, "", "", "Unknown Guild")
	}
	return 200, c.s.guildJSONLocked(g, false)
}

func (c *call) getGuildChannels() (int, any) {
	g, ok := c.s.st.guilds[c.params["guild"]]
	if !ok {
		return c.fail(404, 10004, "", "", "Unknown Guild")
	}
	return 200, c.s.guildChannelsLocked(g.ID)
}

func (c *call) getMember() (int, any) {
	g, ok := c.s.st.guilds[c.params["guild"]]
	if !ok {
		return c.fail(404, 10004, "", "", "Unknown Guild")
	}
	for _, id := range c.s.st.members[g.ID] {
		if id == c.params["user"] {
			return 200, memberJSON(c.s.st.users[id], time.Now())
		}
	}
	return c.fail(404, 10007, "", "", "Unknown Member")
}

func (s *Server) guildChannelsLocked(guildID string) []any {
	out := []any{}
	for _, ch := range s.st.channels {
		if ch.GuildID == guildID && !ch.IsThread() {
			out = append(out, channelJSON(ch))
		}
	}
	return out
}

func (s *Server) guildJSONLocked(g *discordgo.Guild, create bool) map[string]any {
	m := map[string]any{
		"id":                 g.ID,
		"name":               g.Name,
		"icon":               nil,
		"owner_id":           g.OwnerID,
		"preferred_locale":   g.PreferredLocale,
		"roles":              []any{map[string]any{"id": g.ID, "name": "@everyone", "permissions": "2248473465835073", "position": 0, "color": 0, "hoist": false, "managed": false, "mentionable": false}},
		"emojis":             []any{},
		"features":           []any{},
		"verification_level": 0,
		"premium_tier":       0,
	}
	if create {
		m["channels"] = s.guildChannelsLocked(g.ID)
		var members []any
		for _, id := range s.st.members[g.ID] {
			members = append(members, memberJSON(s.st.users[id], time.Now()))
		}
		m["members"] = members
		m["member_count"] = len(members)
		m["threads"] = []any{}
		m["joined_at"] = time.Now().UTC().Format(time.RFC3339Nano)
		m["large"] = false
		m["unavailable"] = false
	}
	return m
}

// ---- message storage ----

func (m *storedMessage) with(changes map[string]any) *storedMessage {
	o := make(map[string]any, len(m.obj)+len(changes))
	for k, v := range m.obj {
		o[k] = v
	}
	for k, v := range changes {
		o[k] = v
	}
	return &storedMessage{obj: o, files: m.files, created: m.created}
}

func (s *Server) attachmentsLocked(channelID string, files []File) []any {
	out := []any{}
	for _, f := range files {
		id := s.ids.next()
		a := map[string]any{
			"id":           id,
			"filename":     f.Name,
			"size":         len(f.Data),
			"url":          fmt.Sprintf("%s/attachments/%s/%s/%s", s.base, channelID, id, f.Name),
			"proxy_url":    fmt.Sprintf("%s/attachments/%s/%s/%s", s.base, channelID, id, f.Name),
			"content_type": f.ContentType,
		}
		if f.Format != "" {
			a["width"] = f.Width
			a["height"] = f.Height
		}
		s.st.attachments[id] = f
		out = append(out, a)
	}
	return out
}

// newMessageLocked stores a message and dispatches MESSAGE_CREATE.
func (s *Server) newMessageLocked(channelID string, author *discordgo.User, p map[string]any, files []File, extra map[string]any) *storedMessage {
	ch := s.ensureChannelLocked("", channelID)
	id := s.ids.next()
	o := map[string]any{
		"id":               id,
		"channel_id":       channelID,
		"author":           userJSON(author),
		"content":          "",
		"timestamp":        s.nowLocked().UTC().Format(time.RFC3339Nano),
		"edited_timestamp": nil,
		"tts":              false,
		"mention_everyone": false,
		"mentions":         []any{},
		"mention_roles":    []any{},
		"attachments":      s.attachmentsLocked(channelID, files),
		"embeds":           []any{},
		"components":       []any{},
		"pinned":           false,
		"type":             0,
		"flags":            0,
	}
	if ch.GuildID != "" {
		o["guild_id"] = ch.GuildID
	}
	for _, k := range []string{"content", "embeds", "components", "tts", "sticker_ids", "poll", "nonce"} {
		if v, ok := p[k]; ok && v != nil {
			o[k] = v
		}
	}
	if f, ok := p["flags"]; ok {
		o["flags"] = num(f) & (4 | 64 | 128 | 4096)
	}
	for k, v := range extra {
		o[k] = v
	}
	m := &storedMessage{obj: o, files: files, created: s.nowLocked()}
	s.st.messages[id] = m
	s.st.chanMsgs[channelID] = append(s.st.chanMsgs[channelID], id)
	if num(o["flags"])&(64|128) == 0 {
		s.dispatchMessageLocked("MESSAGE_CREATE", m)
	}
	return m
}

func (s *Server) editMessageLocked(old *storedMessage, p map[string]any, files []File) *storedMessage {
	changes := map[string]any{"edited_timestamp": s.nowLocked().UTC().Format(time.RFC3339Nano)}
	for _, k := range []string{"content", "embeds", "components"} {
		if v, ok := p[k]; ok {
			if v == nil {
				v = map[string]any{"content": "", "embeds": []any{}, "components": []any{}}[k]
			}
			changes[k] = v
		}
	}
	wasLoading := num(old.obj["flags"])&128 != 0
	flags := num(old.obj["flags"]) &^ 128
	if f, ok := p["flags"]; ok {
		flags = flags&^4 | num(f)&4
	}
	changes["flags"] = flags
	chID, _ := old.obj["channel_id"].(string)
	atts := list(old.obj["attachments"])
	if keep, ok := p["attachments"]; ok {
		ids := map[string]bool{}
		for _, a := range list(keep) {
			if id, ok := obj(a)["id"].(string); ok {
				ids[id] = true
			}
		}
		var kept []any
		for _, a := range atts {
			if ids[obj(a)["id"].(string)] {
				kept = append(kept, a)
			}
		}
		atts = kept
	}
	changes["attachments"] = append(append([]any{}, atts...), s.attachmentsLocked(chID, files)...)
	nm := old.with(changes)
	nm.files = append(append([]File(nil), old.files...), files...)
	s.st.messages[nm.obj["id"].(string)] = nm
	if num(flags)&64 == 0 {
		if wasLoading {
			s.dispatchMessageLocked("MESSAGE_CREATE", nm)
		} else {
			s.dispatchMessageLocked("MESSAGE_UPDATE", nm)
		}
	}
	return nm
}

func (s *Server) deleteMessageLocked(id string) {
	m, ok := s.st.messages[id]
	if !ok {
		return
	}
	delete(s.st.messages, id)
	ch, _ := m.obj["channel_id"].(string)
	g, _ := m.obj["guild_id"].(string)
	intent := discordgo.IntentGuildMessages
	if g == "" {
		intent = discordgo.IntentDirectMessages
	}
	s.gw.dispatchLocked("MESSAGE_DELETE", g, intent, func(*gwSession) any {
		d := map[string]any{"id": id, "channel_id": ch}
		if g != "" {
			d["guild_id"] = g
		}
		return d
	})
}

// dispatchMessageLocked sends MESSAGE_CREATE/UPDATE to the sessions whose
// intents allow it, with content stripped when MESSAGE_CONTENT is missing
// (as Discord does, except for the bot's own messages, DMs and mentions).
func (s *Server) dispatchMessageLocked(event string, m *storedMessage) {
	g, _ := m.obj["guild_id"].(string)
	intent := discordgo.IntentGuildMessages
	if g == "" {
		intent = discordgo.IntentDirectMessages
	}
	s.gw.dispatchLocked(event, g, intent, func(sess *gwSession) any {
		o := m.obj
		author, _ := obj(o["author"])["id"].(string)
		mentioned := false
		for _, u := range list(o["mentions"]) {
			mentioned = mentioned || obj(u)["id"] == s.Bot.ID
		}
		if sess.intents&discordgo.IntentMessageContent == 0 && g != "" && author != s.Bot.ID && !mentioned {
			cp := map[string]any{}
			for k, v := range o {
				cp[k] = v
			}
			cp["content"], cp["embeds"], cp["attachments"], cp["components"] = "", []any{}, []any{}, []any{}
			o = cp
		}
		if g != "" && author != "" {
			if u, ok := s.st.users[author]; ok && !u.Bot {
				mem := memberJSON(u, time.Now())
				delete(mem, "user")
				cp := map[string]any{}
				for k, v := range o {
					cp[k] = v
				}
				cp["member"] = mem
				o = cp
			}
		}
		return o
	})
}

// serveAttachment serves uploaded files at the attachment URLs.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	if len(parts) < 2 {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	f, ok := s.st.attachments[parts[1]]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if f.ContentType != "" {
		w.Header().Set("Content-Type", f.ContentType)
	}
	_, _ = w.Write(f.Data)
}
