package bot

// Interactions over HTTP. Instead of the gateway, Discord can deliver
// every interaction as a signed POST to the application's Interactions
// Endpoint URL (discord-api-docs, developers/interactions/overview.mdx,
// "Preparing for Interactions"; developers/interactions/
// receiving-and-responding.mdx, "Receiving an Interaction" and
// "Interaction Callback"). The two ways are mutually exclusive: once the
// URL is set, the gateway carries no interactions at all.
//
// The same code answers both: handle (bot.go) runs the service, and its
// first answer goes through initial, which writes it into the HTTP
// response when the interaction came by HTTP. Everything after the first
// answer (editing a deferred answer, follow-ups, reading the original
// message) is REST on the interaction's token, the same as on the
// gateway. A replica keeps no state another one needs (repeated commands
// and buttons are recognised by the store's Handled records, as on the
// gateway); each remembers, for the replay window only, the interaction
// ids it took, and refuses one sent again (replays.go).

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

const (
	// MaxInteractionBody is the largest request body the endpoint reads
	// (413 beyond). An interaction is a few KB; the largest is a button's,
	// which carries its whole message (2000 characters of content, 25
	// buttons), well under this.
	MaxInteractionBody = 256 << 10
	// MaxInteractionAge is how far X-Signature-Timestamp may be from our
	// clock. Discord answers within 3 s, so an older request was replayed
	// by whoever recorded it: it is refused (401), so that a recorded
	// request cannot fetch its answer again. Five minutes leave room for
	// a clock that is off by a few seconds or minutes.
	MaxInteractionAge = 5 * time.Minute
	// answerWithin is how long Discord waits for the HTTP response ("you
	// must send an initial response within 3 seconds").
	answerWithin = 3 * time.Second
)

// ParsePublicKey reads the application's public key as the developer
// portal shows it (General Information → Public Key): 64 hex digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("the public key must be %d hex digits (the developer portal's General Information → Public Key)", 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// Interactions is the handler for the Interactions Endpoint URL: it
// refuses with 401 what Discord did not sign with key (the application's
// public key), answers PING, and hands every other interaction to the
// same code the gateway's go to. Serve it behind TLS (Discord calls only
// https URLs).
func (b *Bot) Interactions(key ed25519.PublicKey) http.Handler {
	return &webhook{key: key, now: time.Now, wait: answerWithin, dispatch: b.dispatchHTTP, b: b, seen: newReplays(maxRemembered)}
}

// webhook serves interactions over HTTP.
type webhook struct {
	key ed25519.PublicKey
	now func() time.Time
	// wait is how long the response waits for the first answer.
	wait time.Duration
	// dispatch starts handling a verified interaction whose first answer
	// goes to a (tests replace it to see what gets through).
	dispatch func(i *discordgo.Interaction, a *inlineAnswer)
	b        *Bot
	// seen are the interaction ids taken lately, to refuse a replay
	// (replays.go).
	seen *replays
}

func (h *webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	i, status, why := h.verify(w, r)
	if status != 0 {
		// Discord sends bad signatures on purpose now and then, to see
		// them refused: this is routine, not a warning.
		h.b.log.Debug("refused an interactions request", "status", status, "why", why, "remote", r.RemoteAddr)
		http.Error(w, why, status)
		return
	}
	if i.ID != "" && !h.seen.first(i.ID, h.now()) { // a PING may have no id
		// Signed, fresh, and seen before: sent again by whoever recorded
		// it (Discord sends an interaction once). Answering would hand
		// them what the player saw, an autocomplete's legal moves.
		h.b.log.Warn("refused a signed interaction already taken: replayed", "interaction", i.ID, "type", int(i.Type), "remote", r.RemoteAddr)
		http.Error(w, "interaction already received", http.StatusUnauthorized)
		return
	}
	if i.Type == discordgo.InteractionPing {
		// "a 200 response with a PONG payload", with a valid Content-Type.
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":1}`)
		return
	}
	a := newInlineAnswer()
	h.dispatch(i, a)
	h.await(w, r, a)
}

