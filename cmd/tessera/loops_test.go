package main

import (
	"log/slog"
	"path/filepath"
	"testing"

	"tessera/bot"
	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// TestLoopsBesideTransports: the one runner serve starts has the clock in
// every process; beside Discord it delivers through the bot's Sink once
// the bot is open, ends the bot's Run on a refused token and runs the
// workers; beside the console alone it has no courier and no workers
// (the console delivers and plays the computer after each command).
func TestLoopsBesideTransports(t *testing.T) {
	st, err := boltdb.Open(filepath.Join(t.TempDir(), "t.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	log := slog.New(slog.DiscardHandler)
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Logger: log})

	console := loopsConfig(svc, log, nil, false)
	if console.NoClock || !console.NoWorkers || console.Sink != nil {
		t.Errorf("beside the console: clock %v, workers %v, sink %v; want the clock alone", !console.NoClock, !console.NoWorkers, console.Sink)
	}
	b, err := bot.New(svc, bot.Options{Token: "t", Logger: log}) // not opened: nothing connects
	if err != nil {
		t.Fatal(err)
	}
	discord := loopsConfig(svc, log, b, true)
	if discord.NoClock || discord.NoWorkers || discord.Sink == nil || discord.Courier == nil || discord.Ready != b.Opened() || discord.Refused == nil {
		t.Errorf("beside Discord: %+v; want the clock, the workers, and the courier through the bot once it is open", discord)
	}
	// process.workers off: the computer's moves and the analyses run in
	// another process on the same database; this one still delivers.
	noWorkers := loopsConfig(svc, log, b, false)
	if noWorkers.NoClock || !noWorkers.NoWorkers || noWorkers.Sink == nil {
		t.Errorf("beside Discord, workers off: clock %v, workers %v, sink %v; want the clock and the courier", !noWorkers.NoClock, !noWorkers.NoWorkers, noWorkers.Sink)
	}
	// A web-only process: the clock and the workers, no courier.
	webOnly := loopsConfig(svc, log, nil, true)
	if webOnly.NoClock || webOnly.NoWorkers || webOnly.Sink != nil {
		t.Errorf("web only: clock %v, workers %v, sink %v; want the clock and the workers", !webOnly.NoClock, !webOnly.NoWorkers, webOnly.Sink)
	}
}
