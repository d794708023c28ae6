package bot

import (
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Discord closes a gateway connection with a code, and some codes forbid
// reconnecting with a RESUME: 4004 (authentication failed), 4010 (invalid
// shard), 4011 (sharding required), 4012 (invalid API version), 4013
// (invalid intents) and 4014 (disallowed intents) ("Reconnect: false" in
// the Gateway Close Event Codes, developers/topics/opcodes-and-status-
// codes.mdx; "you should not reconnect" in developers/events/gateway.mdx,
// Resuming). discordgo v0.29.0 reads the close frame in its listen loop,
// then emits Disconnect with no code: the bot learned the code only from
// the RESUME it sent next, which Discord refused with the same code.
//
// The one place discordgo hands the code out is its log: the listen loop
// logs "error reading from gateway %s websocket, %s" with the gateway's
// URL and the *websocket.CloseError, before it emits Disconnect (in the
// same goroutine, so the record happens before the handler runs). So the
// bot is discordgo's Logger (process-wide, as discordgo has it), prints
// every line as discordgo would, and hands each such code to the bots
// whose sessions dial that URL: a session's Dialer tells, through its
// Proxy hook (which gorilla calls with the handshake's URL), which bot
// uses which gateway.
//
// A close is not tied to one session but to the URL (discordgo's log
// names no session): every session of the bot that connected before it
// takes the code as its own. That is right for the codes that forbid a
// RESUME on a live session (a reset token, an intent switched off, an API
// version dropped are the app's, not one connection's), and a session
// that had not asked for a refused intent resumes as ever.

// noResume reports whether a close code forbids a RESUME.
func noResume(code int) bool { return code == 4004 || (code >= 4010 && code <= 4014) }

func init() { discordgo.Logger = gatewayCloses.log }

// gatewayCloses are the bots by gateway, for discordgo's log.
var gatewayCloses = &closeWatch{bots: map[string]map[*Bot]bool{}}

type closeWatch struct {
	mu   sync.Mutex
	bots map[string]map[*Bot]bool // gateway key → the bots that dialled it
}

// gatewayKey is a gateway URL without its scheme (gorilla dials wss as
// https): host and query.
func gatewayKey(u *url.URL) string { return u.Host + "?" + u.RawQuery }

// dialed records that b dials the gateway at u.
func (w *closeWatch) dialed(b *Bot, u *url.URL) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := gatewayKey(u)
	if w.bots[k] == nil {
		w.bots[k] = map[*Bot]bool{}
	}
	w.bots[k][b] = true
}

// forget drops b (at Close).
func (w *closeWatch) forget(b *Bot) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, bs := range w.bots {
		delete(bs, b)
		if len(bs) == 0 {
			delete(w.bots, k)
		}
	}
}

// log is discordgo's Logger: it prints the line as discordgo does, and
// passes a close code that forbids a RESUME to the bots on that gateway.
func (w *closeWatch) log(level, caller int, format string, a ...any) {
	pc, file, line, _ := runtime.Caller(caller + 1)
	name := runtime.FuncForPC(pc).Name()
	log.Printf("[DG%d] %s:%d:%s() %s\n", level, filepath.Base(file), line, name[strings.LastIndex(name, ".")+1:], fmt.Sprintf(format, a...))
	if !strings.HasPrefix(format, "error reading from gateway") || len(a) != 2 {
		return
	}
	gw, _ := a[0].(string)
	err, _ := a[1].(error)
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || !noResume(ce.Code) {
		return
	}
	u, perr := url.Parse(gw)
	if perr != nil {
		return
	}
	w.mu.Lock()
	var bots []*Bot
	for b := range w.bots[gatewayKey(u)] {
		bots = append(bots, b)
	}
	w.mu.Unlock()
	for _, b := range bots {
		b.noteClose(ce)
	}
}

// watchDials makes s's Dialer tell gatewayCloses which gateway b dials.
func (b *Bot) watchDials(s *discordgo.Session) {
	if s.Dialer == nil {
		return
	}
	d := *s.Dialer // never the shared websocket.DefaultDialer itself
	proxy := d.Proxy
	d.Proxy = func(req *http.Request) (*url.URL, error) {
		gatewayCloses.dialed(b, req.URL)
		if proxy == nil {
			return nil, nil
		}
		return proxy(req)
	}
	s.Dialer = &d
}

// closeRecord is the last close of a connection of the bot with a code
// that forbids a RESUME; seq counts them.
type closeRecord struct {
	mu   sync.Mutex
	seq  int
	last *websocket.CloseError
}

func (b *Bot) noteClose(ce *websocket.CloseError) {
	b.closes.mu.Lock()
	defer b.closes.mu.Unlock()
	b.closes.seq++
	b.closes.last = ce
}

// closeMark is where the closes stand now: a shard notes it before it
// connects, and only a close after it is the shard's.
func (b *Bot) closeMark() int {
	b.closes.mu.Lock()
	defer b.closes.mu.Unlock()
	return b.closes.seq
}

// closedSince is the close, after mark, whose code forbids a RESUME, and
// the mark to note now; nil when there is none.
func (b *Bot) closedSince(mark int) (*websocket.CloseError, int) {
	b.closes.mu.Lock()
	defer b.closes.mu.Unlock()
	if b.closes.seq > mark {
		return b.closes.last, b.closes.seq
	}
	return nil, mark
}
