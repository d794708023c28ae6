package fakediscord_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
)

// TestEditAttachmentsAsDiscordRefuses edits a message that has one picture
// with the attachment lists Discord's API description (MessageAttachmentRequest)
// and its reference (Uploading Files) accept and refuse.
func TestEditAttachmentsAsDiscordRefuses(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	dg := srv.Session("test-token")
	m, err := dg.ChannelMessageSendComplex(srv.ChannelID, &discordgo.MessageSend{
		Content: "board",
		Files:   []*discordgo.File{{Name: "old.png", ContentType: "image/png", Reader: bytes.NewReader(pngBytes(t))}},
	})
	if err != nil || len(m.Attachments) != 1 {
		t.Fatalf("send: %+v, %v", m, err)
	}
	for _, c := range []struct {
		name        string
		attachments string // the edit's attachments, JSON
		upload      string // the name of a files[0] upload; "-" for none
		field       string // the field refused; "" when accepted
	}{
		// What the bot sends: the upload's index and its name.
		{"upload with its name", `[{"id":"0","filename":"new.png"}]`, "new.png", ""},
		// The description requires only id; a number is taken as well.
		{"upload without filename", `[{"id":0}]`, "new.png", ""},
		{"filename null", `[{"id":"0","filename":null}]`, "new.png", ""},
		// Keeping the message's picture (OLD: its id) needs no upload.
		{"keep the old picture", `[{"id":"OLD"}]`, "-", ""},
		// discordgo's MessageAttachment with only ID set: minLength 1.
		{"empty filename", `[{"id":"0","url":"","proxy_url":"","filename":"","content_type":"","width":0,"height":0,"size":0,"ephemeral":false,"duration_secs":0,"waveform":"","flags":0}]`, "new.png", "attachments.0.filename"},
		{"filename too long", `[{"id":"0","filename":"` + strings.Repeat("a", 1025) + `"}]`, "new.png", "attachments.0.filename"},
		{"no id", `[{"filename":"new.png"}]`, "-", "attachments.0.id"},
		{"id not a snowflake", `[{"id":"zero"}]`, "-", "attachments.0.id"},
		// files[1] was not uploaded, and 7 is no attachment of the message.
		{"id with no upload", `[{"id":"1","filename":"new.png"},{"id":"0","filename":"new.png"}]`, "new.png", "attachments.0.id"},
		{"id of no attachment", `[{"id":"7"}]`, "-", "attachments.0.id"},
		// "All files[n] parameters must include ... a filename".
		{"upload without a name", `[{"id":"0"}]`, "", "files[0]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			payload := map[string]any{"content": "board (" + c.name + ")"}
			var atts any
			old := srv.Message(m.ID).Attachments[0].ID
			if err := json.Unmarshal([]byte(strings.ReplaceAll(c.attachments, "OLD", old)), &atts); err != nil {
				t.Fatal(err)
			}
			payload["attachments"] = atts
			endpoint := discordgo.EndpointChannelMessage(srv.ChannelID, m.ID)
			if c.upload == "-" {
				_, err = dg.RequestWithBucketID("PATCH", endpoint, payload, endpoint)
			} else {
				ct, body, merr := discordgo.MultipartBodyWithJSON(payload, []*discordgo.File{{Name: c.upload, ContentType: "image/png", Reader: bytes.NewReader(pngBytes(t))}})
				if merr != nil {
					t.Fatal(merr)
				}
				_, err = dg.RequestRaw("PATCH", endpoint, ct, body, endpoint, 0)
			}
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got := srv.Message(m.ID); got.Content != payload["content"] || len(got.Attachments) != 1 {
					t.Fatalf("after the edit: %q with %d attachments, want the new content and one picture", got.Content, len(got.Attachments))
				}
				return
			}
			if restCode(err) != 50035 {
				t.Fatalf("err = %v, want 50035 Invalid Form Body", err)
			}
			refused := false
			for _, v := range srv.Violations() {
				refused = refused || (v.Field == c.field && strings.HasPrefix(srv.Requests()[v.Seq-1].JSON()["content"].(string), "board ("+c.name))
			}
			if !refused {
				t.Fatalf("no violation of %s in %v", c.field, srv.Violations())
			}
			if got := srv.Message(m.ID); got.Content == payload["content"] {
				t.Fatal("the refused edit took effect")
			}
		})
	}
}

// TestUploadSizeLimit: Discord takes files of up to 10 MiB each
// (developers/reference.mdx, Uploading Files) and refuses a larger one
// with 413 and 40005 Request entity too large.
func TestUploadSizeLimit(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	dg := srv.Session("test-token")
	for _, c := range []struct {
		size int
		code int // 0: accepted
	}{
		{10 << 20, 0},       // exactly 10 MiB
		{10<<20 + 1, 40005}, // a byte more
	} {
		_, err := dg.ChannelMessageSendComplex(srv.ChannelID, &discordgo.MessageSend{
			Content: "export",
			Files:   []*discordgo.File{{Name: "game.json", ContentType: "application/json", Reader: bytes.NewReader(make([]byte, c.size))}},
		})
		var re *discordgo.RESTError
		switch {
		case c.code == 0 && err != nil:
			t.Errorf("%d bytes: %v", c.size, err)
		case c.code != 0 && (!errors.As(err, &re) || re.Response.StatusCode != 413 || restCode(err) != c.code):
			t.Errorf("%d bytes: err = %v, want 413 %d", c.size, err, c.code)
		}
	}
	if n := len(srv.Messages(srv.ChannelID)); n != 1 {
		t.Errorf("%d messages, want the one of 10 MiB", n)
	}
}
