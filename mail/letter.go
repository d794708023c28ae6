package mail

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"
)

// Letter is a plain-text mail that is not a turn notice: an address's
// confirmation code, the answer to a reply (a refusal with the moves that
// fit, the board asked for), a game's end. With a GameID it joins that
// game's thread (the References of its notices, GameSubject).
type Letter struct {
	To      mail.Address
	Subject string
	Text    string
	GameID  uint64 // 0: no game's thread
	// InReplyTo is the Message-ID of the mail this answers ("" for none).
	InReplyTo string
	// ReplyTo is the reply address, play+<token>@host ("" for none).
	ReplyTo string
	// Key makes the Message-ID: the same Key gives the same id, so that a
	// letter sent again after a crash is the same mail to the receiver.
	Key  string
	Date time.Time
	// Unsubscribe is the https URL that turns mail off in one click
	// (RFC 8058; "" for none: a confirmation code, an answer to a reply).
	Unsubscribe string
}

// ComposeLetter returns l as a complete text/plain message (CRLF line
// ends, quoted-printable), with Auto-Submitted: auto-replied when it
// answers a mail (RFC 3834), auto-generated otherwise.
func (c *Composer) ComposeLetter(l *Letter) ([]byte, error) {
	from, err := checkAddress(c.From)
	if err != nil {
		return nil, err
	}
	to, err := checkAddress(l.To)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(l.Key + "\x00" + strings.ToLower(l.To.Address)))
	id := "<tessera.letter." + hex.EncodeToString(sum[:12]) + "@" + c.domain() + ">"
	var b bytes.Buffer
	h := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	h("From", from)
	h("To", to)
	if l.ReplyTo != "" {
		rt, err := checkAddress(mail.Address{Address: l.ReplyTo})
		if err != nil {
			return nil, err
		}
		h("Reply-To", rt)
	}
	h("Subject", mime.QEncoding.Encode("utf-8", clean(l.Subject, maxHeaderText)))
	h("Date", l.Date.Format(time.RFC1123Z))
	h("Message-ID", id)
	var refs []string
	if l.GameID != 0 {
		refs = append(refs, c.ThreadID(l.GameID))
	}
	if irt := clean(l.InReplyTo, 998); irt != "" && strings.HasPrefix(irt, "<") && strings.HasSuffix(irt, ">") && !strings.ContainsAny(irt, " ") {
		refs = append(refs, irt)
		h("In-Reply-To", irt)
		h("Auto-Submitted", "auto-replied")
	} else {
		if l.GameID != 0 {
			h("In-Reply-To", c.ThreadID(l.GameID))
		}
		h("Auto-Submitted", "auto-generated")
	}
	if len(refs) > 0 {
		h("References", strings.Join(refs, " "))
	}
	h("X-Auto-Response-Suppress", "All")
	if l.Unsubscribe != "" {
		unsub, err := checkURL(l.Unsubscribe)
		if err != nil {
			return nil, err
		}
		h("List-Unsubscribe", "<"+unsub+">")
		h("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	text := strings.ReplaceAll(strings.ToValidUTF8(l.Text, "\uFFFD"), "\r\n", "\n")
	qp := quotedprintable.NewWriter(&b)
	if _, err := qp.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n"))); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	b.WriteString("\r\n")
	return b.Bytes(), nil
}
