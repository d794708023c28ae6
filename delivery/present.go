package delivery

import (
	"context"

	"tessera/service"
)

// Presenting is what a Sink may also be, and every transport's is: one
// with a presenter of its own (Discord's "<@id>" and "<t:...>", the
// console's "@name", mail's names and dates). The service writes its texts
// with neutral tokens (service.Presenter); the courier renders each
// message through its Sink's presenter just before handing it over, so
// that one outbox serves any transport. A Sink without one gets
// service.Plain.
type Presenting interface {
	Presenter() service.Presenter
}

// presenterOf is sink's presenter, or service.Plain.
func presenterOf(sink Sink) service.Presenter {
	if p, ok := sink.(Presenting); ok {
		if pr := p.Presenter(); pr != nil {
			return pr
		}
	}
	return service.Plain{}
}

// presented is a Sink whose messages are rendered through the transport's
// presenter on their way in. The courier wraps the transport's Sink in it
// for a delivery, and asks the transport's own Sink (Unwrap) for what it
// may also do (Finder, StarterRecorder).
type presented struct {
	inner Sink
	p     service.Presenter
}

func present(sink Sink) Sink {
	if _, ok := sink.(presented); ok {
		return sink
	}
	return presented{inner: sink, p: presenterOf(sink)}
}

// unwrap is the transport's own Sink.
func unwrap(sink Sink) Sink {
	if p, ok := sink.(presented); ok {
		return p.inner
	}
	return sink
}

func (s presented) Thread(ctx context.Context, channelID, fromID, name string) (string, error) {
	return s.inner.Thread(ctx, channelID, fromID, service.Render(name, s.p))
}

func (s presented) Post(ctx context.Context, channelID string, m service.Message, nonce string) (string, error) {
	return s.inner.Post(ctx, channelID, service.RenderMessage(m, s.p), nonce)
}

func (s presented) Edit(ctx context.Context, channelID, messageID string, m service.Message) error {
	return s.inner.Edit(ctx, channelID, messageID, service.RenderMessage(m, s.p))
}

func (s presented) DM(ctx context.Context, userID string, m service.Message, nonce string) error {
	return s.inner.DM(ctx, userID, service.RenderMessage(m, s.p), nonce)
}

func (s presented) React(ctx context.Context, channelID, messageID, emoji string) error {
	return s.inner.React(ctx, channelID, messageID, emoji)
}
