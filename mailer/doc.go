// Package mailer is the mail transport: an adapter on the same port as
// the bot and the console, built on package mail (the only importer of
// the SMTP and DKIM libraries).
//
//   - transport.go: the Transport, its Presenter (names, dates in the
//     player's zone, no markdown) and its Config.
//   - letters.go: delivery.Letterbox: turn notices, reminders, game ends
//     and confirmation codes composed (mail.Composer) and handed to the
//     relay (mail.Sender), each with a Message-ID fixed by its
//     announcement, so a letter sent again after a crash is the same mail.
//   - replies.go: the listener's Handler: a reply's token checked, its
//     sender the linked address, its move played through the command
//     table's /move (resign and board too), a refusal answered by mail
//     with the moves that fit (through the outbox, so the courier
//     retries it), a hard bounce turning mail off; the same Message-ID
//     twice plays once, even weeks later (the store's handled
//     interactions, kept 90 days for mail).
//
// docs/mail.md tells a host how to set it up.
package mailer
