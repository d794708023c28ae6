package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"tessera/service"
)

// deferral says how an interaction's answer was deferred: not at all, with
// a public loading message, or with a private (ephemeral) one.
type deferral int

const (
	notDeferred deferral = iota
	deferredPublic
	deferredPrivate
	// deferredUpdate: a button's answer that replaces its message was
	// acknowledged (type 6) and is edited into that message.
	deferredUpdate
)

// answeredPrivately replaces a public loading message whose answer turned
// out to be private, before the private answer follows (and the loading
// message is deleted): the private text never appears in public, even when
// the deletion fails.
const answeredPrivately = "Answered privately."

// answer runs a command and answers the interaction: directly when the
// command is quick; otherwise it defers within the time limit and edits
// the answer in. public says whether the command's answer is normally
// public (a challenge, a board); everything else defers privately, so a
// private answer (a hand) is only ever written into a private message. On
// Discord the first follow-up after a deferral edits the loading message
// and keeps its visibility, whatever flags the follow-up asks for.
//
// A quick answer that carries a file is deferred too (with the answer's
// own visibility, or, for a button's answer that replaces its message,
// as an update: type 6) and edited in: Discord must have the first
// answer within 3 s of the interaction, and an upload (a replay GIF, an
// export) can take longer than what is left of them.
func (b *Bot) answer(ctx context.Context, i *discordgo.Interaction, public bool, do func() (service.Reply, error)) {
	done := make(chan service.Reply, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("panic in a command", "panic", p, "stack", string(debug.Stack()))
				done <- b.svc.Fail(fmt.Errorf("panic: %v", p))
			}
		}()
		r, err := do()
		if err != nil {
			r = b.svc.Fail(err)
		}
		done <- r
	}()
	// The deferral counts from when Discord made the interaction
	// (deadline.go): one that arrives old is deferred at once.
	if wait := b.untilDeferral(i); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case r := <-done:
			if len(r.Files) == 0 {
				b.respond(ctx, i, r, notDeferred)
				return
			}
			d := deferredPublic
			switch {
			case r.Update && i.Type == discordgo.InteractionMessageComponent:
				d = deferredUpdate
			case r.Ephemeral:
				d = deferredPrivate
			}
			if err := b.deferAnswer(i, d); err != nil {
				b.lateAnswer(i, r, err)
				return
			}
			b.respond(ctx, i, r, d)
			return
		case <-t.C:
		}
	}
	d := deferredPublic
	if !public {
		d = deferredPrivate
	}
	err := b.deferAnswer(i, d)
	r := <-done
	if err != nil {
		b.lateAnswer(i, r, err)
		return
	}
	b.respond(ctx, i, r, d)
}

// deferAnswer sends the loading message (type 5), public or private as d
// says, or for an update the acknowledgement that the button's message
// will be edited (type 6, no loading message); an earlier try that
// reached Discord (40060) counts as sent.
func (b *Bot) deferAnswer(i *discordgo.Interaction, d deferral) error {
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Data: &discordgo.InteractionResponseData{}}
	switch d {
	case deferredPrivate:
		resp.Data.Flags = discordgo.MessageFlagsEphemeral
	case deferredUpdate:
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	err := retry5xx(func() error { return b.initial(i, resp) })
	if discordCode(err) == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		return nil // our first try reached Discord; its answer was lost
	}
	return err
}

// lateAnswer logs an interaction Discord no longer takes (10062 Unknown
// interaction: answered after 3 s, or a token that expired): the command
// itself was applied and stays applied; the player sees "the application
// did not respond" and can look with /games or /board.
func (b *Bot) lateAnswer(i *discordgo.Interaction, r service.Reply, err error) {
	applied, _, _ := strings.Cut(r.Text, "\n")
	if len(r.Files) > 0 {
		applied = "(a picture)" // a hand is nobody's business but its owner's
	}
	b.log.Error("Discord refused the answer to an interaction; what the command did stays done", "interaction", i.ID, "err", err, "applied", applied)
}

// components lays the buttons out in rows of 5; Discord allows 5 rows.
func components(r service.Reply) []discordgo.MessageComponent {
	if len(r.Buttons) == 0 {
		return nil
	}
	var rows []discordgo.MessageComponent
	row := discordgo.ActionsRow{}
	for i, bt := range r.Buttons {
		if i == 25 {
			break
		}
		if i > 0 && i%5 == 0 {
			rows = append(rows, row)
			row = discordgo.ActionsRow{}
		}
		if bt.URL != "" { // a link button: Discord opens the URL, sends us nothing
			row.Components = append(row.Components, discordgo.Button{Label: bt.Label, Style: discordgo.LinkButton, URL: bt.URL})
			continue
		}
		style := discordgo.PrimaryButton
		switch bt.Style {
		case service.Secondary:
			style = discordgo.SecondaryButton
		case service.Success:
			style = discordgo.SuccessButton
		case service.Danger:
			style = discordgo.DangerButton
		}
		row.Components = append(row.Components, discordgo.Button{Label: bt.Label, Style: style, CustomID: bt.ID})
	}
	return append(rows, row)
}

