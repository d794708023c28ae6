package fakediscord_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
)

// endpoint is a test's Interactions Endpoint: it answers PING and checks
// every signature against the fake's public key, then lets answer write
// the response to each interaction.
type endpoint struct {
	t      *testing.T
	key    ed25519.PublicKey
	mu     sync.Mutex
	answer func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction)
	got    []*discordgo.Interaction
}

func newEndpoint(t *testing.T, srv *fakediscord.Server) *endpoint {
	raw, err := hex.DecodeString(srv.PublicKey())
	if err != nil || len(raw) != ed25519.PublicKeySize {
		t.Fatalf("public key %q", srv.PublicKey())
	}
	e := &endpoint{t: t, key: raw}
	hs := httptest.NewServer(e)
	t.Cleanup(hs.Close)
	if err := srv.SetInteractionsEndpoint(hs.URL); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	ts := r.Header.Get("X-Signature-Timestamp")
	e.mu.Lock()
	key := e.key
	e.mu.Unlock()
	if err != nil || len(sig) != ed25519.SignatureSize || !ed25519.Verify(key, append([]byte(ts), body...), sig) {
		w.WriteHeader(401)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		e.t.Errorf("the fake sent %s", body)
		return
	}
	if i.Type == discordgo.InteractionPing {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":1}`)
		return
	}
	e.mu.Lock()
	e.got = append(e.got, &i)
	answer := e.answer
	e.mu.Unlock()
	answer(w, r, &i)
}

func (e *endpoint) set(answer func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction)) {
	e.mu.Lock()
	e.answer = answer
	e.mu.Unlock()
}

func jsonAnswer(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, body)
}

// rules are the violations' rules, in order.
func rules(srv *fakediscord.Server) []string {
	var out []string
	for _, v := range srv.Violations() {
		out = append(out, v.Rule)
	}
	return out
}

