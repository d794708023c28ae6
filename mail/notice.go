package mail

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Notice is one turn notice: what a player needs to move without opening
// Discord. Everything in it is shown to the recipient alone (the hand
// too); the caller fills it from the game.
type Notice struct {
	To       mail.Address // the player's linked address, and a name to greet
	GameID   uint64       // threads the game's mails
	GameName string       // e.g. "Glorieta #12"
	Opponent string       // the opponent's display name
	Move     int          // the move number now to play
	Reminder int          // 0 for the notice, 1, 2, ... for its reminders

	Board    []byte  // the board as a PNG, shown inline (nil: none)
	Scores   []Score // every seat's score
	Clock    string  // e.g. "2 days 4 hours left"
	LastMove string  // the opponent's last move in words
	Hand     string  // the player's hand, in words
	// Note is the service's own words about the turn (who waits, the time
	// left, the status), a few lines shown before the scores.
	Note string

	Link      string     // the private web link ("" when the pages are off)
	GoodMoves []GoodMove // a few good legal moves, best first

	ReplyTo     string // the reply address, play+<token>@host
	Unsubscribe string // https URL that turns mail off in one click (RFC 8058)

	Date time.Time // the Date header (the service's clock)

	// Key, when set, makes the Message-ID instead of the game, the move
	// and the reminder: the board mailed again at a player's asking is a
	// mail of its own, which a receiver must not drop as the turn
	// notice's double. The same Key gives the same id.
	Key string
}

// Score is one seat's score line.
type Score struct {
	Name   string
	Points int
}

// GoodMove is a suggested move and what it gains, in words.
type GoodMove struct {
	Move string // as the player would type it, e.g. "h1 YGYG"
	Gain string // e.g. "+6 points"
}

// Composer turns Notices into messages from one address.
type Composer struct {
	From   mail.Address // e.g. {"Tessera", "tessera@mail.example.org"}
	Domain string       // the right-hand side of Message-IDs (From's domain if "")
}

// Errors of composing.
var (
	ErrBadAddress = errors.New("mail: not a valid mail address")
	ErrBadURL     = errors.New("mail: not an http(s) URL")
	ErrNoReplyTo  = errors.New("mail: a notice needs a reply address")
)

// Bounds on what a notice shows, so a long name cannot grow a header.
const (
	maxHeaderText = 120 // runes of a name or the subject's parts
	maxBodyText   = 2000
	maxGoodMoves  = 5
	maxNoteLines  = 12
)

// ThreadID is the Message-ID that every mail of one game refers to (its
// thread root), the same for every player and every retry:
// <tessera.game-ID@domain>. It is never sent itself; mail clients that
// thread by References (Thunderbird, Apple Mail, Outlook, Gmail with
// the same subject stem) gather the game's mails under it.
func (c *Composer) ThreadID(gameID uint64) string {
	return "<tessera.game-" + strconv.FormatUint(gameID, 10) + "@" + c.domain() + ">"
}

// MessageID is a notice's own id: stable for a (game, move, reminder,
// recipient), so that a retried send carries the same id and the
// receiving side can drop the double.
func (c *Composer) MessageID(n *Notice) string {
	if n.Key != "" {
		sum := sha256.Sum256([]byte(n.Key + "\x00" + strings.ToLower(n.To.Address)))
		return "<tessera.notice." + hex.EncodeToString(sum[:12]) + "@" + c.domain() + ">"
	}
	h := sha256.Sum256([]byte(strings.ToLower(n.To.Address)))
	return fmt.Sprintf("<tessera.game-%d.move-%d.r%d.%s@%s>", n.GameID, n.Move, n.Reminder, hex.EncodeToString(h[:6]), c.domain())
}

func (c *Composer) domain() string {
	if c.Domain != "" {
		return c.Domain
	}
	if at := strings.LastIndexByte(c.From.Address, '@'); at >= 0 {
		return c.From.Address[at+1:]
	}
	return "localhost"
}

