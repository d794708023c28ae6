package fakediscord

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Identify is a recorded IDENTIFY (op 2) and the session it opened.
type Identify struct {
	SessionID  string
	Token      string
	Intents    discordgo.Intent
	Shard      [2]int // [shard_id, num_shards]; [0, 1] when not sent
	Properties map[string]any
	Conn       int // gateway connection number (1-based)
	At         time.Time
}

// Resume is a recorded RESUME (op 6).
type Resume struct {
	SessionID string
	Seq       int64 // last sequence the client had
	OK        bool  // false: the fake answered INVALID SESSION
	Replayed  int   // dispatches replayed before RESUMED
	Conn      int
	At        time.Time
}

// GatewayFrame is a payload a client sent on the gateway.
type GatewayFrame struct {
	Conn int
	Op   int
	Data json.RawMessage
	At   time.Time
}

type gateway struct {
	s          *Server
	sessions   []*gwSession
	conns      map[*gwConn]bool
	connSeq    int
	refuse     bool
	noAck      bool
	closing    bool
	identifies []Identify
	resumes    []Resume
	frames     []GatewayFrame
	// refused are the IDENTIFYs answered with 4010, 4011 or op 9;
	// lastIdentify is the last accepted IDENTIFY per rate-limit key.
	refused      []RefusedIdentify
	lastIdentify map[int]time.Time
	// disallowed are the privileged intents the app may not use
	// (DisallowIntents).
	disallowed discordgo.Intent
}

type gwSession struct {
	id      string
	token   string
	intents discordgo.Intent
	shard   [2]int
	seq     int64
	log     [][]byte // dispatch frames in order (log[i] has seq i+1)
	conn    *gwConn
	dead    bool
	// closedWith is the code a connection of the session was last closed
	// with, when it forbids a RESUME (4004, 4010 to 4014).
	closedWith int
}

type gwConn struct {
	id       int
	ws       *websocket.Conn
	out      chan outFrame
	quit     chan struct{}
	quitOnce sync.Once
	sess     *gwSession
	closed   bool
	tooFast  bool // an IDENTIFY on it was refused for max_concurrency
}

type outFrame struct {
	data      []byte
	closeCode int
	closeText string
	drop      bool
}

func newGateway(s *Server) *gateway {
	return &gateway{s: s, conns: map[*gwConn]bool{}, lastIdentify: map[int]time.Time{}, disallowed: s.cfg.disallowed}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (g *gateway) serve(w http.ResponseWriter, r *http.Request) {
	s := g.s
	s.mu.Lock()
	if g.closing || g.refuse {
		s.mu.Unlock()
		http.Error(w, "gateway unavailable", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(2)
	s.mu.Unlock()
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.wg.Add(-2)
		return
	}
	c := &gwConn{ws: ws, out: make(chan outFrame, 1024), quit: make(chan struct{})}
	go c.writer(&s.wg)
	defer s.wg.Done()

	s.mu.Lock()
	if g.closing {
		s.mu.Unlock()
		c.stop()
		return
	}
	g.connSeq++
	c.id = g.connSeq
	g.conns[c] = true
	g.sendLocked(c, map[string]any{"op": 10, "s": nil, "t": nil,
		"d": map[string]any{"heartbeat_interval": s.cfg.heartbeatInterval.Milliseconds()}})
	s.notify()
	s.mu.Unlock()

	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			break
		}
		s.mu.Lock()
		g.handleLocked(c, data)
		s.notify()
		s.mu.Unlock()
	}
	s.mu.Lock()
	c.closed = true
	delete(g.conns, c)
	if c.sess != nil && c.sess.conn == c {
		c.sess.conn = nil
	}
	s.notify()
	s.mu.Unlock()
	c.stop()
}

func (c *gwConn) stop() { c.quitOnce.Do(func() { close(c.quit) }) }

func (c *gwConn) writer(wg *sync.WaitGroup) {
	defer wg.Done()
	defer c.ws.Close()
	for {
		select {
		case f := <-c.out:
			switch {
			case f.drop:
				return
			case f.closeCode != 0:
				_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(f.closeCode, f.closeText), time.Now().Add(time.Second))
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if err := c.ws.WriteMessage(websocket.TextMessage, f.data); err != nil {
				return
			}
		case <-c.quit:
			return
		}
	}
}

