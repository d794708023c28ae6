package fakediscord

// Interactions over HTTP (outgoing webhooks), as Discord delivers them
// once an application has an Interactions Endpoint URL
// (discord-api-docs at c98d64bc: developers/interactions/overview.mdx,
// "Preparing for Interactions"; developers/interactions/
// receiving-and-responding.mdx, "Receiving an Interaction", "Interaction
// Callback"):
//
//   - The URL is validated when it is set: a signed PING must get 200 with
//     a JSON Content-Type and {"type":1}, and requests with invalid
//     signatures must get 401 ("Discord will also perform automated,
//     routine security checks against your endpoint, including
//     purposefully sending you invalid signatures"; CheckEndpoint repeats
//     them, and removes the URL when they fail, as Discord does).
//   - From then on every interaction is a POST to the URL, signed with the
//     application's Ed25519 key over X-Signature-Timestamp + body, and none
//     goes over the gateway ("mutually exclusive").
//   - The HTTP response is the first answer: 200 with an interaction
//     response (checked exactly as a callback is), or 202 with no body when
//     the bot answered on the callback endpoint instead. No answer within
//     the interaction deadline (3 s) is "the application did not respond".
//
// The fake applies an HTTP response before it serves any webhook request
// (edit, follow-up, @original) on the same token that arrives while the
// response is on its way: the bot sends those only after its response.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// hookState is the application's Interactions Endpoint URL and key pair;
// guarded by Server.mu.
type hookState struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
	url  string // "" while interactions go over the gateway
	// inflight: token -> closed when that interaction's HTTP response has
	// been applied.
	inflight map[string]chan struct{}
	// sent: interaction id -> the signed request, for Redeliver.
	sent map[string]signedRequest
}

// signedRequest is a delivered interaction as it went over the wire.
type signedRequest struct {
	ts, sig string
	body    []byte
}

// hookLocked is the hook state, with the key pair made on first use.
func (s *Server) hookLocked() *hookState {
	if s.hook == nil {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			panic(err)
		}
		s.hook = &hookState{pub: pub, priv: priv, inflight: map[string]chan struct{}{}, sent: map[string]signedRequest{}}
	}
	return s.hook
}

// PublicKey is the application's public key as the developer portal shows
// it (64 hex digits): the bot verifies interactions with it.
func (s *Server) PublicKey() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return hex.EncodeToString(s.hookLocked().pub)
}

// SetInteractionsEndpoint sets the Interactions Endpoint URL as the
// developer portal does: the endpoint must first answer a signed PING and
// refuse invalid signatures with 401; if it does not, the URL is not set
// and the error says why. From then on interactions (Send) are POSTed to
// url instead of dispatched on the gateway. "" goes back to the gateway.
func (s *Server) SetInteractionsEndpoint(url string) error {
	if url != "" {
		if err := s.checkEndpoint(url); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hookLocked().url = url
	return nil
}

// CheckEndpoint runs Discord's routine security check on the endpoint
// (a PING, and requests with invalid signatures): when it fails, the URL
// is removed ("we will remove your interactions URL") and the error says
// why.
func (s *Server) CheckEndpoint() error {
	s.mu.Lock()
	url := s.hookLocked().url
	s.mu.Unlock()
	if url == "" {
		return errors.New("fakediscord: no interactions endpoint is set")
	}
	err := s.checkEndpoint(url)
	if err != nil {
		s.mu.Lock()
		s.hook.url = ""
		s.mu.Unlock()
	}
	return err
}

// checkEndpoint sends the validation requests: a signed PING, then the
// same PING with a signature of other bytes, signed by another key, and
// with no signature; each bad one must get 401.
func (s *Server) checkEndpoint(url string) error {
	s.mu.Lock()
	h := s.hookLocked()
	priv := h.priv
	s.mu.Unlock()
	ping, _ := json.Marshal(map[string]any{"id": s.ids.next(), "application_id": s.AppID, "type": 1, "token": interactionToken(), "version": 1})
	ts := strconv.FormatInt(time.Now().Unix(), 10)

	status, header, body, err := s.post(url, ts, hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), ping...))), ping)
	if err != nil {
		return fmt.Errorf("fakediscord: the interactions endpoint did not answer a PING: %w", err)
	}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	var pong struct{ Type *int }
	if status != 200 || mt != "application/json" || json.Unmarshal(body, &pong) != nil || pong.Type == nil || *pong.Type != 1 {
		return fmt.Errorf("fakediscord: the interactions endpoint answered a PING with %d %q %q; Discord wants 200, a JSON Content-Type and {\"type\":1}", status, header.Get("Content-Type"), body)
	}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	bad := map[string]string{
		"a signature of other bytes": hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), append(ping, ' ')...))),
		"another key's signature":    hex.EncodeToString(ed25519.Sign(other, append([]byte(ts), ping...))),
		"no signature":               "",
	}
	for what, sig := range bad {
		status, _, _, err := s.post(url, ts, sig, ping)
		if err != nil {
			return fmt.Errorf("fakediscord: the interactions endpoint did not answer a PING with %s: %w", what, err)
		}
		if status != http.StatusUnauthorized {
			return fmt.Errorf("fakediscord: the interactions endpoint answered a PING with %s with %d; Discord wants 401", what, status)
		}
	}
	return nil
}

