package fakediscord

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // decode GIF attachments
	_ "image/jpeg" // decode JPEG attachments
	_ "image/png"  // register the PNG decoder
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// state is everything the fake knows; guarded by Server.mu.
type state struct {
	guilds       map[string]*discordgo.Guild // immutable once stored; replaced on change
	guildOrder   []string
	channels     map[string]*discordgo.Channel
	users        map[string]*discordgo.User
	members      map[string][]string // guild -> user ids
	dms          map[string]string   // user id -> DM channel id
	messages     map[string]*storedMessage
	chanMsgs     map[string][]string         // channel -> message ids in creation order
	commands     map[string][]map[string]any // "" = global, else guild id
	interactions map[string]*interactionRec
	byToken      map[string]*interactionRec
	attachments  map[string]File
	perms        map[string]int64       // channel -> the bot's permissions there (absent: all)
	threads      map[string]*threadMeta // thread -> its metadata
	deleted      map[string]bool        // channels and messages the test deleted
	requests     []Request
	violations   []Violation
	late         []LateAnswer // deadline.go
}

func newState() *state {
	return &state{
		guilds:       map[string]*discordgo.Guild{},
		channels:     map[string]*discordgo.Channel{},
		users:        map[string]*discordgo.User{},
		members:      map[string][]string{},
		dms:          map[string]string{},
		messages:     map[string]*storedMessage{},
		chanMsgs:     map[string][]string{},
		commands:     map[string][]map[string]any{},
		interactions: map[string]*interactionRec{},
		byToken:      map[string]*interactionRec{},
		attachments:  map[string]File{},
		perms:        map[string]int64{},
		threads:      map[string]*threadMeta{},
		deleted:      map[string]bool{},
	}
}

// storedMessage is immutable once stored: edits store a new one.
type storedMessage struct {
	obj     map[string]any // the wire JSON object Discord would return
	files   []File
	created time.Time // on the fake's clock (nonce memory)
}

func (m *storedMessage) snapshot() *Message {
	raw, _ := json.Marshal(m.obj)
	var dm discordgo.Message
	_ = json.Unmarshal(raw, &dm)
	return &Message{Message: &dm, Files: append([]File(nil), m.files...), JSON: raw}
}

// Message is a snapshot of a message as the fake stores it.
type Message struct {
	*discordgo.Message
	// Files are the files uploaded with the message (all versions of it).
	Files []File
	// JSON is the object the fake returns for the message.
	JSON json.RawMessage
}

// File is an uploaded file (multipart part files[n]).
type File struct {
	Field       string // form field, e.g. "files[0]"
	Name        string // file name
	ContentType string // Content-Type of the part
	Data        []byte
	// Format is the picture's format ("png", "jpeg", "gif") as its header
	// says, or "" when the data is not a picture.
	Format string
	// Width and Height are the picture's size from its header (0 when the
	// data is not a picture).
	Width, Height int
	// keep caches the decoded picture for the next Image (not under
	// WithoutPixels).
	keep bool
}

// Request is one recorded REST request and the fake's answer.
type Request struct {
	Seq    int       // 1-based order of arrival
	At     time.Time // when the answer was decided
	Method string
	// Path is the API path without the /api/vN prefix, e.g. /channels/1/messages.
	Path string
	// Route is the matched route template, e.g. "POST /channels/{channel}/messages",
	// or "" when the fake has no such route.
	Route  string
	Query  url.Values
	Header http.Header
	// Host is the host the client addressed (discord.com for discordgo).
	Host string
	// Body is the JSON body (the payload_json part for multipart requests).
	Body  []byte
	Files []File
	// Status and Response are what the fake answered.
	Status   int
	Response []byte
	// Fault names the injected fault that produced the answer, if any.
	Fault string
	// Limited names the rate limit that refused the request with 429
	// ("global", "bucket <name>", "banned"), if one did.
	Limited string
	// Inline marks the HTTP response to an interaction delivered by POST
	// (webhook.go), recorded as a callback: Status is the bot's status.
	Inline bool
}

