// Package delivery is Tessera's courier: it takes the announcements the
// commands (package service) wrote into the store's outbox and delivers
// them to a transport, once each and each game's in order.
//
// It owns:
//   - the ports a transport implements (sink.go): Sink, which posts,
//     edits, reacts and sends direct messages, and the optional Finder,
//     which looks for a message already sent; the failure vocabulary a
//     transport classifies its refusals with (DeliveryFailure, Permanent,
//     ErrTokenRefused);
//   - the courier (courier.go): what each kind of announcement does, the
//     game's place (thread, status message) made once and recorded, and
//     the retries with back-off;
//   - the presenter (present.go): every message rendered through the
//     Sink's own service.Presenter (Presenting) on its way in, so that
//     the outbox stores neutral text any transport can show;
//   - the pool (pool.go): games claimed from a shared outbox under a
//     lease and delivered by several workers, for any number of processes;
//   - a tournament's announcements (events.go): its thread made from its
//     post once and recorded, its posts, and the edits of its post, each
//     event's in order in a queue of its own;
//   - recovery (recovery.go): a game moved to a new thread, its channel or
//     direct messages when its place is gone or locked, players told once
//     when a permission is missing, nothing a human can fix dropped.
//
// It does not write the words: the status message, the turn notices and
// the pictures come from the service (the Service interface). The bot
// (Discord) and the console each give the courier their Sink; the service
// imports neither them nor this package (architecture_test.go).
package delivery
