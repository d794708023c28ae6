package mail

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"net/textproto"
	"strings"
)

// Kind says what an incoming mail is.
type Kind int

const (
	// KindNoCommand is a person's mail with no line that is a move or a
	// reply word: the caller may answer with how to reply.
	KindNoCommand Kind = iota
	// KindCommand is a person's mail whose Line is the command to play.
	KindCommand
	// KindAutoReply is an auto-reply, an out-of-office, a list's or a
	// bulk mail: never answered (RFC 3834), never read as a move.
	KindAutoReply
	// KindBounce is a delivery status notification (RFC 3464): see Bounce.
	KindBounce
)

func (k Kind) String() string {
	switch k {
	case KindCommand:
		return "command"
	case KindAutoReply:
		return "auto-reply"
	case KindBounce:
		return "bounce"
	}
	return "no command"
}

// Reply is an incoming mail as read.
type Reply struct {
	Kind Kind
	// Line is the command, one line as the sender wrote it (trimmed), when
	// Kind is KindCommand.
	Line string
	// MessageID is the mail's Message-ID, or when it has none an id made
	// from a hash of the whole message, so the caller can always drop a
	// mail it has seen ("<sha256.HEX@missing>").
	MessageID string
	From      *mail.Address // the From header, nil when unreadable
	Subject   string        // decoded
	InReplyTo string
	HTMLOnly  bool    // the command was read from an HTML body
	Bounce    *Bounce // when Kind is KindBounce
}

// Limits bound the work one incoming mail can cause.
type Limits struct {
	MaxBytes int64 // the whole message (ErrTooLarge past it)
	MaxParts int   // MIME parts read; later parts are ignored
	MaxDepth int   // nesting of multiparts; deeper ones are ignored
	MaxText  int   // decoded bytes of the body part read
}

// DefaultLimits suit replies: a reply is a line, its quote a few
// kilobytes; 10 MiB leaves room for a phone's photo attached by mistake.
var DefaultLimits = Limits{MaxBytes: 10 << 20, MaxParts: 64, MaxDepth: 8, MaxText: 256 << 10}

// Errors of reading mail.
var (
	ErrTooLarge  = errors.New("mail: message larger than the limit")
	ErrMalformed = errors.New("mail: message headers unreadable")
)

// ParseReply reads one message and finds its command: the first line of
// its text (text/plain, else text/html made text) that isMove accepts or
// that is "resign" or "board", outside quotes and signatures.
// Attachments, forwarded messages and every later line are not read.
// Auto-replies and bounces are told apart first, and never searched for
// a command. The same bytes always give the same Reply.
func ParseReply(r io.Reader, isMove func(string) bool, lim Limits) (*Reply, error) {
	if lim.MaxBytes <= 0 {
		lim = DefaultLimits
	}
	raw, err := io.ReadAll(io.LimitReader(r, lim.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(raw)) > lim.MaxBytes {
		return nil, ErrTooLarge
	}
	msg, err := readMessage(raw)
	if err != nil {
		return nil, err
	}
	h := mail.Header(msg.header)
	rep := &Reply{
		MessageID: clean(h.Get("Message-Id"), 998),
		Subject:   clean(decodeHeader(h.Get("Subject")), 998),
		InReplyTo: clean(h.Get("In-Reply-To"), 998),
	}
	if rep.MessageID == "" {
		sum := sha256.Sum256(raw)
		rep.MessageID = "<sha256." + hex.EncodeToString(sum[:16]) + "@missing>"
	}
	if from, err := (&mail.AddressParser{WordDecoder: wordDecoder}).Parse(h.Get("From")); err == nil {
		rep.From = from
	}
	w := &walker{lim: lim}
	w.walk(msg.header, msg.body, 0)

	if b := w.bounce(); b != nil {
		rep.Kind, rep.Bounce = KindBounce, b
		return rep, nil
	}
	if isAutoReply(h, rep.Subject) {
		rep.Kind = KindAutoReply
		return rep, nil
	}
	text := w.plain
	if !w.havePlain && w.haveHTML {
		text, rep.HTMLOnly = htmlToText(w.html), true
	}
	if line, ok := firstCommand(text, isMove); ok {
		rep.Kind, rep.Line = KindCommand, line
	}
	return rep, nil
}

// message is a message's header and undecoded body.
type message struct {
	header textproto.MIMEHeader
	body   []byte
}

func readMessage(raw []byte) (message, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return message{}, ErrMalformed
	}
	body, _ := io.ReadAll(msg.Body)
	return message{textproto.MIMEHeader(msg.Header), body}, nil
}