func (g *gateway) enqueueLocked(c *gwConn, f outFrame) {
	if c.closed {
		return
	}
	if f.drop || f.closeCode != 0 {
		c.closed = true
	}
	select {
	case c.out <- f:
	default: // the client does not read: Discord would drop it too
		c.closed = true
		c.stop()
	}
}

func (g *gateway) sendLocked(c *gwConn, payload any) {
	b, _ := json.Marshal(payload)
	g.enqueueLocked(c, outFrame{data: b})
}

func (g *gateway) closeLocked(c *gwConn, code int, text string) {
	if c.sess != nil && noResume(code) && !c.closed {
		c.sess.closedWith = code
	}
	g.enqueueLocked(c, outFrame{closeCode: code, closeText: text})
}

// noResume reports whether a close code forbids reconnecting with a
// RESUME: "Reconnect: false" for 4004 and 4010 to 4014 in Discord's
// Gateway Close Event Codes (developers/topics/opcodes-and-status-
// codes.mdx); the others may be resumed.
func noResume(code int) bool { return code == 4004 || (code >= 4010 && code <= 4014) }

func (g *gateway) handleLocked(c *gwConn, data []byte) {
	var f struct {
		Op int             `json:"op"`
		D  json.RawMessage `json:"d"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		g.closeLocked(c, 4002, "Error while decoding payload.")
		return
	}
	g.frames = append(g.frames, GatewayFrame{Conn: c.id, Op: f.Op, Data: f.D, At: time.Now()})
	g.s.rec.recordFrame(f.Op, f.D)
	if c.sess == nil && f.Op != 1 && f.Op != 2 && f.Op != 6 {
		g.closeLocked(c, 4003, "Not authenticated.")
		return
	}
	switch f.Op {
	case 1:
		if !g.noAck {
			g.sendLocked(c, map[string]any{"op": 11, "s": nil, "t": nil, "d": nil})
		}
	case 2:
		g.identifyLocked(c, f.D)
	case 6:
		g.resumeLocked(c, f.D)
	case 3, 4, 8, 31:
		// presence, voice state, request members, soundboard: recorded only
	default:
		g.closeLocked(c, 4001, "Unknown opcode.")
	}
}

func (g *gateway) identifyLocked(c *gwConn, raw json.RawMessage) {
	s := g.s
	if c.sess != nil {
		g.closeLocked(c, 4005, "Already authenticated.")
		return
	}
	var d struct {
		Token      string           `json:"token"`
		Intents    discordgo.Intent `json:"intents"`
		Shard      *[2]int          `json:"shard"`
		Properties map[string]any   `json:"properties"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		g.closeLocked(c, 4002, "Error while decoding payload.")
		return
	}
	if s.cfg.token != "" && strings.TrimPrefix(d.Token, "Bot ") != s.cfg.token {
		g.closeLocked(c, 4004, "Authentication failed.")
		return
	}
	shard := [2]int{0, 1}
	if d.Shard != nil {
		shard = *d.Shard
	}
	if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
		g.closeLocked(c, 4010, "Invalid shard.")
		g.refused = append(g.refused, RefusedIdentify{Shard: shard, Code: 4010, Reason: "shard id outside 0..count-1", Conn: c.id, At: time.Now()})
		return
	}
	if g.refuseIdentifyLocked(c, shard) {
		return
	}
	if g.refuseIntentsLocked(c, shard, d.Intents) {
		return
	}
	sess := &gwSession{id: randomHex(16), token: d.Token, intents: d.Intents, shard: shard, conn: c}
	for _, old := range g.sessions {
		if old.shard == shard {
			old.dead = true
		}
	}
	g.sessions = append(g.sessions, sess)
	c.sess = sess
	g.identifies = append(g.identifies, Identify{SessionID: sess.id, Token: d.Token, Intents: d.Intents,
		Shard: shard, Properties: d.Properties, Conn: c.id, At: time.Now()})

	var guilds []any
	for _, id := range s.st.guildOrder {
		if shardFor(id, shard[1]) == shard[0] {
			guilds = append(guilds, map[string]any{"id": id, "unavailable": true})
		}
	}
	me := userJSON(s.Bot)
	me["verified"], me["mfa_enabled"], me["flags"] = true, false, 0
	g.dispatchToLocked(sess, "READY", map[string]any{
		"v":                  9,
		"user":               me,
		"guilds":             guilds,
		"session_id":         sess.id,
		"resume_gateway_url": s.GatewayURL(),
		"shard":              shard,
		"application":        map[string]any{"id": s.AppID, "flags": 0},
		"private_channels":   []any{},
		"relationships":      []any{},
		"presences":          []any{},
		"session_type":       "normal",
		"auth":               map[string]any{},
		"user_settings":      map[string]any{},
	})
	if d.Intents&discordgo.IntentGuilds != 0 {
		for _, gid := range s.st.guildOrder {
			if shardFor(gid, shard[1]) == shard[0] {
				g.dispatchToLocked(sess, "GUILD_CREATE", s.guildJSONLocked(s.st.guilds[gid], true))
			}
		}
	}
}

