package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"tessera/service"
)

// sink delivers the service's announcements to Discord.
type sink struct{ s *discordgo.Session }

// classify makes Discord's refusals permanent: a 4xx other than 429 will
// not succeed on a retry (DMs closed, a deleted channel, no permission).
func classify(err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 && re.Response.StatusCode != http.StatusTooManyRequests {
		return service.Permanent(err)
	}
	return err
}

func discordFiles(fs []service.File) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range fs {
		out = append(out, &discordgo.File{Name: f.Name, ContentType: contentType(f.Name), Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// Thread starts the game's thread from the challenge message when there is
// one: Discord allows one thread per message, and the thread takes the
// message's id, so a repeated attempt finds the same thread.
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
		if classify(err) == err { // transient
			return "", err
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

func (k sink) send(ctx context.Context, channelID string, m service.Message, nonce string) (string, error) {
	data := message{Content: limit(m.Text), Nonce: nonce, EnforceNonce: nonce != "",
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
			return "", service.Permanent(err)
		}
		body, err = k.s.RequestRaw("POST", endpoint, ct, b, endpoint, 0, discordgo.WithContext(ctx))
		if err != nil {
			return "", classify(err)
		}
	} else {
		body, err = k.s.RequestWithBucketID("POST", endpoint, data, endpoint, discordgo.WithContext(ctx))
		if err != nil {
			return "", classify(err)
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

// Edit replaces the message's text and its picture.
func (k sink) Edit(ctx context.Context, channelID, messageID string, m service.Message) error {
	content := limit(m.Text)
	none := []*discordgo.MessageAttachment{}
	_, err := k.s.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Content: &content, Files: discordFiles(m.Files), Attachments: &none,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}},
	}, discordgo.WithContext(ctx))
	return classify(err)
}

func (k sink) DM(ctx context.Context, userID string, m service.Message, nonce string) error {
	ch, err := k.s.UserChannelCreate(userID, discordgo.WithContext(ctx))
	if err != nil {
		return classify(err)
	}
	_, err = k.send(ctx, ch.ID, m, nonce)
	return err
}

func (k sink) React(ctx context.Context, channelID, messageID, emoji string) error {
	return classify(k.s.MessageReactionAdd(channelID, messageID, emoji, discordgo.WithContext(ctx)))
}
