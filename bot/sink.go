package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"tessera/delivery"
	"tessera/service"
)

// sink delivers the service's announcements to Discord.
type sink struct {
	s   *discordgo.Session
	dms *dmChannels // each user's DM channel, opened once
}

// starterWait is how long a game's thread waits for the id of its
// challenge message (bot/reply.go records it right after answering; an
// HTTP interaction's answer is read back first, a round trip to Discord).
const starterWait = 5 * time.Second

// StarterWait makes the bot a delivery.StarterRecorder: a game that
// begins as it is made gets its thread from its challenge message.
func (sink) StarterWait() time.Duration { return starterWait }

// classify tells the service what a refusal from Discord means: the
// codes the courier recovers from (a deleted channel or message, a missing
// permission, a locked thread, a refused token), else permanent for a 4xx
// other than 429 (it will not succeed on a retry: DMs closed, a bad
// request), else transient.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return err
	}
	switch discordCode(err) {
	case discordgo.ErrCodeUnknownChannel:
		return delivery.DeliveryFailure(delivery.Gone, err)
	case discordgo.ErrCodeUnknownMessage:
		return delivery.DeliveryFailure(delivery.MessageGone, err)
	case discordgo.ErrCodeMissingAccess, discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeCannotReplyWithoutPermissionToReadMessageHistory:
		return delivery.DeliveryFailure(delivery.Blocked, err)
	case discordgo.ErrCodeThreadIsLocked, discordgo.ErrCodePerformedOperationOnArchivedThread:
		return delivery.DeliveryFailure(delivery.Locked, err)
	}
	switch st := re.Response.StatusCode; {
	case st == http.StatusUnauthorized:
		return delivery.DeliveryFailure(delivery.Refused, err)
	case st >= 400 && st < 500 && st != http.StatusTooManyRequests:
		return delivery.Permanent(err)
	}
	return err
}

func discordFiles(fs []service.File) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range fs {
		out = append(out, &discordgo.File{Name: f.Name, ContentType: f.MediaType(), Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// Thread starts the game's thread from the challenge message when there is
// one: Discord allows one thread per message, and the thread takes the
// message's id, so a repeated attempt finds the same thread.
// Presenter makes the courier render Discord's words.
func (sink) Presenter() service.Presenter { return Presenter{} }

func (k sink) Thread(ctx context.Context, channelID, fromID, name string) (string, error) {
	opt := discordgo.WithContext(ctx)
	if fromID != "" {
		ch, err := k.s.MessageThreadStartComplex(channelID, fromID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080}, opt)
		if err == nil {
			return ch.ID, nil
		}
		var re *discordgo.RESTError
		if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage {
			return fromID, nil
		}
		if c := classify(err); c == err || failureOf(c) == delivery.Refused { // transient, or nothing will work
			return "", c
		}
	}
	ch, err := k.s.ThreadStartComplex(channelID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread}, opt)
	if err != nil {
		return "", classify(err)
	}
	return ch.ID, nil
}

// message is a channel message with a nonce, which discordgo's MessageSend
// cannot carry: with enforce_nonce Discord does not create a second message
// with the same nonce (a delivery repeated after a crash).
type message struct {
	Content          string                            `json:"content"`
	Nonce            string                            `json:"nonce,omitempty"`
	EnforceNonce     bool                              `json:"enforce_nonce,omitempty"`
	AllowedMentions  *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	MessageReference *discordgo.MessageReference       `json:"message_reference,omitempty"`
	Components       []discordgo.MessageComponent      `json:"components,omitempty"`
}

// content is a message's text with its marker in small print, within
// Discord's limit (the marker is never the part cut).
func content(m service.Message) string {
	if m.Marker == "" {
		return limit(m.Text)
	}
	tail := "\n-# " + m.Marker
	return limitTo(m.Text, maxContent-utf8.RuneCountInString(tail)) + tail
}

// noAttach is added to a post whose picture Discord refused (no Attach
// Files permission): the text still arrives.
const noAttach = "\n(The board picture is missing: I need the Attach Files permission here.)"

func (k sink) send(ctx context.Context, channelID string, m service.Message, nonce string) (string, error) {
	id, err := k.sendOnce(ctx, channelID, m, nonce)
	if len(m.Files) > 0 && discordCode(err) == discordgo.ErrCodeMissingPermissions {
		// Perhaps only Attach Files is missing: deliver the text. (Its own
		// nonce: Discord would answer the first, refused, one with nothing.)
		m.Files, m.Text = nil, m.Text+noAttach
		id, err = k.sendOnce(ctx, channelID, m, textOnly(nonce))
	}
	return id, classify(err)
}

// textOnly is the nonce of a post sent again without its picture.
func textOnly(nonce string) string {
	if nonce == "" {
		return ""
	}
	return nonce + "t"
}

func (k sink) sendOnce(ctx context.Context, channelID string, m service.Message, nonce string) (string, error) {
	data := message{Content: content(m), Nonce: nonce, EnforceNonce: nonce != "",
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: m.Mentions}}
	data.Components = components(service.Reply{Buttons: m.Buttons})
	if m.ReplyTo != "" {
		f := false
		data.MessageReference = &discordgo.MessageReference{MessageID: m.ReplyTo, ChannelID: channelID, FailIfNotExists: &f}
	}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var body []byte
	var err error
	if len(m.Files) > 0 {
		ct, b, err := discordgo.MultipartBodyWithJSON(data, discordFiles(m.Files))
		if err != nil {
			return "", delivery.Permanent(err)
		}
		body, err = k.s.RequestRaw("POST", endpoint, ct, b, endpoint, 0, discordgo.WithContext(ctx))
		if err != nil {
			return "", err
		}
	} else {
		body, err = k.s.RequestWithBucketID("POST", endpoint, data, endpoint, discordgo.WithContext(ctx))
		if err != nil {
			return "", err
		}
	}
	var msg discordgo.Message
	if err := json.Unmarshal(body, &msg); err != nil {
		return "", err
	}
	return msg.ID, nil
}