// verify reads and checks a request: the signature over timestamp and
// body (else 401), the body's size (else 413), the timestamp's age (else
// 401) and the interaction itself (else 400). It returns the interaction,
// or the status to refuse it with and why.
func (h *webhook) verify(w http.ResponseWriter, r *http.Request) (*discordgo.Interaction, int, string) {
	sig, ts := r.Header.Get("X-Signature-Ed25519"), r.Header.Get("X-Signature-Timestamp")
	if sig == "" || ts == "" {
		return nil, http.StatusUnauthorized, "invalid request signature"
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxInteractionBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, http.StatusRequestEntityTooLarge, "request body too large"
		}
		return nil, http.StatusBadRequest, "unreadable body"
	}
	if !signed(h.key, sig, ts, body) {
		return nil, http.StatusUnauthorized, "invalid request signature"
	}
	if !fresh(ts, h.now()) {
		// Signed by Discord but not sent now: replayed, or our clock is
		// wrong. Worth a warning either way.
		h.b.log.Warn("refused a signed interaction whose timestamp is more than MaxInteractionAge from our clock: replayed, or this machine's clock is off",
			"timestamp", ts, "now", h.now().Unix())
		return nil, http.StatusUnauthorized, "stale request timestamp"
	}
	i, err := decodeInteraction(body)
	if err != nil {
		return nil, http.StatusBadRequest, err.Error()
	}
	return i, 0, ""
}

// signed reports whether sig (hex) is key's Ed25519 signature of
// timestamp + body, as Discord signs every request.
func signed(key ed25519.PublicKey, sig, timestamp string, body []byte) bool {
	s, err := hex.DecodeString(sig)
	if err != nil || len(s) != ed25519.SignatureSize || len(key) != ed25519.PublicKeySize {
		return false
	}
	msg := make([]byte, 0, len(timestamp)+len(body))
	msg = append(append(msg, timestamp...), body...)
	return ed25519.Verify(key, msg, s)
}

// fresh reports whether the timestamp (Unix seconds, as Discord sends it)
// is within MaxInteractionAge of now.
func fresh(timestamp string, now time.Time) bool {
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false
	}
	d := now.Sub(time.Unix(sec, 0))
	return d <= MaxInteractionAge && d >= -MaxInteractionAge
}

// decodeInteraction reads a signed body: an interaction with an id and a
// token, of a type the bot answers (PING, a command, its autocomplete, a
// button). The bot opens no modals, so Discord sends no modal submits.
func decodeInteraction(body []byte) (*discordgo.Interaction, error) {
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		return nil, errors.New("the body is not an interaction")
	}
	switch i.Type {
	case discordgo.InteractionPing:
		return &i, nil
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		if _, ok := i.Data.(discordgo.ApplicationCommandInteractionData); !ok {
			return nil, errors.New("a command without its data")
		}
	case discordgo.InteractionMessageComponent:
		if _, ok := i.Data.(discordgo.MessageComponentInteractionData); !ok {
			return nil, errors.New("a component without its data")
		}
	default:
		return nil, fmt.Errorf("interaction type %d is not one the bot answers", i.Type)
	}
	if i.ID == "" || i.Token == "" {
		return nil, errors.New("an interaction without id or token")
	}
	return &i, nil
}

// inlineAnswer carries an interaction's first answer from the code that
// handles it to the HTTP response, while that response waits.
type inlineAnswer struct {
	mu     sync.Mutex
	closed bool             // the response took an answer or stopped waiting
	given  chan inlineReply // the answer, once (buffered)
	done   chan struct{}    // closed when the handling ended
}

// inlineReply is a first answer: resp goes in the response body, or, when
// nil, the answer was already sent to the callback endpoint and the
// response is 202 with no body. written receives the response's write
// error.
type inlineReply struct {
	resp    *discordgo.InteractionResponse
	written chan error
}

func newInlineAnswer() *inlineAnswer {
	return &inlineAnswer{given: make(chan inlineReply, 1), done: make(chan struct{})}
}

// offer hands the first answer to the waiting response and returns the
// channel that tells when it was written; false when the response no
// longer waits (it gave up, or took an answer already).
func (a *inlineAnswer) offer(resp *discordgo.InteractionResponse) (<-chan error, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, false
	}
	a.closed = true
	rep := inlineReply{resp: resp, written: make(chan error, 1)}
	a.given <- rep
	return rep.written, true
}

// close stops the offers and returns an answer offered meanwhile.
func (a *inlineAnswer) close() (inlineReply, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	select {
	case rep := <-a.given:
		return rep, true
	default:
		return inlineReply{}, false
	}
}

