// Package deliverytest is a fake transport for the tests of the courier
// and of the service: a delivery.Sink that records what it was given,
// honours nonces as Discord does, and fails on request. It is imported
// by tests only (architecture_test.go).
package deliverytest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"tessera/delivery"
	"tessera/service"
)

// Sent is one delivery to the fake transport.
type Sent struct {
	Kind    string // thread, post, edit, dm, react
	Channel string
	User    string
	ID      string
	From    string // a thread's starter message ("" for a thread of its own)
	Msg     service.Message
	Nonce   string
}

// FakeSink is a transport that records deliveries; it honours nonces like
// Discord (a repeated nonce in a channel does not post twice) and can fail.
type FakeSink struct {
	mu       sync.Mutex
	log      []Sent
	nonces   map[string]string
	n        int
	fail     error            // next deliveries fail with this while set
	editFail map[string]error // edits of these message ids fail so
	dmClosed map[string]bool
}

// Presenter renders the service's words as Discord's mentions, the
// rest plainly, so that the tests see who is pinged.
type Presenter struct{ service.Plain }

func (Presenter) Mention(u service.User) string { return "<@" + u.ID + ">" }

// Presenter is the fake transport's.
func (*FakeSink) Presenter() service.Presenter { return Presenter{} }

// NewSink returns an empty FakeSink.
func NewSink() *FakeSink { return &FakeSink{nonces: map[string]string{}, dmClosed: map[string]bool{}} }

func (f *FakeSink) id() string { f.n++; return fmt.Sprint("m", f.n) }

func (f *FakeSink) Thread(_ context.Context, channel, from, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return "", f.fail
	}
	id := "thread-" + f.id()
	f.log = append(f.log, Sent{Kind: "thread", Channel: channel, ID: id, From: from, Msg: service.Message{Text: name}})
	return id, nil
}

func (f *FakeSink) Post(_ context.Context, channel string, m service.Message, nonce string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return "", f.fail
	}
	if id, ok := f.nonces[channel+nonce]; ok {
		return id, nil
	}
	id := f.id()
	f.nonces[channel+nonce] = id
	f.log = append(f.log, Sent{Kind: "post", Channel: channel, ID: id, Msg: m, Nonce: nonce})
	return id, nil
}

func (f *FakeSink) Edit(_ context.Context, channel, id string, m service.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	if err := f.editFail[id]; err != nil {
		return err
	}
	f.log = append(f.log, Sent{Kind: "edit", Channel: channel, ID: id, Msg: m})
	return nil
}

func (f *FakeSink) DM(_ context.Context, user string, m service.Message, nonce string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	if f.dmClosed[user] {
		return delivery.Permanent(errors.New("Cannot send messages to this user"))
	}
	if _, ok := f.nonces["dm"+user+nonce]; ok {
		return nil
	}
	f.nonces["dm"+user+nonce] = "x"
	f.log = append(f.log, Sent{Kind: "dm", User: user, Msg: m, Nonce: nonce})
	return nil
}

func (f *FakeSink) React(_ context.Context, channel, id, emoji string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	f.log = append(f.log, Sent{Kind: "react", Channel: channel, ID: id, Msg: service.Message{Text: emoji}})
	return nil
}

// Take returns and forgets what was delivered so far.
func (f *FakeSink) Take() []Sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.log
	f.log = nil
	return out
}

// Of filters deliveries by kind.
func Of(log []Sent, kind string) []Sent {
	var out []Sent
	for _, s := range log {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// DMsTo filters direct messages to a user.
func DMsTo(log []Sent, user string) []Sent {
	var out []Sent
	for _, s := range Of(log, "dm") {
		if s.User == user {
			out = append(out, s)
		}
	}
	return out
}

// Texts lists deliveries one a line, for a failing test's message.
func Texts(log []Sent) string {
	var b strings.Builder
	for _, s := range log {
		fmt.Fprintf(&b, "[%s %s%s] %s\n", s.Kind, s.Channel, s.User, s.Msg.Text)
	}
	return b.String()
}

// Fail makes every delivery fail with err until Fail(nil).
func (f *FakeSink) Fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = err
}

// FailEdits makes the edits of these message ids fail with their error.
func (f *FakeSink) FailEdits(errs map[string]error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.editFail = errs
}

// CloseDMs makes direct messages to user fail as Discord refuses them
// when the user allows none from the bot.
func (f *FakeSink) CloseDMs(user string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dmClosed[user] = true
}
