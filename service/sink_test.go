package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"tessera/delivery"
	"tessera/service"
)

// sent is one delivery to the fake transport.
type sent struct {
	Kind    string // thread, post, edit, dm, react
	Channel string
	User    string
	ID      string
	From    string // a thread's starter message ("" for a thread of its own)
	Msg     service.Message
	Nonce   string
}

// fakeSink is a transport that records deliveries; it honours nonces like
// Discord (a repeated nonce in a channel does not post twice) and can fail.
type fakeSink struct {
	mu       sync.Mutex
	log      []sent
	nonces   map[string]string
	n        int
	fail     error            // next deliveries fail with this while set
	editFail map[string]error // edits of these message ids fail so
	dmClosed map[string]bool
}

// testPresenter renders the service's words as Discord's mentions, the
// rest plainly, so that the tests see who is pinged.
type testPresenter struct{ service.Plain }

func (testPresenter) Mention(u service.User) string { return "<@" + u.ID + ">" }

// Presenter is the fake transport's.
func (*fakeSink) Presenter() service.Presenter { return testPresenter{} }

func newSink() *fakeSink { return &fakeSink{nonces: map[string]string{}, dmClosed: map[string]bool{}} }

func (f *fakeSink) id() string { f.n++; return fmt.Sprint("m", f.n) }

func (f *fakeSink) Thread(_ context.Context, channel, from, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return "", f.fail
	}
	id := "thread-" + f.id()
	f.log = append(f.log, sent{Kind: "thread", Channel: channel, ID: id, From: from, Msg: service.Message{Text: name}})
	return id, nil
}

func (f *fakeSink) Post(_ context.Context, channel string, m service.Message, nonce string) (string, error) {
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
	f.log = append(f.log, sent{Kind: "post", Channel: channel, ID: id, Msg: m, Nonce: nonce})
	return id, nil
}

func (f *fakeSink) Edit(_ context.Context, channel, id string, m service.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	if err := f.editFail[id]; err != nil {
		return err
	}
	f.log = append(f.log, sent{Kind: "edit", Channel: channel, ID: id, Msg: m})
	return nil
}

func (f *fakeSink) DM(_ context.Context, user string, m service.Message, nonce string) error {
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
	f.log = append(f.log, sent{Kind: "dm", User: user, Msg: m, Nonce: nonce})
	return nil
}

func (f *fakeSink) React(_ context.Context, channel, id, emoji string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	f.log = append(f.log, sent{Kind: "react", Channel: channel, ID: id, Msg: service.Message{Text: emoji}})
	return nil
}

// take returns and forgets what was delivered so far.
func (f *fakeSink) take() []sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.log
	f.log = nil
	return out
}

// of filters deliveries by kind.
func of(log []sent, kind string) []sent {
	var out []sent
	for _, s := range log {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// dmsTo filters direct messages to a user.
func dmsTo(log []sent, user string) []sent {
	var out []sent
	for _, s := range of(log, "dm") {
		if s.User == user {
			out = append(out, s)
		}
	}
	return out
}

func texts(log []sent) string {
	var b strings.Builder
	for _, s := range log {
		fmt.Fprintf(&b, "[%s %s%s] %s\n", s.Kind, s.Channel, s.User, s.Msg.Text)
	}
	return b.String()
}