// walker collects the first text/plain and text/html parts that are not
// attachments, and a delivery-status part, within the limits.
type walker struct {
	lim                 Limits
	parts               int
	plain, html, status string
	havePlain, haveHTML bool
	haveStatus          bool
	report              bool // a multipart/report of report-type delivery-status
}

func (w *walker) walk(h textproto.MIMEHeader, body []byte, depth int) {
	w.parts++
	if w.parts > w.lim.MaxParts || depth > w.lim.MaxDepth {
		return
	}
	ct := h.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil && mt == "" {
		mt, params = "text/plain", map[string]string{} // RFC 2045's default
	}
	if disp, _, _ := mime.ParseMediaType(h.Get("Content-Disposition")); disp == "attachment" && !strings.HasPrefix(mt, "message/") {
		return
	}
	switch {
	case strings.HasPrefix(mt, "multipart/"):
		if mt == "multipart/report" && strings.EqualFold(params["report-type"], "delivery-status") {
			w.report = true
		}
		if params["boundary"] == "" {
			return
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for w.parts <= w.lim.MaxParts {
			p, err := mr.NextRawPart() // the transfer encoding is ours to undo
			if err != nil {
				return // the end, or a broken tail: keep what was read
			}
			b, err := io.ReadAll(io.LimitReader(p, w.lim.MaxBytes))
			if err != nil && len(b) == 0 {
				return
			}
			w.walk(p.Header, b, depth+1)
		}
	case mt == "text/plain" && !w.havePlain:
		w.plain, w.havePlain = decodeBody(body, h.Get("Content-Transfer-Encoding"), params["charset"], w.lim.MaxText), true
	case mt == "text/html" && !w.haveHTML:
		w.html, w.haveHTML = decodeBody(body, h.Get("Content-Transfer-Encoding"), params["charset"], w.lim.MaxText), true
	case (mt == "message/delivery-status" || mt == "message/global-delivery-status") && !w.haveStatus:
		w.status, w.haveStatus = decodeBody(body, h.Get("Content-Transfer-Encoding"), "utf-8", w.lim.MaxText), true
	}
	// message/rfc822 (a forwarded mail), images and the rest: not read.
}

// isAutoReply reads the marks of automatic mail: RFC 3834's
// Auto-Submitted (anything but "no"), the X-Autoreply/X-Autorespond
// headers of vacation programs, Precedence bulk/junk/list/auto_reply,
// a list's List-Id, and the subjects that Exchange and others give
// out-of-office replies.
func isAutoReply(h mail.Header, subject string) bool {
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" {
		if i := strings.IndexByte(v, ';'); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v != "no" {
			return true
		}
	}
	for _, k := range []string{"X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply", "List-Id"} {
		if _, ok := h[textproto.CanonicalMIMEHeaderKey(k)]; ok {
			return true
		}
	}
	for _, k := range []string{"Precedence", "X-Precedence"} {
		switch strings.ToLower(strings.TrimSpace(h.Get(k))) {
		case "bulk", "junk", "list", "auto_reply", "auto-reply":
			return true
		}
	}
	s := strings.ToLower(subject)
	for _, p := range []string{"auto-reply", "auto reply", "autoreply", "automatic reply", "out of office", "out of the office", "abwesenheitsnotiz", "réponse automatique", "respuesta automática", "autosvar", "automatisch antwoord"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// readFields reads "Name: value" lines (with continuation lines) of one
// block of a delivery-status body.
func readFields(block string) map[string]string {
	out := map[string]string{}
	last := ""
	sc := bufio.NewScanner(strings.NewReader(block))
	sc.Buffer(make([]byte, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) && last != "" {
			out[last] += " " + strings.TrimSpace(line)
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		last = strings.ToLower(strings.TrimSpace(k))
		if _, seen := out[last]; !seen {
			out[last] = strings.TrimSpace(v)
		}
	}
	return out
}

// SameAddress reports whether two mail addresses name one mailbox, as the
// reply's sender is checked against the linked address: the domain
// without case (RFC 5321), the local part too, since every large mailbox
// provider ignores it, and never more loosely than that (no dots or
// +tags dropped: that would let another mailbox pass).
func SameAddress(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	return a != "" && strings.Contains(a, "@") && strings.EqualFold(a, b)
}
