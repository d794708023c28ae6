package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The endpoint's checks, without Discord: a key pair of the test's own,
// a fixed clock, and a dispatch that records what got through.

// testKey is a fixed key pair (the seed is arbitrary): fuzzing needs the
// same key in every run.
var testKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))

var otherKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{8}, ed25519.SeedSize))

// testNow is the endpoint's clock in these tests.
var testNow = time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC)

// recorder is a webhook whose dispatch records the interactions that got
// through and answers each with answer (nil: no answer).
type recorder struct {
	h          *webhook
	mu         sync.Mutex
	dispatched []*discordgo.Interaction
}

func newRecorder(answer *discordgo.InteractionResponse) *recorder {
	r := &recorder{}
	// The recorder answers (or gives up) at once, so the wait only bounds
	// a failure: the fuzz target's 10 ms was missed on a loaded machine
	// (500 for a genuine interaction).
	r.h = &webhook{key: testKey.Public().(ed25519.PublicKey), now: func() time.Time { return testNow }, wait: 10 * time.Second,
		b: &Bot{log: slog.New(slog.NewTextHandler(io.Discard, nil))}, seen: newReplays(maxRemembered)}
	r.h.dispatch = func(i *discordgo.Interaction, a *inlineAnswer) {
		r.mu.Lock()
		r.dispatched = append(r.dispatched, i)
		r.mu.Unlock()
		go func() {
			defer close(a.done)
			if answer != nil {
				if written, ok := a.offer(answer); ok {
					<-written
				}
			}
		}()
	}
	return r
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.dispatched)
}

// sign is Discord's signature of timestamp + body.
func sign(key ed25519.PrivateKey, ts string, body []byte) string {
	return hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...)))
}

// post sends a request to the endpoint; an empty sig or ts leaves that
// header out.
func (r *recorder) post(body []byte, ts, sig string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if ts != "" {
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	if sig != "" {
		req.Header.Set("X-Signature-Ed25519", sig)
	}
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, req)
	return rec
}

// slashBody is a /games command as Discord sends it.
func slashBody(id string) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": id, "application_id": "1", "type": 2, "token": "tok" + id, "version": 1,
		"guild_id": "10", "channel_id": "20", "app_permissions": "0",
		"member": map[string]any{"user": map[string]any{"id": "30", "username": "ana"}},
		"data":   map[string]any{"id": "40", "name": "games", "type": 1},
	})
	return b
}

var pingBody = []byte(`{"id":"5","application_id":"1","type":1,"token":"t","version":1}`)

func stamp(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

func TestEndpointRefusesWhatDiscordDidNotSign(t *testing.T) {
	r := newRecorder(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource})
	body := slashBody("100")
	ts := stamp(testNow)
	good := sign(testKey, ts, body)
	flipped := []byte(good)
	flipped[10] ^= 1 // still hex
	for _, c := range []struct {
		name     string
		body     []byte
		ts, sig  string
		wantCode int
	}{
		{"another key", body, ts, sign(otherKey, ts, body), 401},
		{"tampered body", append(append([]byte(nil), body[:len(body)-1]...), ' ', '}'), ts, good, 401},
		{"tampered timestamp", body, stamp(testNow.Add(time.Second)), good, 401},
		{"signature of the body alone", body, ts, hex.EncodeToString(ed25519.Sign(testKey, body)), 401},
		{"a flipped bit", body, ts, string(flipped), 401},
		{"no signature", body, ts, "", 401},
		{"no timestamp", body, "", good, 401},
		{"neither header", body, "", "", 401},
		{"signature not hex", body, ts, "zz" + good[2:], 401},
		{"signature too short", body, ts, good[:64], 401},
		{"replayed 6 minutes later", body, stamp(testNow.Add(-6 * time.Minute)), sign(testKey, stamp(testNow.Add(-6*time.Minute)), body), 401},
		{"from 6 minutes ahead", body, stamp(testNow.Add(6 * time.Minute)), sign(testKey, stamp(testNow.Add(6*time.Minute)), body), 401},
		{"timestamp not a number", body, "yesterday", sign(testKey, "yesterday", body), 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := r.count()
			rec := r.post(c.body, c.ts, c.sig)
			if rec.Code != c.wantCode {
				t.Fatalf("status %d, want %d (%s)", rec.Code, c.wantCode, rec.Body)
			}
			if r.count() != before {
				t.Fatal("dispatched")
			}
		})
	}
	// The same request, signed, 4 minutes late (a clock a little off):
	// taken, and answered in the response.
	late := stamp(testNow.Add(-4 * time.Minute))
	rec := r.post(body, late, sign(testKey, late, body))
	if rec.Code != 200 || r.count() != 1 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("a signed command: %d %q, %d dispatched", rec.Code, rec.Body, r.count())
	}
	var resp struct{ Type int }
	if json.Unmarshal(rec.Body.Bytes(), &resp) != nil || resp.Type != 4 {
		t.Fatalf("the inline answer: %s", rec.Body)
	}
}