func (g *gateway) resumeLocked(c *gwConn, raw json.RawMessage) {
	if c.sess != nil {
		g.closeLocked(c, 4005, "Already authenticated.")
		return
	}
	var d struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	_ = json.Unmarshal(raw, &d)
	if g.s.cfg.token != "" && strings.TrimPrefix(d.Token, "Bot ") != g.s.cfg.token {
		g.closeLocked(c, 4004, "Authentication failed.")
		return
	}
	rec := Resume{SessionID: d.SessionID, Seq: d.Seq, Conn: c.id, At: time.Now()}
	var sess *gwSession
	for _, x := range g.sessions {
		if x.id == d.SessionID && !x.dead && x.token == d.Token {
			sess = x
		}
	}
	if sess == nil || d.Seq < 0 || d.Seq > sess.seq {
		g.resumes = append(g.resumes, rec)
		g.sendLocked(c, map[string]any{"op": 9, "d": false, "s": nil, "t": nil})
		return
	}
	if code := sess.closedWith; code != 0 {
		// Discord says not to reconnect after this code: a RESUME is
		// refused with it again, and counts as a violation.
		g.resumes = append(g.resumes, rec)
		g.s.st.violations = append(g.s.st.violations, Violation{Method: "GATEWAY", Path: "RESUME", Code: code,
			Detail: fmt.Sprintf("RESUME of a session whose connection was closed with %d, after which Discord says not to reconnect (Gateway Close Event Codes, Reconnect: false): identify anew, or fix what the code names", code)})
		g.closeLocked(c, code, closeText(code))
		return
	}
	if off := sess.intents & g.disallowed; off != 0 {
		// The session was identified with an intent the app may no
		// longer use: it is not resumed (Discord closed it with 4014
		// before, unless the app was switched off while it was away).
		g.resumes = append(g.resumes, rec)
		g.closeLocked(c, 4014, "Disallowed intent(s).")
		return
	}
	if old := sess.conn; old != nil && old != c {
		old.sess = nil
		g.enqueueLocked(old, outFrame{drop: true})
	}
	sess.conn = c
	c.sess = sess
	for _, b := range sess.log[d.Seq:] {
		g.enqueueLocked(c, outFrame{data: b})
		rec.Replayed++
	}
	g.dispatchToLocked(sess, "RESUMED", map[string]any{})
	rec.OK = true
	g.resumes = append(g.resumes, rec)
}

// dispatchToLocked sends a dispatch (op 0) on a session; it is logged for
// replay and queued if the session has no connection right now.
func (g *gateway) dispatchToLocked(sess *gwSession, event string, d any) {
	sess.seq++
	b, _ := json.Marshal(map[string]any{"op": 0, "t": event, "s": sess.seq, "d": d})
	sess.log = append(sess.log, b)
	if sess.conn != nil {
		g.enqueueLocked(sess.conn, outFrame{data: b})
	}
}

// dispatchLocked sends an event to every live session whose shard covers the
// guild ("" = DMs, shard 0) and whose intents include intent (0 = always).
// build makes the payload per session. It returns the number of sessions.
func (g *gateway) dispatchLocked(event, guildID string, intent discordgo.Intent, build func(*gwSession) any) int {
	n := 0
	for _, sess := range g.sessions {
		if sess.dead || shardFor(guildID, sess.shard[1]) != sess.shard[0] {
			continue
		}
		if intent != 0 && sess.intents&intent == 0 {
			continue
		}
		g.dispatchToLocked(sess, event, build(sess))
		n++
	}
	return n
}

