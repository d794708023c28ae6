// Package service holds Tessera's commands and their replies, free of any
// transport: the Discord adapter (bot), the local console and the tests
// all drive this same code. Players are identified by opaque ids; the
// transport says how to mention one: the service writes mentions, links,
// moments and the words for what a caller types as neutral tokens, and
// each transport renders them with its own Presenter. It draws through its Renderer and
// stores through storage.Store; cmd/tessera wires both.
//
// Where each concern lives:
//
//   - What a transport gives and gets: reply.go (User, Request, Reply,
//     File, Button, Choice), requestctx.go (a request's context),
//     command.go and commandtable.go (the table of commands every
//     transport registers, parses and dispatches by), renderer.go (the
//     Renderer interface), presenter.go (Presenter, the tokens it renders,
//     Render, and Plain, the presenter of a transport with none of its
//     own).
//   - Its audiences: audiences.go (Players, Pages and Workers: the
//     interfaces through which the transports, the web pages and the
//     runner see the service, never the whole of it).
//   - The Service and its settings: service.go (New, Fail), config.go
//     (Config, Wording, Validate), meter.go (Meter: what it reports to
//     the operators' metrics).
//   - The commands: commands.go (challenges, accept, moves, resign, hand,
//     board, games, rules), open.go (open challenges), puzzle.go (puzzles
//     and hints), rematch.go, history.go, export.go, replay.go and
//     replaylimit.go (/replay's GIF), leaderboard.go, profile.go,
//     vacation.go, settings.go and email.go (a player's mail address,
//     linked by a mailed code, unlinked by a bounce; the answers to mail
//     replies), unsubscribe.go (mail's signed one-click unsubscribe),
//     abort.go, plaintext.go (moves typed as plain messages), buttons.go
//     (button ids), autocomplete.go, input.go (what is typed cleaned of
//     the presenter's token characters where it enters the service).
//   - A game's position: position.go (a record replayed into its position,
//     cached), lookup.go (which game a command means, and who may see it),
//     settle.go (a challenge's end), ratings.go and rated.go.
//   - Time: clock.go (time controls), scheduler.go (Tick: deadlines and
//     reminders).
//   - What players read and see: text.go (scores, events, names),
//     gamenames.go, typed.go (quoting what was typed), clip.go, pictures.go and
//     boardbase.go (board pictures and their cache), eventpicture.go (a
//     tournament's standings picture, and its TRF).
//   - The computer: ai.go (its seats and levels), aiworker.go (its moves,
//     off the interaction path); analyze.go (/analyze and its result's
//     words and chart), analyzeworker.go (the analyses' queue, off the
//     interaction path, resumed after a restart), analyzerun.go (a
//     record's positions analysed, shared with `tessera analyze`),
//     analyzeparts.go (the analysis split into errors and luck, the
//     verdicts and a player's own view), analyzeweb.go (the analysis on
//     a finished game's web page: the chart, each move's error and luck).
//   - Tournaments (/tournament): tournamentcmd.go (its subcommands),
//     tournament.go (making, joining, leaving, starting, cancelling an
//     event; its buttons), tournamentround.go (seeding, pairing rounds,
//     a game's result in its event, knockout matches, withdrawals and
//     the leaves a crash interrupted), tournamentbye.go (/tournament
//     bye: a round sat out on request, within the organiser's limits),
//     eventtext.go (the event's post, thread, standings and pairings).
//   - The companion web pages (package web drives them): weblink.go (game
//     page addresses and players' signed private links), link.go (/link),
//     webview.go (what a game's page shows one viewer, and a move's
//     preview), webplayers.go (the data of a server's players' pages),
//     webevents.go (its tournaments' pages).
//   - Delivery is package delivery (the courier, its pool, recovery, the
//     Sink and Finder ports); here stay what it asks of the service,
//     announce.go (Message, the status message, pictures and turn notices
//     the courier sends), and its settings, courierconfig.go.
package service