// Subject names the game and the opponent, and is the same for every
// mail of the game to its player (GameSubject): Gmail threads only mails
// whose subjects match as well as their References, so a subject naming
// the move number would start a new conversation at every move. The move
// number, and whether this is a reminder, open the body instead, which
// the inbox's preview line shows.
func (n *Notice) Subject() string { return GameSubject(n.GameName, n.Opponent) }

// GameSubject is the subject of every mail of a game to one player
// (notices, reminders, answers, its end): "Glorieta #12 against Bob".
func GameSubject(game, opponent string) string {
	return fmt.Sprintf("%s against %s", clean(game, maxHeaderText), clean(opponent, maxHeaderText))
}

// Compose returns the notice as a complete message (CRLF line ends):
// multipart/alternative of text/plain and a multipart/related holding
// the HTML and the board PNG it shows by Content-ID. Every name goes into
// the headers encoded (RFC 2047), so no name can add a header.
func (c *Composer) Compose(n *Notice) ([]byte, error) {
	from, err := checkAddress(c.From)
	if err != nil {
		return nil, err
	}
	to, err := checkAddress(n.To)
	if err != nil {
		return nil, err
	}
	if n.ReplyTo == "" {
		return nil, ErrNoReplyTo
	}
	replyTo, err := checkAddress(mail.Address{Address: n.ReplyTo})
	if err != nil {
		return nil, err
	}
	var unsub string
	if n.Unsubscribe != "" {
		if unsub, err = checkURL(n.Unsubscribe); err != nil {
			return nil, err
		}
	}
	link := ""
	if n.Link != "" {
		if link, err = checkURL(n.Link); err != nil {
			return nil, err
		}
	}
	id := c.MessageID(n)
	thread := c.ThreadID(n.GameID)
	sum := sha256.Sum256([]byte(id))
	boundary := hex.EncodeToString(sum[:12])
	cid := "board." + hex.EncodeToString(sum[:8]) + "@" + c.domain()

	var b bytes.Buffer
	h := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	h("From", from)
	h("To", to)
	h("Reply-To", replyTo)
	h("Subject", mime.QEncoding.Encode("utf-8", n.Subject()))
	h("Date", n.Date.Format(time.RFC1123Z))
	h("Message-ID", id)
	h("In-Reply-To", thread)
	h("References", thread)
	h("Auto-Submitted", "auto-generated")
	h("X-Auto-Response-Suppress", "All")
	if unsub != "" {
		h("List-Unsubscribe", "<"+unsub+">")
		h("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	h("MIME-Version", "1.0")

	alt := multipart.NewWriter(&b)
	if err := alt.SetBoundary("alt-" + boundary); err != nil {
		return nil, err
	}
	h("Content-Type", "multipart/alternative; boundary=\""+alt.Boundary()+"\"")
	b.WriteString("\r\n")

	view := n.view(link, cid)
	if err := writeQP(alt, "text/plain; charset=utf-8", plainNotice(view)); err != nil {
		return nil, err
	}
	var rel bytes.Buffer
	related := multipart.NewWriter(&rel)
	if err := related.SetBoundary("rel-" + boundary); err != nil {
		return nil, err
	}
	relPart, err := alt.CreatePart(textproto.MIMEHeader{"Content-Type": {"multipart/related; type=\"text/html\"; boundary=\"" + related.Boundary() + "\""}})
	if err != nil {
		return nil, err
	}
	var html bytes.Buffer
	if err := htmlNotice.Execute(&html, view); err != nil {
		return nil, err
	}
	if err := writeQP(related, "text/html; charset=utf-8", html.String()); err != nil {
		return nil, err
	}
	if len(n.Board) > 0 {
		p, err := related.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {"image/png"},
			"Content-Transfer-Encoding": {"base64"},
			"Content-ID":                {"<" + cid + ">"},
			"Content-Disposition":       {"inline; filename=\"board.png\""},
		})
		if err != nil {
			return nil, err
		}
		writeBase64(p, n.Board)
	}
	if err := related.Close(); err != nil {
		return nil, err
	}
	if _, err := relPart.Write(rel.Bytes()); err != nil {
		return nil, err
	}
	if err := alt.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// noticeView is what the two bodies show, cleaned of control characters
// and bounded.
type noticeView struct {
	Name, Game, Opponent string
	Move, Reminder       int
	Board                bool
	CID                  string
	Scores               []Score
	Clock, LastMove      string
	Hand                 string
	Note                 []string
	Link                 template.URL // checked by checkURL: http(s) only
	LinkText             string
	GoodMoves            []GoodMove
	ReplyTo              string
}

func (n *Notice) view(link, cid string) noticeView {
	v := noticeView{
		Name: clean(n.To.Name, maxHeaderText), Game: clean(n.GameName, maxHeaderText), Opponent: clean(n.Opponent, maxHeaderText),
		Move: n.Move, Reminder: n.Reminder, Board: len(n.Board) > 0, CID: cid,
		Clock: clean(n.Clock, maxBodyText), LastMove: clean(n.LastMove, maxBodyText), Hand: clean(n.Hand, maxBodyText),
		Link: template.URL(link), LinkText: link, ReplyTo: n.ReplyTo,
	}
	for i, line := range strings.Split(n.Note, "\n") {
		if i == maxNoteLines {
			break
		}
		if line = clean(line, maxBodyText); strings.TrimSpace(line) != "" {
			v.Note = append(v.Note, line)
		}
	}
	for _, s := range n.Scores {
		v.Scores = append(v.Scores, Score{Name: clean(s.Name, maxHeaderText), Points: s.Points})
	}
	for i, g := range n.GoodMoves {
		if i == maxGoodMoves {
			break
		}
		v.GoodMoves = append(v.GoodMoves, GoodMove{Move: clean(g.Move, maxHeaderText), Gain: clean(g.Gain, maxHeaderText)})
	}
	return v
}

func plainNotice(v noticeView) string {
	var b strings.Builder
	if v.Reminder > 0 {
		fmt.Fprintf(&b, "Reminder: your move (move %d) in %s against %s.\n\n", v.Move, v.Game, v.Opponent)
	} else {
		fmt.Fprintf(&b, "Your move (move %d) in %s against %s.\n\n", v.Move, v.Game, v.Opponent)
	}
	for _, line := range v.Note {
		b.WriteString(line + "\n")
	}
	if len(v.Note) > 0 {
		b.WriteString("\n")
	}
	if v.LastMove != "" {
		fmt.Fprintf(&b, "Last move: %s\n", v.LastMove)
	}
	for _, s := range v.Scores {
		fmt.Fprintf(&b, "Score: %s %d\n", s.Name, s.Points)
	}
	if v.Clock != "" {
		fmt.Fprintf(&b, "Clock: %s\n", v.Clock)
	}
	if v.Hand != "" {
		fmt.Fprintf(&b, "Your hand: %s\n", v.Hand)
	}
	if len(v.GoodMoves) > 0 {
		b.WriteString("\nGood moves:\n")
		for _, g := range v.GoodMoves {
			fmt.Fprintf(&b, "  %s  (%s)\n", g.Move, g.Gain)
		}
	}
	b.WriteString("\nTo move, reply to this mail with the move alone on the first line,\n")
	b.WriteString("e.g. \"" + exampleMove(v) + "\". \"resign\" resigns, \"board\" sends the board again.\n")
	if v.LinkText != "" {
		fmt.Fprintf(&b, "\nYour private page (do not share it): %s\n", v.LinkText)
	}
	return b.String()
}

func exampleMove(v noticeView) string {
	if len(v.GoodMoves) > 0 {
		return v.GoodMoves[0].Move
	}
	return "h1 YGYG"
}

var htmlNotice = template.Must(template.New("notice").Funcs(template.FuncMap{"example": exampleMove}).Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{.Game}}</title></head>
<body style="font-family: sans-serif">
<p>{{if .Reminder}}Reminder: your{{else}}Your{{end}} move (move {{.Move}}) in <b>{{.Game}}</b> against {{.Opponent}}.</p>
{{if .Name}}<p>Hello {{.Name}},</p>{{end}}
{{range .Note}}<p>{{.}}</p>{{end}}
{{if .Board}}<p><img src="cid:{{.CID}}" alt="The board of {{.Game}}" style="max-width: 100%"></p>{{end}}
<table>
{{if .LastMove}}<tr><th align="left">Last move</th><td>{{.LastMove}}</td></tr>{{end}}
{{range .Scores}}<tr><th align="left">{{.Name}}</th><td>{{.Points}}</td></tr>{{end}}
{{if .Clock}}<tr><th align="left">Clock</th><td>{{.Clock}}</td></tr>{{end}}
{{if .Hand}}<tr><th align="left">Your hand</th><td>{{.Hand}}</td></tr>{{end}}
</table>
{{if .GoodMoves}}<p>Good moves:</p><ul>{{range .GoodMoves}}<li><code>{{.Move}}</code> ({{.Gain}})</li>{{end}}</ul>{{end}}
<p>To move, reply to this mail with the move alone on the first line, e.g. <code>{{example .}}</code>. <code>resign</code> resigns, <code>board</code> sends the board again.</p>
{{if .Link}}<p><a href="{{.Link}}">Your private page</a> (do not share it).</p>{{end}}
</body></html>
`))

// clean makes s one line of printable text, at most max runes: control
// characters (CR, LF, NUL, ...) become spaces, so nothing a player names
// can break a line of the message.
func clean(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// checkAddress formats a as a header value, refusing an address that does
// not parse back to itself (CR, LF, brackets, commas: a second address or
// header smuggled in). The name is cleaned and encoded by net/mail.
func checkAddress(a mail.Address) (string, error) {
	if a.Address == "" || len(a.Address) > 254 || strings.ContainsAny(a.Address, "\r\n<>,;\" \t") {
		return "", ErrBadAddress
	}
	p, err := mail.ParseAddress(a.Address)
	if err != nil || p.Address != a.Address || p.Name != "" {
		return "", ErrBadAddress
	}
	out := (&mail.Address{Name: clean(a.Name, maxHeaderText), Address: a.Address}).String()
	// A name net/mail cannot read back (its Q-encoding leaves some
	// specials, a backslash, as they are) is dropped rather than sent:
	// a To that does not parse may be refused or misread on the way.
	if back, err := mail.ParseAddress(out); err != nil || back.Address != a.Address {
		out = (&mail.Address{Address: a.Address}).String()
	}
	if strings.ContainsAny(out, "\r\n") {
		return "", ErrBadAddress
	}
	return out, nil
}

// checkURL accepts an absolute http or https URL, returned in its escaped
// form (no space, no '>', no CR or LF can remain).
func checkURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(s) > 2000 {
		return "", ErrBadURL
	}
	out := u.String()
	if strings.ContainsAny(out, " \t\r\n<>\"") || !utf8.ValidString(out) {
		return "", ErrBadURL
	}
	return out, nil
}

// writeQP writes a quoted-printable part with CRLF line ends.
func writeQP(w *multipart.Writer, contentType, text string) error {
	p, err := w.CreatePart(textproto.MIMEHeader{"Content-Type": {contentType}, "Content-Transfer-Encoding": {"quoted-printable"}})
	if err != nil {
		return err
	}
	q := quotedprintable.NewWriter(p)
	if _, err := q.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n"))); err != nil {
		return err
	}
	return q.Close()
}

// writeBase64 writes data in base64 lines of 76 characters (RFC 2045).
func writeBase64(w interface{ Write([]byte) (int, error) }, data []byte) {
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		w.Write([]byte(enc[:76] + "\r\n"))
		enc = enc[76:]
	}
	w.Write([]byte(enc + "\r\n"))
}