func TestEndpointPing(t *testing.T) {
	r := newRecorder(nil)
	ts := stamp(testNow)
	rec := r.post(pingBody, ts, sign(testKey, ts, pingBody))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" || strings.TrimSpace(rec.Body.String()) != `{"type":1}` {
		t.Fatalf("PING: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	if r.count() != 0 {
		t.Fatal("a PING was dispatched")
	}
	// Discord's probe: a PING with a bad signature must get 401.
	rec = r.post(pingBody, ts, sign(otherKey, ts, pingBody))
	if rec.Code != 401 {
		t.Fatalf("a PING with another key's signature: %d", rec.Code)
	}
}

func TestEndpointLimitsAndShapes(t *testing.T) {
	r := newRecorder(nil)
	ts := stamp(testNow)
	// Too large: refused before the signature is even checked.
	big := append(slashBody("1"), bytes.Repeat([]byte(" "), MaxInteractionBody)...)
	if rec := r.post(big, ts, sign(testKey, ts, big)); rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a body of %d bytes: %d", len(big), rec.Code)
	}
	// Exactly at the limit: read (and here refused only as unsigned).
	at := append(slashBody("1"), bytes.Repeat([]byte(" "), MaxInteractionBody-len(slashBody("1")))...)
	if rec := r.post(at, ts, sign(otherKey, ts, at)); rec.Code != 401 {
		t.Fatalf("a body of exactly the limit: %d", rec.Code)
	}
	// Signed, but not something the bot answers: 400, not dispatched.
	for _, body := range []string{`not json`, `{"type":5,"id":"1","token":"t","data":{"custom_id":"x"}}`, `{"type":2,"id":"1","token":"t"}`,
		`{"type":2,"id":"","token":"","data":{"name":"games"}}`, `{"type":3,"id":"1","token":"t"}`, `[]`, `{"type":99,"id":"1","token":"t"}`} {
		rec := r.post([]byte(body), ts, sign(testKey, ts, []byte(body)))
		if rec.Code != 400 {
			t.Fatalf("%s: %d", body, rec.Code)
		}
	}
	if r.count() != 0 {
		t.Fatalf("%d dispatched", r.count())
	}
	// Only POST.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d", rec.Code)
	}
	// A signed command nobody answers: 500 once handling ended or the
	// wait is over ("the application did not respond").
	body := slashBody("2")
	if rec := r.post(body, ts, sign(testKey, ts, body)); rec.Code != 500 || r.count() != 1 {
		t.Fatalf("unanswered: %d, %d dispatched", rec.Code, r.count())
	}
}