func (k sink) Post(ctx context.Context, channelID string, m service.Message, nonce string) (string, error) {
	return k.send(ctx, channelID, m, nonce)
}

// Edit replaces the message's text and its picture. The new picture is
// listed in attachments (as {"id": "0", "filename": its name}: the index
// of the upload): API v9 adds an upload even when attachments is empty,
// v10 keeps only what is listed; both accept this. An archived thread
// (50083) is unarchived first when Discord lets us; a refused picture
// leaves the text edited.
func (k sink) Edit(ctx context.Context, channelID, messageID string, m service.Message) error {
	err := k.edit(ctx, channelID, messageID, m)
	if discordCode(err) == discordgo.ErrCodePerformedOperationOnArchivedThread && k.unarchive(ctx, channelID) == nil {
		err = k.edit(ctx, channelID, messageID, m)
	}
	if len(m.Files) > 0 && discordCode(err) == discordgo.ErrCodeMissingPermissions {
		m.Files, m.Text = nil, m.Text+noAttach
		err = k.edit(ctx, channelID, messageID, m)
	}
	return classify(err)
}

// messageEdit is the body of an edit. discordgo's MessageEdit lists
// attachments as MessageAttachment, whose every field is sent even when
// empty ("filename": "", which Discord's API description refuses: at least
// one character); attachmentRef sends only what an upload needs.
type messageEdit struct {
	Content         *string                           `json:"content"`
	Components      []discordgo.MessageComponent      `json:"components"`
	Attachments     []attachmentRef                   `json:"attachments"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

// attachmentRef lists an upload in an edit: its files[n] index and name.
type attachmentRef struct {
	ID       string `json:"id"`
	Filename string `json:"filename"`
}

func (k sink) edit(ctx context.Context, channelID, messageID string, m service.Message) error {
	text := content(m)
	// The attachments are the new uploads only: the old picture goes.
	atts := []attachmentRef{}
	for i, f := range m.Files {
		atts = append(atts, attachmentRef{ID: strconv.Itoa(i), Filename: f.Name})
	}
	// The message's buttons become m's (none: a settled challenge's are
	// taken away; the status message never has any).
	comps := components(service.Reply{Buttons: m.Buttons})
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	data := messageEdit{Content: &text, Components: comps, Attachments: atts,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}}
	endpoint, bucket := discordgo.EndpointChannelMessage(channelID, messageID), discordgo.EndpointChannelMessage(channelID, "")
	if len(m.Files) == 0 {
		_, err := k.s.RequestWithBucketID("PATCH", endpoint, data, bucket, discordgo.WithContext(ctx))
		return err
	}
	ct, body, err := discordgo.MultipartBodyWithJSON(data, discordFiles(m.Files))
	if err != nil {
		return delivery.Permanent(err)
	}
	_, err = k.s.RequestRaw("PATCH", endpoint, ct, body, bucket, 0, discordgo.WithContext(ctx))
	return err
}

// unarchive wakes an archived thread (anyone who may send there may, unless
// it is locked).
func (k sink) unarchive(ctx context.Context, threadID string) error {
	no := false
	_, err := k.s.ChannelEdit(threadID, &discordgo.ChannelEdit{Archived: &no}, discordgo.WithContext(ctx))
	return err
}

// DM sends a direct message in the user's DM channel, opened once and
// kept (dmChannels). A kept channel Discord no longer knows (Unknown
// Channel) is opened anew and the message sent there.
func (k sink) DM(ctx context.Context, userID string, m service.Message, nonce string) error {
	id, cached, err := k.dms.channel(ctx, k.s, userID)
	if err != nil {
		return classify(err)
	}
	_, err = k.send(ctx, id, m, nonce)
	if cached && failureOf(err) == delivery.Gone {
		k.dms.forget(ctx, userID, id)
		if id, _, err = k.dms.channel(ctx, k.s, userID); err != nil {
			return classify(err)
		}
		_, err = k.send(ctx, id, m, nonce)
	}
	return err
}

func (k sink) React(ctx context.Context, channelID, messageID, emoji string) error {
	err := k.s.MessageReactionAdd(channelID, messageID, emoji, discordgo.WithContext(ctx))
	if discordCode(err) == discordgo.ErrCodePerformedOperationOnArchivedThread && k.unarchive(ctx, channelID) == nil {
		err = k.s.MessageReactionAdd(channelID, messageID, emoji, discordgo.WithContext(ctx))
	}
	return classify(err)
}

// findSlack is how much older than the time Find is given a post may
// look: Discord stamps it with its own clock, the first attempt was
// recorded with ours.
const findSlack = 5 * time.Minute

// Find looks for a message of ours with the marker in the channel (or in
// the direct messages with userID), paging back from the newest message,
// 100 at a time, to since (the first attempt to send it: an older message
// cannot be it); with since zero, among the newest 100. Without Read
// Message History Discord returns no messages: then it finds nothing.
func (k sink) Find(ctx context.Context, channelID, userID, marker string, since time.Time) (string, error) {
	if channelID == "" { // a DM: the user's kept channel, opened only once
		id, _, err := k.dms.channel(ctx, k.s, userID)
		if err != nil {
			return "", classify(err)
		}
		channelID = id
	}
	me := k.s.State.User
	before := ""
	for {
		msgs, err := k.s.ChannelMessages(channelID, 100, before, "", "", discordgo.WithContext(ctx))
		if err != nil {
			return "", classify(err)
		}
		for _, m := range msgs {
			if (me == nil || m.Author == nil || m.Author.ID == me.ID) && strings.HasSuffix(m.Content, "\n-# "+marker) {
				return m.ID, nil
			}
		}
		if len(msgs) < 100 || since.IsZero() {
			return "", nil // the channel's beginning, or as far as asked
		}
		oldest := msgs[len(msgs)-1]
		if oldest.Timestamp.Before(since.Add(-findSlack)) {
			return "", nil
		}
		before = oldest.ID
	}
}

// classifyRefused reports whether Discord refused the token (401).
func classifyRefused(err error) bool { return failureOf(classify(err)) == delivery.Refused }

func failureOf(err error) delivery.Failure {
	var de *delivery.DeliveryError
	if errors.As(err, &de) {
		return de.Failure
	}
	return 0
}
