// Package mail is Tessera's play-by-email adapter: the only importer of
// the SMTP library (emersion/go-smtp) and the DKIM library
// (emersion/go-msgauth). It knows no game rules and no store; the mail
// transport (package mailer) wires it to the service and the courier.
//
// Where each concern lives:
//
//   - notice.go: a turn notice (Notice) composed into a MIME message,
//     threaded per game, with the good-citizen headers (RFC 3834
//     Auto-Submitted, RFC 8058 one-click List-Unsubscribe).
//   - letter.go: a plain-text Letter (a confirmation code, an answer to a
//     reply, a game's end) in its game's thread, its Message-ID fixed by
//     a key so that a letter sent again is the same mail.
//   - token.go: the signed reply token carried by the reply address
//     (play+<token>@host), naming game, seat, user and link epoch.
//   - reply.go: an incoming mail read into a Reply: the first line that
//     is a move, outside quotes and signatures (quote.go), from plain or
//     HTML-only mail (html.go) in any common charset (charset.go);
//     auto-replies and DSN bounces (bounce.go) told apart.
//   - sender.go: the Sender, which hands composed mail to the relay
//     (STARTTLS, AUTH PLAIN, temporary vs permanent errors, a rate limit
//     per address), DKIM-signing it when configured (dkim.go).
//   - listener.go: the Listener, an SMTP server that accepts only reply
//     addresses of our domain and hands each message to a handler.
//
// docs/mail.md tells a host what to configure and open.
package mail
