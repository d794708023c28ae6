package main

import (
	"log/slog"

	"tessera/bot"
	"tessera/delivery"
	"tessera/runner"
	"tessera/service"
)

// startLoops starts the process's loops (runner/) once, beside whichever
// transports it serves; a transport gives them only its Sink. The clocks
// run in every process (a game's deadline passes, a challenge expires,
// while the console waits for a line or only the web pages are served).
// With Discord (b, over the gateway or the HTTP interactions endpoint)
// the courier posts through the bot's Sink once the bot is open, a token
// Discord refuses ends the bot's Run, and the workers play the
// computer's moves and run the analyses. Without it (b nil: the console,
// with or without the web pages) the console delivers and plays the
// computer itself, after each command, so that its output keeps the
// order of play: no courier and no workers here.
//
// workers (process.workers) says whether this process runs the workers
// at all: off, other processes on the same database run them. The
// console (b nil, workers false) runs the computer itself.
func startLoops(svc *service.Service, log *slog.Logger, b *bot.Bot, workers bool) *runner.Runner {
	return runner.Start(loopsConfig(svc, log, b, workers))
}

// loopsConfig is what startLoops starts (tests shorten its intervals).
func loopsConfig(svc *service.Service, log *slog.Logger, b *bot.Bot, workers bool) runner.Config {
	cfg := runner.Config{Service: svc, Log: log, NoWorkers: !workers}
	if b != nil {
		cfg.Courier = delivery.New(svc, svc.Store())
		cfg.Sink, cfg.Ready, cfg.Refused = b.Sink(), b.Opened(), b.TokenRefused
	}
	return cfg
}