// Decode unmarshals the JSON body into v.
func (r Request) Decode(v any) error {
	if len(r.Body) == 0 {
		return fmt.Errorf("fakediscord: %s %s has no body", r.Method, r.Path)
	}
	return json.Unmarshal(r.Body, v)
}

// JSON returns the body decoded into a generic map (nil if not an object).
func (r Request) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

func (r Request) String() string {
	s := fmt.Sprintf("#%d %s %s -> %d", r.Seq, r.Method, r.Path, r.Status)
	if r.Fault != "" {
		s += " (fault: " + r.Fault + ")"
	}
	return s
}

// Violation is a request Discord would have rejected (any 4xx the fake
// answers that was not an injected fault).
type Violation struct {
	Seq    int // Request.Seq
	Method string
	Path   string
	Status int
	Code   int    // Discord JSON error code, e.g. 50035, 10062, 40060
	Field  string // e.g. "data.choices" or "content"; "" when not about a field
	Rule   string // e.g. BASE_TYPE_MAX_LENGTH
	Detail string
}

func (v Violation) String() string {
	s := fmt.Sprintf("%s %s: %d code %d", v.Method, v.Path, v.Status, v.Code)
	if v.Field != "" {
		s += " " + v.Field + ":"
	}
	s += " " + v.Detail
	if v.Rule != "" {
		s += " (" + v.Rule + ")"
	}
	return s
}

// Requests returns a snapshot of every REST request so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.st.requests...)
}

// RequestsTo returns the recorded requests whose "METHOD /path" matches the
// pattern (see Inject for the pattern syntax).
func (s *Server) RequestsTo(pattern string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if routeMatch(pattern, r.Method, r.Path) {
			out = append(out, r)
		}
	}
	return out
}

// Violations returns every recorded violation of Discord's rules.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Violation(nil), s.st.violations...)
}

// ClearViolations forgets the violations recorded so far (after a test
// asserted them), so that the cleanup check only sees later ones.
func (s *Server) ClearViolations() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.violations = nil
}

// WaitFor waits until a recorded request satisfies match and returns the
// first such request; it fails the test after the timeout (0: DefaultTimeout).
func (s *Server) WaitFor(t testing.TB, match func(Request) bool, timeout time.Duration) Request {
	t.Helper()
	var found Request
	ok := s.waitUntil(timeout, func() bool {
		for _, r := range s.st.requests {
			if match(r) {
				found = r
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("fakediscord: no matching request within %v; requests:\n%s", orDefault(timeout), s.requestList())
	}
	return found
}

// WaitRequests waits until n recorded requests satisfy match (each
// request is looked at once, so it suits thousands of them) and returns
// how many do; it fails the test after the timeout (0: DefaultTimeout).
func (s *Server) WaitRequests(t testing.TB, match func(Request) bool, n int, timeout time.Duration) int {
	t.Helper()
	seen, found := 0, 0
	ok := s.waitUntil(timeout, func() bool {
		for _, r := range s.st.requests[seen:] {
			if match(r) {
				found++
			}
		}
		seen = len(s.st.requests)
		return found >= n
	})
	if !ok {
		t.Fatalf("fakediscord: %d of %d matching requests within %v", found, n, orDefault(timeout))
	}
	return found
}

func (s *Server) requestList() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		b.WriteString("  " + r.String() + "\n")
	}
	return b.String()
}

func orDefault(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultTimeout
	}
	return d
}

// Messages returns snapshots of the messages in a channel, oldest first
// (bot messages, interaction replies and follow-ups, and messages sent with
// UserMessage). Deleted messages are left out.
func (s *Server) Messages(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.st.chanMsgs[channelID] {
		if m, ok := s.st.messages[id]; ok {
			out = append(out, m.snapshot())
		}
	}
	return out
}

// Message returns a snapshot of one message, or nil.
func (s *Server) Message(messageID string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.st.messages[messageID]; ok {
		return m.snapshot()
	}
	return nil
}