// FuzzInteractionsEndpoint: nothing is dispatched unless Discord's key
// signed exactly the timestamp and body received, the timestamp is fresh
// and the body an interaction the bot answers; and everything so signed
// is dispatched (or answered, for a PING). The input picks how the
// request is signed: correctly, then tampered with in one of several
// ways, or not at all.
func FuzzInteractionsEndpoint(f *testing.F) {
	ts := stamp(testNow)
	for mode := range byte(8) {
		f.Add(slashBody("7"), ts, mode, uint16(3))
		f.Add(pingBody, ts, mode, uint16(0))
	}
	f.Add([]byte(`{"type":3,"id":"1","token":"t","data":{"custom_id":"accept:1","component_type":2}}`), ts, byte(0), uint16(0))
	f.Add([]byte(`{"type":4,"id":"1","token":"t","data":{"name":"move","options":[{"name":"notation","type":3,"value":"d","focused":true}]}}`), ts, byte(0), uint16(0))
	f.Add(slashBody("8"), stamp(testNow.Add(-10*time.Minute)), byte(0), uint16(0))
	f.Add([]byte{}, "", byte(0), uint16(0))
	f.Fuzz(func(t *testing.T, body []byte, ts string, mode byte, at uint16) {
		r := newRecorder(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		sentBody, sentTS := body, ts
		sig := sign(testKey, ts, body)
		switch mode % 8 {
		case 1: // the body changed after signing
			sentBody = append([]byte(nil), body...)
			if len(sentBody) == 0 {
				sentBody = []byte{byte(at)}
			} else {
				sentBody[int(at)%len(sentBody)] ^= byte(at>>8) | 1
			}
		case 2: // the timestamp changed after signing
			sentTS = ts + strconv.Itoa(int(at%10))
		case 3: // another key
			sig = sign(otherKey, ts, body)
		case 4: // a bit of the signature flipped
			raw, _ := hex.DecodeString(sig)
			raw[int(at)%len(raw)] ^= 1 << (at >> 8 % 8)
			sig = hex.EncodeToString(raw)
		case 5: // no signature
			sig = ""
		case 6: // the body alone signed
			sig = hex.EncodeToString(ed25519.Sign(testKey, body))
		case 7: // garbage signature
			sig = strings.Repeat(strconv.Itoa(int(at%10)), 128)
		}
		rec := r.post(sentBody, sentTS, sig)

		// The oracle: what Discord's key really signed.
		raw, err := hex.DecodeString(sig)
		genuine := err == nil && len(raw) == ed25519.SignatureSize && sentTS != "" &&
			ed25519.Verify(testKey.Public().(ed25519.PublicKey), append([]byte(sentTS), sentBody...), raw)
		sec, err := strconv.ParseInt(sentTS, 10, 64)
		fresh := err == nil && testNow.Sub(time.Unix(sec, 0)).Abs() <= MaxInteractionAge
		i, decodeErr := decodeInteraction(sentBody)
		answerable := decodeErr == nil && i.Type != discordgo.InteractionPing

		if r.count() > 0 && !(genuine && fresh && answerable && len(sentBody) <= MaxInteractionBody) {
			t.Fatalf("dispatched (mode %d): genuine %v fresh %v answerable %v; status %d", mode%8, genuine, fresh, answerable, rec.Code)
		}
		if !genuine && len(sentBody) <= MaxInteractionBody && rec.Code != 401 {
			t.Fatalf("not signed by Discord (mode %d), answered %d", mode%8, rec.Code)
		}
		if genuine && fresh && len(sentBody) <= MaxInteractionBody {
			switch {
			case answerable && (r.count() != 1 || rec.Code != 200):
				t.Fatalf("a genuine interaction: %d, %d dispatched", rec.Code, r.count())
			case decodeErr == nil && i.Type == discordgo.InteractionPing && (rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"type":1}`):
				t.Fatalf("a genuine PING: %d %q", rec.Code, rec.Body)
			case decodeErr != nil && rec.Code != 400:
				t.Fatalf("a genuine body that is no interaction: %d", rec.Code)
			}
		}
	})
}

// BenchmarkEndpointPing is the endpoint's own cost per request: read the
// body, verify the signature, decode, answer (a PING, so no service).
func BenchmarkEndpointPing(b *testing.B) {
	r := newRecorder(nil)
	reqs := signedBatch(func(id string) []byte {
		return []byte(`{"id":"` + id + `","application_id":"1","type":1,"token":"t","version":1}`)
	})
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		q := reqs[n%len(reqs)]
		if n++; n%len(reqs) == 0 {
			r.h.seen = newReplays(maxRemembered) // the ids come round again
		}
		if rec := r.post(q.body, q.ts, q.sig); rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

type signedRequest struct {
	body    []byte
	ts, sig string
}

// signedBatch is 4096 requests with distinct ids, signed ahead (a
// benchmark's requests must differ: the endpoint refuses an id twice).
func signedBatch(body func(id string) []byte) []signedRequest {
	ts := stamp(testNow)
	out := make([]signedRequest, 4096)
	for i := range out {
		b := body(strconv.Itoa(1000 + i))
		out[i] = signedRequest{b, ts, sign(testKey, ts, b)}
	}
	return out
}

// BenchmarkEndpointCommand is the same for a /games command whose answer
// is given at once (the service is replaced by an immediate answer).
func BenchmarkEndpointCommand(b *testing.B) {
	r := newRecorder(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "You have no games.", Flags: discordgo.MessageFlagsEphemeral}})
	reqs := signedBatch(slashBody)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		q := reqs[n%len(reqs)]
		if n++; n%len(reqs) == 0 {
			r.h.seen = newReplays(maxRemembered)
		}
		if rec := r.post(q.body, q.ts, q.sig); rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
