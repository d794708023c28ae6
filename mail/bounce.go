package mail

import "strings"

// Bounce is what a delivery status notification (RFC 3464) says of the
// first recipient it reports failed, or else of its first recipient.
type Bounce struct {
	Recipient  string // the Final-Recipient's address, e.g. "alice@example.org"
	Action     string // "failed", "delayed", "delivered", "relayed", "expanded"
	Status     string // e.g. "5.1.1"
	Diagnostic string // the remote server's words, if given
	// Permanent is a hard bounce: Action failed with a 5.x.x status.
	// The caller switches mail off for the address; anything else (a
	// delay, a 4.x.x) is only noted.
	Permanent bool
}

// bounce reads the delivery-status part of a multipart/report
// (report-type=delivery-status), or nil when the mail is none.
func (w *walker) bounce() *Bounce {
	if !w.report || !w.haveStatus {
		return nil
	}
	blocks := strings.Split(strings.ReplaceAll(w.status, "\r\n", "\n"), "\n\n")
	var first *Bounce
	for _, block := range blocks[1:] { // blocks[0] is the per-message fields
		f := readFields(block)
		rcpt := f["final-recipient"]
		if rcpt == "" {
			rcpt = f["original-recipient"]
		}
		if rcpt == "" {
			continue
		}
		if _, addr, ok := strings.Cut(rcpt, ";"); ok {
			rcpt = addr
		}
		b := &Bounce{
			Recipient:  clean(strings.Trim(strings.TrimSpace(rcpt), "<>"), 254),
			Action:     strings.ToLower(clean(f["action"], 40)),
			Status:     clean(f["status"], 40),
			Diagnostic: clean(f["diagnostic-code"], 400),
		}
		if i := strings.IndexAny(b.Status, " ("); i >= 0 {
			b.Status = b.Status[:i]
		}
		b.Permanent = b.Action == "failed" && strings.HasPrefix(b.Status, "5.")
		if b.Action == "failed" {
			return b
		}
		if first == nil {
			first = b
		}
	}
	if first == nil {
		first = &Bounce{}
	}
	return first
}