func TestHTTPInteractions(t *testing.T) {
	t.Parallel()
	// Discord's own 3 s deadline: the late answer below waits until the
	// fake has given up on it, so no answer depends on the machine's speed.
	// The endpoint that never answers is given up at the deadline.
	srv := fakediscord.New(t, fakediscord.AllowViolations(), fakediscord.WithWallClockDeadline())
	e := newEndpoint(t, srv)
	dg := srv.Session("test-token") // REST only: no gateway session at all

	// An answer in the response: applied as a callback, recorded inline.
	e.set(func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction) {
		jsonAnswer(w, `{"type":4,"data":{"content":"hello"}}`)
	})
	sent := srv.Slash("games").Send(t)
	r := sent.Response(t)
	if r.Type != 4 || r.Original == nil || r.Original.Content != "hello" {
		t.Fatalf("inline answer: %+v", r)
	}
	if got := e.got[len(e.got)-1]; got.ID != sent.ID || got.Token != sent.Token || got.ApplicationCommandData().Name != "games" {
		t.Fatalf("delivered %+v", got)
	}
	reqs := srv.RequestsTo("POST /interactions/*/*/callback")
	if len(reqs) != 1 || !reqs[0].Inline || reqs[0].Status != 200 {
		t.Fatalf("recorded: %v", reqs)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("violations: %v", v)
	}

	// A deferral in the response, edited over REST at once: the edit waits
	// for the response to be applied (else it would be 10015, not yet
	// acknowledged).
	edited := make(chan error, 1)
	e.set(func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction) {
		go func() {
			content := "done"
			_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
			edited <- err
		}()
		// The edit is on its way first.
		srv.WaitArrival(t, func(q fakediscord.Request) bool { return q.Method == "PATCH" && strings.Contains(q.Path, i.Token) }, 0)
		jsonAnswer(w, `{"type":5,"data":{"flags":64}}`)
	})
	r = srv.Slash("games").Send(t).Wait(t, func(r fakediscord.InteractionResponse) bool {
		return r.Original != nil && r.Original.Content == "done"
	})
	if err := <-edited; err != nil || r.Type != 5 || r.Original.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("deferred then edited: %v %+v", err, r)
	}

	// A callback on the endpoint, then 202: right.
	e.set(func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction) {
		if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "by callback"}}); err != nil {
			t.Error(err)
		}
		w.WriteHeader(202)
	})
	sent = srv.Slash("games").Send(t)
	srv.WaitArrival(t, func(q fakediscord.Request) bool { return q.Inline && strings.Contains(q.Path, sent.ID) }, 0)
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("callback then 202: %v", v)
	}

	// What Discord would not take, one violation each.
	for _, c := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction)
		rule   string
	}{
		{"202 without a callback", func(w http.ResponseWriter, _ *http.Request, _ *discordgo.Interaction) { w.WriteHeader(202) }, "INLINE_202_UNANSWERED"},
		{"not JSON", func(w http.ResponseWriter, _ *http.Request, _ *discordgo.Interaction) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, `{"type":4,"data":{"content":"x"}}`)
		}, "INLINE_CONTENT_TYPE"},
		{"a 500", func(w http.ResponseWriter, _ *http.Request, _ *discordgo.Interaction) { w.WriteHeader(500) }, "INLINE_STATUS"},
		{"too late", func(w http.ResponseWriter, r *http.Request, _ *discordgo.Interaction) {
			<-r.Context().Done() // the fake gave up on the answer
			jsonAnswer(w, `{"type":4,"data":{"content":"x"}}`)
		}, "INTERACTION_DEADLINE"},
		{"an empty message", func(w http.ResponseWriter, _ *http.Request, _ *discordgo.Interaction) {
			jsonAnswer(w, `{"type":4,"data":{}}`)
		}, ""},
		{"a callback and an answer", func(w http.ResponseWriter, r *http.Request, i *discordgo.Interaction) {
			dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "one"}})
			jsonAnswer(w, `{"type":4,"data":{"content":"two"}}`)
		}, ""},
		{"a message for autocomplete", func(w http.ResponseWriter, _ *http.Request, _ *discordgo.Interaction) {
			jsonAnswer(w, `{"type":4,"data":{"content":"x"}}`)
		}, "INTERACTION_RESPONSE_TYPE_INVALID"},
	} {
		srv.ClearViolations()
		e.set(c.answer)
		ib := srv.Slash("games")
		if strings.Contains(c.name, "autocomplete") {
			ib = srv.Autocomplete("move", fakediscord.Focused(fakediscord.Str("notation", "")))
		}
		sent := ib.Send(t)
		srv.WaitArrival(t, func(q fakediscord.Request) bool { return q.Inline && strings.Contains(q.Path, sent.ID) }, 0)
		v := srv.Violations()
		if len(v) != 1 || v[0].Rule != c.rule {
			t.Errorf("%s: violations %v, want one %q", c.name, v, c.rule)
		}
	}
	srv.ClearViolations()
}

// TestHTTPEndpointChecks: the portal's validation refuses endpoints that
// take bad signatures or answer PING wrongly, and the routine check
// removes one that stopped refusing.
func TestHTTPEndpointChecks(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	for name, h := range map[string]http.HandlerFunc{
		"takes anything": func(w http.ResponseWriter, _ *http.Request) { jsonAnswer(w, `{"type":1}`) },
		"PONG as text": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, `{"type":1}`)
		},
		"PONG of another type": func(w http.ResponseWriter, _ *http.Request) { jsonAnswer(w, `{"type":4}`) },
	} {
		hs := httptest.NewServer(h)
		if err := srv.SetInteractionsEndpoint(hs.URL); err == nil {
			t.Errorf("%s: accepted", name)
		}
		hs.Close()
	}
	e := newEndpoint(t, srv)
	if err := srv.CheckEndpoint(); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock() // the endpoint is configured with another key
	e.key, _, _ = ed25519.GenerateKey(nil)
	e.mu.Unlock()
	if err := srv.CheckEndpoint(); err == nil {
		t.Fatal("an endpoint with another key passed")
	}
	if err := srv.CheckEndpoint(); err == nil || !strings.Contains(err.Error(), "no interactions endpoint") {
		t.Fatalf("the URL was not removed: %v", err)
	}
}