// await waits for the first answer and writes it as the response:
// until the handling ends, Discord's 3 s are up, or Discord hangs up.
// Without an answer the response is a 500, which Discord shows as "the
// application did not respond", as it would on the gateway path.
func (h *webhook) await(w http.ResponseWriter, r *http.Request, a *inlineAnswer) {
	t := time.NewTimer(h.wait)
	defer t.Stop()
	var rep inlineReply
	ok := false
	select {
	case rep = <-a.given:
		ok = true
	case <-a.done:
	case <-t.C:
	case <-r.Context().Done():
	}
	if !ok {
		rep, ok = a.close()
	}
	if !ok {
		http.Error(w, "no answer", http.StatusInternalServerError)
		return
	}
	rep.written <- writeReply(w, rep.resp)
}

// writeReply writes a first answer and flushes it, so that Discord has it
// before any follow-up the handler sends next.
func writeReply(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	if resp == nil {
		// "If you send this request [the callback] for an interaction
		// received over HTTP, respond to the original HTTP request with
		// a 202 and no body."
		w.WriteHeader(http.StatusAccepted)
		return http.NewResponseController(w).Flush()
	}
	body, err := json.Marshal(resp)
	if err != nil {
		http.Error(w, "no answer", http.StatusInternalServerError)
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if _, err := w.Write(body); err != nil {
		return err
	}
	return http.NewResponseController(w).Flush()
}

// dispatchHTTP handles an interaction that came by HTTP, in its own
// goroutine: the response returns after the first answer while the
// handling goes on (a deferred answer is edited in later).
func (b *Bot) dispatchHTTP(i *discordgo.Interaction, a *inlineAnswer) {
	b.inline.Store(i, a)
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer close(a.done)
		defer b.inline.Delete(i)
		b.handle(i)
	}()
}

// initial sends an interaction's first answer: into the HTTP response
// when the interaction came by HTTP and the response still waits, else to
// the callback endpoint (the gateway path, and an HTTP response that gave
// up). An answer with files needs a multipart body, which only the
// callback endpoint takes: it goes there, and the response is 202.
func (b *Bot) initial(i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	v, ok := b.inline.Load(i)
	if !ok {
		return b.session.InteractionRespond(i, resp)
	}
	a := v.(*inlineAnswer)
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		if err := b.session.InteractionRespond(i, resp); err != nil {
			return err
		}
		if written, ok := a.offer(nil); ok {
			if err := <-written; err != nil {
				b.log.Warn("the HTTP response after a callback was not written", "interaction", i.ID, "err", err)
			}
		}
		return nil
	}
	if written, ok := a.offer(resp); ok {
		return <-written
	}
	return b.session.InteractionRespond(i, resp)
}

// openREST stands in for the gateway's READY when there is no gateway:
// who the bot is, and the commands registered.
func (b *Bot) openREST(ctx context.Context) error {
	u, err := b.session.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		if classifyRefused(err) {
			return ErrTokenRefused
		}
		return fmt.Errorf("ask Discord who the bot is: %w", err)
	}
	b.session.State.Lock()
	b.session.State.User = u // sink.Find looks for the bot's own messages
	b.session.State.Unlock()
	b.introduce(u)
	return nil
}

// listenInteractions opens the interactions endpoint's listener (before
// Open, so that a port in use stops the bot at once); nil when the
// endpoint is off.
func (b *Bot) listenInteractions() (net.Listener, error) {
	if b.opt.InteractionsListen == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", b.opt.InteractionsListen)
	if err != nil {
		return nil, fmt.Errorf("interactions endpoint: %w", err)
	}
	return ln, nil
}

// serveInteractions serves the endpoint on ln until the returned stop is
// called; stop lets the requests under way finish (their first answers
// are due within 3 s) before Close waits for their handling.
func (b *Bot) serveInteractions(ln net.Listener) (stop func()) {
	if ln == nil {
		return func() {}
	}
	srv := &http.Server{
		Handler:           b.Interactions(b.opt.InteractionsKey),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			b.log.Error("the interactions endpoint stopped", "err", err)
		}
	}()
	b.log.Info("serving interactions over HTTP", "listen", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*answerWithin)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}