// WaitMessage waits until the channel holds a message satisfying match (nil
// matches any message) and returns it; it fails the test after the timeout.
func (s *Server) WaitMessage(t testing.TB, channelID string, match func(*Message) bool, timeout time.Duration) *Message {
	t.Helper()
	var found *Message
	ok := s.waitUntil(timeout, func() bool {
		for _, id := range s.st.chanMsgs[channelID] {
			if m, ok := s.st.messages[id]; ok {
				snap := m.snapshot()
				if match == nil || match(snap) {
					found = snap
					return true
				}
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("fakediscord: no matching message in channel %s within %v; requests:\n%s", channelID, orDefault(timeout), s.requestList())
	}
	return found
}

// AddGuild creates a guild (with no channels) and returns its id.
func (s *Server) AddGuild(name string) string {
	return s.addGuild(s.ids.next(), name)
}

func (s *Server) addGuild(id, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.guilds[id] = &discordgo.Guild{ID: id, Name: name, OwnerID: s.AppID, PreferredLocale: "en-US"}
	s.st.guildOrder = append(s.st.guildOrder, id)
	return id
}

// AddChannel creates a text channel in a guild and returns its id.
func (s *Server) AddChannel(guildID, name string) string {
	id := s.ids.next()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.channels[id] = &discordgo.Channel{ID: id, GuildID: guildID, Name: name, Type: discordgo.ChannelTypeGuildText}
	return id
}

// AddUser creates a human user who is a member of the default guild.
func (s *Server) AddUser(name string) *discordgo.User {
	u := &discordgo.User{ID: s.ids.next(), Username: name, GlobalName: name, Discriminator: "0"}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.users[u.ID] = u
	if s.GuildID != "" {
		s.st.members[s.GuildID] = append(s.st.members[s.GuildID], u.ID)
	}
	return u
}

// Channel returns a copy of a channel the fake knows, or nil.
func (s *Server) Channel(id string) *discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.st.channels[id]; ok {
		cp := *c
		return &cp
	}
	return nil
}

// Commands returns the registered application commands of a guild, or the
// global ones for guildID "".
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.ApplicationCommand
	for _, c := range s.st.commands[guildID] {
		raw, _ := json.Marshal(c)
		var ac discordgo.ApplicationCommand
		_ = json.Unmarshal(raw, &ac)
		out = append(out, &ac)
	}
	return out
}

// ensureChannel makes sure a channel exists (for channel ids a test invents).
func (s *Server) ensureChannelLocked(guildID, channelID string) *discordgo.Channel {
	if c, ok := s.st.channels[channelID]; ok {
		return c
	}
	c := &discordgo.Channel{ID: channelID, GuildID: guildID, Name: "channel-" + channelID, Type: discordgo.ChannelTypeGuildText}
	if guildID == "" {
		c.Type = discordgo.ChannelTypeDM
		c.Name = ""
	}
	s.st.channels[channelID] = c
	return c
}

// dmChannelLocked is the user's DM channel: Discord answers every "open
// a DM" with the same channel, so the fake keeps one per user; only one
// deleted by the test (DeleteChannel, a channel Discord no longer knows)
// is replaced by a new one, with a new id.
func (s *Server) dmChannelLocked(u *discordgo.User) *discordgo.Channel {
	if id, ok := s.st.dms[u.ID]; ok {
		if c, ok := s.st.channels[id]; ok {
			return c
		}
	}
	c := &discordgo.Channel{ID: s.ids.next(), Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{u}}
	s.st.channels[c.ID] = c
	s.st.dms[u.ID] = c.ID
	return c
}

func userJSON(u *discordgo.User) map[string]any {
	m := map[string]any{
		"id":            u.ID,
		"username":      u.Username,
		"discriminator": u.Discriminator,
		"global_name":   nilIfEmpty(u.GlobalName),
		"avatar":        nil,
		"public_flags":  0,
	}
	if u.Bot {
		m["bot"] = true
	}
	return m
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func memberJSON(u *discordgo.User, joined time.Time) map[string]any {
	return map[string]any{
		"user":                         userJSON(u),
		"roles":                        []any{},
		"joined_at":                    joined.UTC().Format(time.RFC3339Nano),
		"nick":                         nil,
		"deaf":                         false,
		"mute":                         false,
		"flags":                        0,
		"pending":                      false,
		"permissions":                  "2248473465835073",
		"communication_disabled_until": nil,
	}
}

func channelJSON(c *discordgo.Channel) map[string]any {
	m := map[string]any{
		"id":    c.ID,
		"type":  int(c.Type),
		"flags": 0,
	}
	if c.GuildID != "" {
		m["guild_id"] = c.GuildID
		m["name"] = c.Name
		m["position"] = 0
		m["permission_overwrites"] = []any{}
		m["nsfw"] = false
	}
	if c.ParentID != "" {
		m["parent_id"] = c.ParentID
	}
	if c.OwnerID != "" {
		m["owner_id"] = c.OwnerID
	}
	if c.Type == discordgo.ChannelTypeDM {
		var rs []any
		for _, u := range c.Recipients {
			rs = append(rs, userJSON(u))
		}
		m["recipients"] = rs
		m["last_message_id"] = nil
	}
	if c.IsThread() {
		m["thread_metadata"] = map[string]any{
			"archived":              false,
			"auto_archive_duration": 1440,
			"archive_timestamp":     time.Now().UTC().Format(time.RFC3339Nano),
			"locked":                false,
		}
		m["message_count"] = 0
		m["member_count"] = 1
	}
	return m
}

// decoded caches decoded uploads by content: the bot often sends one
// picture several times (a post, a status edit, a direct message), and a
// test may look at it more than once. Decoded images are never changed,
// so sharing them is safe.
var decoded sync.Map // [32]byte -> decodedImage

type decodedImage struct {
	img    image.Image
	format string
}

func decode(data []byte, keep bool) decodedImage {
	key := sha256.Sum256(data)
	if d, ok := decoded.Load(key); ok {
		return d.(decodedImage)
	}
	var d decodedImage
	if img, format, err := image.Decode(bytes.NewReader(data)); err == nil {
		d = decodedImage{img, format}
	}
	if keep {
		decoded.Store(key, d)
	}
	return d
}

// Image decodes the picture, when a test looks at its pixels; nil when
// the data does not decode. Uploads are decoded only on demand: decoding
// every board the bot sent took a third of the bot tests' CPU.
func (f File) Image() image.Image { return decode(f.Data, f.keep).img }

// readHeader fills Format, Width and Height from a picture's header
// (what Discord reports of an image attachment), without decoding it.
func (f *File) readHeader() {
	if c, format, err := image.DecodeConfig(bytes.NewReader(f.Data)); err == nil {
		f.Format, f.Width, f.Height = format, c.Width, c.Height
	}
}

// checkPNG reports whether an uploaded file that claims to be PNG (by name
// or content type) really is one: its header is a PNG header.
func checkPNG(f File) (claims, ok bool) {
	claims = strings.HasSuffix(strings.ToLower(f.Name), ".png") || strings.EqualFold(f.ContentType, "image/png")
	if !claims {
		return false, true
	}
	return true, f.Format == "png"
}

// DMs returns the messages the bot sent to a user's direct-message
// channel, oldest first.
func (s *Server) DMs(userID string) []*Message {
	s.mu.Lock()
	id, ok := s.st.dms[userID]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return s.Messages(id)
}

// WaitDMs waits until the user has received at least n direct messages.
func (s *Server) WaitDMs(t testing.TB, userID string, n int, timeout time.Duration) []*Message {
	t.Helper()
	var out []*Message
	if !s.waitUntil(timeout, func() bool {
		id, ok := s.st.dms[userID]
		if !ok {
			return n == 0
		}
		out = nil
		for _, mid := range s.st.chanMsgs[id] {
			if m, ok := s.st.messages[mid]; ok {
				out = append(out, m.snapshot())
			}
		}
		return len(out) >= n
	}) {
		t.Fatalf("fakediscord: %d direct messages to %s, want %d; requests:\n%s", len(out), userID, n, s.requestList())
	}
	return out
}