func (g *gateway) liveSessionLocked(guildID string) bool {
	for _, sess := range g.sessions {
		if !sess.dead && shardFor(guildID, sess.shard[1]) == sess.shard[0] {
			return true
		}
	}
	return false
}

// shardFor is Discord's sharding formula; DMs (guild "") go to shard 0.
func shardFor(guildID string, count int) int {
	if guildID == "" || count <= 1 {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

func (g *gateway) closeAll() {
	s := g.s
	s.mu.Lock()
	g.closing = true
	for c := range g.conns {
		g.enqueueLocked(c, outFrame{drop: true})
		c.stop()
	}
	s.mu.Unlock()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ---- exported gateway controls ----

// Identifies returns every IDENTIFY received so far.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.gw.identifies...)
}

// Resumes returns every RESUME received so far.
func (s *Server) Resumes() []Resume {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Resume(nil), s.gw.resumes...)
}

// GatewayFrames returns every payload clients sent on the gateway.
func (s *Server) GatewayFrames() []GatewayFrame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]GatewayFrame(nil), s.gw.frames...)
}

// WaitIdentify waits until n IDENTIFYs have been received and READY sent
// for the nth, and returns it.
func (s *Server) WaitIdentify(t testing.TB, n int, timeout time.Duration) Identify {
	t.Helper()
	var id Identify
	if !s.waitUntil(timeout, func() bool {
		if len(s.gw.identifies) < n {
			return false
		}
		id = s.gw.identifies[n-1]
		return true
	}) {
		t.Fatalf("fakediscord: %d identify(s) within %v, want %d", len(s.Identifies()), orDefault(timeout), n)
	}
	return id
}

// WaitResume waits until n successful RESUMEs have happened and returns the nth.
func (s *Server) WaitResume(t testing.TB, n int, timeout time.Duration) Resume {
	t.Helper()
	var r Resume
	if !s.waitUntil(timeout, func() bool {
		k := 0
		for _, x := range s.gw.resumes {
			if x.OK {
				k++
				if k == n {
					r = x
					return true
				}
			}
		}
		return false
	}) {
		t.Fatalf("fakediscord: no %d successful resume(s) within %v; resumes: %+v", n, orDefault(timeout), s.Resumes())
	}
	return r
}

// WaitGatewayFrame waits until a client sent a gateway payload satisfying match.
func (s *Server) WaitGatewayFrame(t testing.TB, match func(GatewayFrame) bool, timeout time.Duration) GatewayFrame {
	t.Helper()
	var f GatewayFrame
	if !s.waitUntil(timeout, func() bool {
		for _, x := range s.gw.frames {
			if match(x) {
				f = x
				return true
			}
		}
		return false
	}) {
		t.Fatalf("fakediscord: no matching gateway payload within %v", orDefault(timeout))
	}
	return f
}

// Connections returns how many gateway connections are open and identified
// or resumed.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.gw.conns {
		if c.sess != nil && !c.closed {
			n++
		}
	}
	return n
}

func (s *Server) eachConn(f func(c *gwConn)) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.gw.conns {
		if !c.closed {
			f(c)
			n++
		}
	}
	s.notify()
	return n
}

// DropGateway cuts every gateway connection without a close frame (a
// network failure). discordgo then closes (about 1 s), reconnects and RESUMEs.
// It returns the number of connections dropped.
func (s *Server) DropGateway() int {
	return s.eachConn(func(c *gwConn) { s.gw.enqueueLocked(c, outFrame{drop: true}) })
}

// CloseGateway closes every gateway connection with a close frame and code
// (e.g. 4000 unknown error, 4009 session timed out). discordgo reconnects
// whatever the code.
func (s *Server) CloseGateway(code int, reason string) int {
	return s.eachConn(func(c *gwConn) { s.gw.closeLocked(c, code, reason) })
}

// SendReconnect sends op 7 RECONNECT; discordgo closes with 1012 (about 1 s)
// and RESUMEs on a new connection.
func (s *Server) SendReconnect() int {
	return s.eachConn(func(c *gwConn) { s.gw.sendLocked(c, map[string]any{"op": 7, "d": nil, "s": nil, "t": nil}) })
}