// post sends one signed request and reads the answer within the
// interaction deadline, or the answer patience when that is longer
// (deadline.go: an answer the machine made late is recorded, not lost).
func (s *Server) post(url, ts, sig string, body []byte) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), max(s.cfg.interactionDeadline, s.cfg.answerPatience))
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	if sig != "" {
		req.Header.Set("X-Signature-Ed25519", sig)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, resp.Header, b, nil
}

// deliverLocked POSTs the interaction to the endpoint when one is set
// (and reports whether it did): the response is applied as the first
// answer when it arrives.
func (s *Server) deliverLocked(rec *interactionRec, o map[string]any) bool {
	if s.hook == nil || s.hook.url == "" {
		return false
	}
	raw, _ := json.Marshal(o)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(s.hook.priv, append([]byte(ts), raw...)))
	url := s.hook.url
	s.hook.sent[rec.id] = signedRequest{ts: ts, sig: sig, body: raw}
	applied := make(chan struct{})
	s.hook.inflight[rec.token] = applied
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		status, header, body, err := s.post(url, ts, sig, raw)
		s.mu.Lock()
		s.applyInlineLocked(rec, status, header, body, err)
		delete(s.hook.inflight, rec.token)
		close(applied)
		s.notify()
		s.mu.Unlock()
	}()
	return true
}

// httpInteractions reports whether interactions go to an endpoint.
func (s *Server) httpInteractions() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hook != nil && s.hook.url != ""
}

// applyInlineLocked takes the endpoint's HTTP response as the first
// answer, recorded as a callback request with Inline set.
func (s *Server) applyInlineLocked(rec *interactionRec, status int, header http.Header, body []byte, err error) {
	req := &Request{Method: http.MethodPost, Path: "/interactions/" + rec.id + "/" + rec.token + "/callback",
		Route: "POST /interactions/{interaction}/{token}/callback", Host: "inline", Inline: true, Status: status}
	if len(body) > 0 {
		req.Body = body
	}
	s.arrived = append(s.arrived, *req)
	s.rec.recordRequest(req)
	req.Seq = len(s.st.requests) + 1
	c := &call{s: s, req: req, params: map[string]string{"interaction": rec.id, "token": rec.token}, header: http.Header{}}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	switch {
	case err != nil:
		c.errs = append(c.errs, Violation{Code: 10062, Rule: "INTERACTION_DEADLINE",
			Detail: fmt.Sprintf("the interactions endpoint did not answer within %v (%v): the user sees \"The application did not respond\"", max(s.cfg.interactionDeadline, s.cfg.answerPatience), err)})
	case status == http.StatusAccepted:
		if len(body) > 0 {
			c.fail(status, 0, "", "INLINE_202_BODY", "a 202 answer to an interaction must have no body")
		}
		if !rec.acked {
			c.fail(status, 10062, "", "INLINE_202_UNANSWERED", "answered 202 (\"I used the callback endpoint\") but the interaction was never acknowledged")
		}
	case status != http.StatusOK:
		c.fail(status, 0, "", "INLINE_STATUS", fmt.Sprintf("the interactions endpoint answered a signed interaction with %d %q", status, strings.TrimSpace(string(body))))
	case mt != "application/json":
		c.fail(status, 0, "", "INLINE_CONTENT_TYPE", fmt.Sprintf("the answer's Content-Type is %q, not application/json", header.Get("Content-Type")))
	case json.Unmarshal(body, &c.body) != nil || c.body == nil:
		c.fail(status, 50109, "", "", "The answer is not a JSON object")
	default:
		// The same checks and effects as a POST to the callback endpoint
		// (a second answer is 40060, a late one 10062).
		st, resp := c.interactionCallback()
		if st >= 300 {
			raw, _ := json.Marshal(resp)
			req.Response = raw
		}
	}
	req.At = time.Now()
	s.st.requests = append(s.st.requests, *req)
	for _, v := range c.errs {
		v.Seq, v.Method, v.Path, v.Status = req.Seq, req.Method, req.Path, status
		s.st.violations = append(s.st.violations, v)
	}
}

// awaitInline holds a webhook request (an edit, a follow-up, @original)
// until the HTTP response of its interaction has been applied, when that
// response is still on its way.
func (s *Server) awaitInline(p string) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if len(segs) < 3 || segs[0] != "webhooks" {
		return
	}
	s.mu.Lock()
	var ch chan struct{}
	if s.hook != nil {
		ch = s.hook.inflight[segs[2]]
	}
	s.mu.Unlock()
	if ch != nil {
		select {
		case <-ch:
		case <-s.done:
		}
	}
}

// Redeliver POSTs a delivered interaction again, byte for byte with its
// signature and timestamp, as someone who recorded it (or a proxy that
// retries) would, and returns what the endpoint answered. Discord itself
// never does this; the answer is not taken as the interaction's.
func (s *Server) Redeliver(id string) (status int, body string, err error) {
	s.mu.Lock()
	var req signedRequest
	var ok bool
	url := ""
	if s.hook != nil {
		req, ok = s.hook.sent[id]
		url = s.hook.url
	}
	s.mu.Unlock()
	if !ok || url == "" {
		return 0, "", fmt.Errorf("fakediscord: interaction %s was not delivered over HTTP", id)
	}
	status, _, b, err := s.post(url, req.ts, req.sig, req.body)
	return status, string(b), err
}
