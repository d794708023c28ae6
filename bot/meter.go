package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Meter is what the bot reports for the operators' metrics (package
// metrics implements it; Options.Meter, nil: nothing). Its methods must
// not block.
type Meter interface {
	// DiscordRateLimited counts a 429 from Discord; scope is its
	// X-RateLimit-Scope ("user", "global", "shared"; "" when absent).
	DiscordRateLimited(scope string)
	// DiscordRetried counts a request Discord refused for the moment (a
	// 429, or a 5xx of its own), which is sent again: by discordgo after
	// a 429's Retry-After, by the courier's back-off otherwise.
	DiscordRetried()
}

type noMeter struct{}

func (noMeter) DiscordRateLimited(string) {}
func (noMeter) DiscordRetried()           {}

// meterTransport reports Discord's refusals of base's requests to m.
type meterTransport struct {
	base http.RoundTripper
	m    Meter
}

func (t meterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		t.m.DiscordRateLimited(resp.Header.Get("X-RateLimit-Scope"))
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		t.m.DiscordRetried()
	}
	return resp, nil
}

// Ready says whether the bot takes commands now, for /healthz: nil once
// its commands are registered and, over the gateway, every shard's
// connection is up (discordgo's heartbeat keeps DataReady); an error
// saying what is down otherwise. A bot that takes interactions over HTTP
// only is ready once Open has registered its commands (its endpoint is
// served by Run, which the process starts at once).
func (b *Bot) Ready(ctx context.Context) error {
	select {
	case <-b.ready:
	default:
		return errors.New("not connected to Discord yet")
	}
	select {
	case <-b.stop:
		return errors.New("the bot is stopping")
	default:
	}
	if b.opt.NoGateway {
		return nil
	}
	for i, s := range b.sessions() {
		s.RLock()
		up := s.DataReady
		s.RUnlock()
		if !up {
			return fmt.Errorf("gateway shard %d is not connected", i)
		}
	}
	return ctx.Err()
}

// transportOr is t, or http.DefaultTransport when t is nil.
func transportOr(t http.RoundTripper) http.RoundTripper {
	if t == nil {
		return http.DefaultTransport
	}
	return t
}