// SendInvalidSession sends op 9 INVALID SESSION. When not resumable the
// session is forgotten. discordgo v0.29.0 answers either kind with a new
// IDENTIFY on the same connection.
func (s *Server) SendInvalidSession(resumable bool) int {
	return s.eachConn(func(c *gwConn) {
		if c.sess != nil {
			if !resumable {
				c.sess.dead = true
			}
			c.sess.conn = nil
			c.sess = nil
		}
		s.gw.sendLocked(c, map[string]any{"op": 9, "d": resumable, "s": nil, "t": nil})
	})
}

// SendHeartbeatRequest sends op 1; the client must answer with a heartbeat.
func (s *Server) SendHeartbeatRequest() int {
	return s.eachConn(func(c *gwConn) { s.gw.sendLocked(c, map[string]any{"op": 1, "d": nil, "s": nil, "t": nil}) })
}

// RefuseGateway makes new gateway connections fail (503) while on, as during
// a Discord outage. Existing connections are left alone.
func (s *Server) RefuseGateway(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.refuse = on
}

// AckHeartbeats turns heartbeat ACKs (op 11) on or off (default on). Without
// ACKs discordgo reconnects after 5 heartbeat intervals.
func (s *Server) AckHeartbeats(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.noAck = !on
}

// Dispatch sends a raw dispatch event (op 0, t=event) to the sessions that
// cover the guild ("" for DMs), whatever their intents. It returns the
// number of sessions it was sent (or queued for replay) to.
func (s *Server) Dispatch(event, guildID string, data any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.gw.dispatchLocked(event, guildID, 0, func(*gwSession) any { return data })
	s.notify()
	return n
}

// refuseIntentsLocked closes the connection of an IDENTIFY whose intents
// Discord refuses: 4013 for bits that are no intent, 4014 for a
// privileged intent the app has not enabled or is not approved for
// (DisallowIntents). The IDENTIFY still counts against max_concurrency.
func (g *gateway) refuseIntentsLocked(c *gwConn, shard [2]int, intents discordgo.Intent) bool {
	refuse := func(code int, text, reason string) bool {
		g.closeLocked(c, code, text)
		g.refused = append(g.refused, RefusedIdentify{Shard: shard, Code: code, Reason: reason, Conn: c.id, At: time.Now()})
		return true
	}
	if bad := intents &^ discordgo.IntentsAll; bad != 0 {
		return refuse(4013, "Invalid intent(s).", fmt.Sprintf("intents %d hold bits %d that are no intent", intents, bad))
	}
	if off := intents & g.disallowed; off != 0 {
		return refuse(4014, "Disallowed intent(s).", fmt.Sprintf("intents %d hold %d, not enabled for the app", intents, off))
	}
	return false
}

// WithDisallowedIntents starts the server with privileged intents the
// app may not use (see DisallowIntents).
func WithDisallowedIntents(intents discordgo.Intent) Option {
	return func(c *config) { c.disallowed = intents }
}

// DisallowIntents makes privileged intents (e.g.
// discordgo.IntentMessageContent) ones the app may not use, as when their
// toggle in the Developer Portal is off or Discord's approval lapsed:
// every later IDENTIFY that asks for one, and every RESUME of a session
// that was identified with one, is closed with 4014 Disallowed intent(s),
// and so is every live connection of such a session, at once. It returns
// how many connections it closed.
func (s *Server) DisallowIntents(intents discordgo.Intent) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.disallowed |= intents
	n := 0
	for c := range s.gw.conns {
		if !c.closed && c.sess != nil && c.sess.intents&intents != 0 {
			s.gw.closeLocked(c, 4014, "Disallowed intent(s).")
			n++
		}
	}
	s.notify()
	return n
}

// closeText is Discord's description of a close code that forbids a
// RESUME (Gateway Close Event Codes).
func closeText(code int) string {
	switch code {
	case 4004:
		return "Authentication failed."
	case 4010:
		return "Invalid shard."
	case 4011:
		return "Sharding required."
	case 4012:
		return "Invalid API version."
	case 4013:
		return "Invalid intent(s)."
	}
	return "Disallowed intent(s)."
}
