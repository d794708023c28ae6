package fakediscord_test

import (
	"errors"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
)

// send posts a message with a nonce (discordgo's MessageSend cannot).
func send(dg *discordgo.Session, channelID, content, nonce string) (*discordgo.Message, error) {
	body := map[string]any{"content": content, "nonce": nonce, "enforce_nonce": true}
	var m discordgo.Message
	raw, err := dg.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(channelID), body, discordgo.EndpointChannelMessages(channelID))
	if err != nil {
		return nil, err
	}
	return &m, discordgo.Unmarshal(raw, &m)
}

func TestNonceForgottenAfterWindow(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")
	a, _ := send(dg, srv.ChannelID, "one", "n1")
	b, _ := send(dg, srv.ChannelID, "one again", "n1")
	if a.ID != b.ID {
		t.Fatal("a repeated nonce within the window made a second message")
	}
	srv.Advance(fakediscord.DefaultNonceWindow + time.Second)
	c, _ := send(dg, srv.ChannelID, "one later", "n1")
	if c.ID == a.ID || len(srv.Messages(srv.ChannelID)) != 2 {
		t.Fatal("a nonce older than the window still protects")
	}
}

func TestPermissionsAndDeletions(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")
	srv.DenyBot(srv.ChannelID, discordgo.PermissionSendMessages)
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "hi"); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Fatalf("no Send Messages: %v", err)
	}
	srv.DenyBot(srv.ChannelID, discordgo.PermissionViewChannel)
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "hi"); restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Fatalf("no View Channel: %v", err)
	}
	srv.SetBotPermissions(srv.ChannelID, fakediscord.AllPermissions)
	m, err := dg.ChannelMessageSend(srv.ChannelID, "hi")
	if err != nil {
		t.Fatal(err)
	}
	srv.DeleteMessage(m.ID)
	if _, err := dg.ChannelMessageEdit(srv.ChannelID, m.ID, "edited"); restCode(err) != discordgo.ErrCodeUnknownMessage {
		t.Fatalf("edit of a deleted message: %v", err)
	}
	srv.DeleteChannel(srv.ChannelID)
	if _, err := dg.ChannelMessageSend(srv.ChannelID, "hi"); restCode(err) != discordgo.ErrCodeUnknownChannel {
		t.Fatalf("post to a deleted channel: %v", err)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("refusals the test caused are not violations: %v", v)
	}
}

func TestThreadArchiveAndLock(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	dg := srv.Session("test-token")
	th, err := dg.ThreadStartComplex(srv.ChannelID, &discordgo.ThreadStart{Name: "t", AutoArchiveDuration: 60, Type: discordgo.ChannelTypeGuildPublicThread})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := dg.ChannelMessageSend(th.ID, "first")
	srv.Advance(59 * time.Minute)
	if archived, _ := srv.ThreadState(th.ID); archived {
		t.Fatal("archived before its auto_archive_duration")
	}
	srv.Advance(2 * time.Minute)
	if archived, _ := srv.ThreadState(th.ID); !archived {
		t.Fatal("not archived after its auto_archive_duration")
	}
	if _, err := dg.ChannelMessageEdit(th.ID, m.ID, "edited"); restCode(err) != discordgo.ErrCodePerformedOperationOnArchivedThread {
		t.Fatalf("edit in an archived thread: %v", err)
	}
	if _, err := dg.ChannelMessageSend(th.ID, "wake up"); err != nil {
		t.Fatalf("a post unarchives: %v", err)
	}
	if archived, _ := srv.ThreadState(th.ID); archived {
		t.Fatal("still archived after a post")
	}
	srv.LockThread(th.ID)
	if _, err := dg.ChannelMessageSend(th.ID, "locked"); restCode(err) != discordgo.ErrCodeThreadIsLocked {
		t.Fatalf("post in a locked thread: %v", err)
	}
	srv.ArchiveThread(th.ID)
	no := false
	if _, err := dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no}); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Fatalf("unarchiving a locked thread without MANAGE_THREADS: %v", err)
	}
}

func TestTokenResetRefusesOldToken(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.WithToken("old"))
	dg := srv.Session("old")
	if _, err := dg.User("@me"); err != nil {
		t.Fatal(err)
	}
	srv.ResetToken("new")
	_, err := dg.User("@me")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 401 {
		t.Fatalf("old token after a reset: %v", err)
	}
	if _, err := srv.Session("new").User("@me"); err != nil {
		t.Fatalf("new token: %v", err)
	}
}