func files(r service.Reply) []*discordgo.File { return discordFiles(r.Files) }

// allowed pings exactly the reply's mentions, nobody else (no @everyone,
// no roles).
func allowed(r service.Reply) *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: r.Mentions}
}

// maxContent is Discord's limit on a message's content, in characters.
const maxContent = 2000

// limit keeps a message within Discord's 2000 characters, cutting between
// characters (never inside one) and marking the cut with "…".
func limit(s string) string { return limitTo(s, maxContent) }

// limitTo keeps s within max characters (max >= 1); invalid UTF-8 is
// replaced, so the result is always valid.
func limitTo(s string, max int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// discordCode is Discord's JSON error code of a failed request (0 if none).
func discordCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// respond sends a reply to an interaction answered as d says.
func (b *Bot) respond(ctx context.Context, i *discordgo.Interaction, r service.Reply, d deferral) {
	r = service.RenderReply(r, Presenter{})
	content, comps := limit(r.Text), components(r)
	var msgID string // the answer's message, when Discord told us
	var err error
	switch {
	case d == notDeferred:
		err = retry5xx(func() error {
			data := &discordgo.InteractionResponseData{Content: content, Components: comps, Files: files(r), AllowedMentions: allowed(r)}
			typ := discordgo.InteractionResponseChannelMessageWithSource
			if r.Update && i.Type == discordgo.InteractionMessageComponent {
				typ = discordgo.InteractionResponseUpdateMessage // a page turn, in place
				if data.Components == nil {
					data.Components = []discordgo.MessageComponent{}
				}
			} else if r.Ephemeral {
				data.Flags = discordgo.MessageFlagsEphemeral
			}
			return b.initial(i, &discordgo.InteractionResponse{Type: typ, Data: data})
		})
		if discordCode(err) == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
			// 40060: an earlier try of this answer reached Discord and only
			// its reply was lost, so the answer is there.
			b.log.Info("Discord already had this answer (40060); treated as delivered", "interaction", i.ID)
			err = nil
		}
	case d == deferredUpdate:
		// The button's message is the original: edit the page in, with
		// its file, as an update (type 7) would have.
		if comps == nil {
			comps = []discordgo.MessageComponent{}
		}
		err = retry5xx(func() error {
			_, err := b.session.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content, Components: &comps, Files: files(r), AllowedMentions: allowed(r)})
			return err
		})
	case (d == deferredPrivate) == r.Ephemeral:
		// Same visibility as the loading message: edit it in.
		err = retry5xx(func() error {
			m, err := b.session.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content, Components: &comps, Files: files(r), AllowedMentions: allowed(r)})
			if err == nil {
				msgID = m.ID
			}
			return err
		})
	case d == deferredPrivate:
		// A public answer after a private deferral (a command that is
		// usually private answered publicly): close the private loading
		// message, then post the answer as a follow-up, which is public.
		note := "Done; see the channel."
		if _, err := b.session.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &note}); err != nil {
			b.log.Warn("closing a private loading message failed", "err", err)
		}
		var m *discordgo.Message
		m, err = b.session.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: content, Components: comps, Files: files(r), AllowedMentions: allowed(r)})
		if err == nil {
			msgID = m.ID
		}
	default:
		// A private answer after a public deferral (an error in a public
		// command): the public loading message first says only that the
		// answer is private; the answer follows privately; the loading
		// message is removed.
		note := answeredPrivately
		if _, err := b.session.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &note}); err != nil {
			b.log.Warn("closing a public loading message failed", "err", err)
			// Without that edit the follow-up would become the public
			// loading message's content: do not send it.
			b.lateAnswer(i, r, err)
			return
		}
		_, err = b.session.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: content, Components: comps, Files: files(r), AllowedMentions: allowed(r), Flags: discordgo.MessageFlagsEphemeral})
		if derr := b.session.InteractionResponseDelete(i); derr != nil {
			b.log.Warn("deleting a public loading message failed; it says only that the answer was private", "err", derr)
		}
	}
	if err != nil {
		if c := discordCode(err); c == discordgo.ErrCodeUnknownInteraction || c == discordgo.ErrCodeInvalidWebhookTokenProvided || c == discordgo.ErrCodeUnknownWebhook {
			b.lateAnswer(i, r, err)
		} else {
			b.log.Error("answering an interaction failed", "err", err, "interaction", i.ID)
		}
		return
	}
	if r.Challenge == 0 && r.Event == 0 {
		return
	}
	// The game's (or the tournament's) thread will start from this
	// message, and its buttons are edited there.
	if msgID == "" {
		m, err := b.session.InteractionResponse(i)
		if err != nil {
			b.log.Warn("reading the message just answered failed", "err", err, "challenge", r.Challenge, "event", r.Event)
			return
		}
		msgID = m.ID
	}
	if err := b.svc.Answered(ctx, r, i.ChannelID, msgID); err != nil {
		b.log.Warn("recording the message just answered failed", "err", err, "challenge", r.Challenge, "event", r.Event)
	}
}
