package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"tessera/bot"
	"tessera/console"
	"tessera/delivery"
	"tessera/metrics"
	"tessera/runner"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/database"
)

// runBot is `tessera run`: Discord when DISCORD_TOKEN is set; without
// it the local console, but only for someone at a terminal. A deployment
// that lost its token (standard input not a terminal, as in a container)
// exits with status 2 saying so, rather than reading the end of its input
// and exiting 0 as if all were well.
func runBot(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return serve("run", args, stdin, stdout, stderr, getenv)
}

// runConsole is `tessera console`: the local console on standard input,
// whatever the environment holds and whatever standard input is (a
// script piped in is played as typed).
func runConsole(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return serve("console", args, stdin, stdout, stderr, getenv)
}

// serve runs the bot (name "run") or the local console ("console").
func serve(name string, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx := context.Background() // the subcommand's; a signal ends it once it serves
	fs := newFlagSet(name, stderr)
	cfgPath := fs.String("config", "", "configuration file (default $TESSERA_CONFIG, else config.yaml if present)")
	dbFlag := fs.String("db", "", "database file or postgres:// URL (default: the configured database)")
	seed := fs.Uint64("seed", 0, "local console only: deal its new games from seeds N, N+1, ... so that a session can be followed move by move (0: random)")
	webFlag := fs.String("web", "", "serve the game pages on this address, like :8080 (default: the configured web.listen)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tessera: %s takes no arguments (got %q); see tessera -h\n", name, fs.Args())
		return 2
	}
	path, required := *cfgPath, true
	if path == "" {
		path, required = getenv("TESSERA_CONFIG"), true
	}
	if path == "" {
		path, required = "config.yaml", false
	}
	cfg, err := loadConfig(path, required, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 2
	}
	if *dbFlag != "" {
		cfg.Database = *dbFlag
	}
	if *webFlag != "" {
		if err := checkListen(*webFlag); err != nil {
			fmt.Fprintf(stderr, "tessera: --web %q: %v\n", *webFlag, err)
			return 2
		}
		cfg.Web.Listen = *webFlag
	}
	local := name == "console"
	webOnly := !local && cfg.Process.WebOnly
	if webOnly && cfg.Web.Listen == "" {
		fmt.Fprintln(stderr, "tessera: process.web_only is on but web.listen is empty: a web-only process serves the game pages; give it an address like :8080 (web.listen, TESSERA_WEB_LISTEN or --web)")
		return 2
	}
	if !local && !webOnly && cfg.Token == "" {
		if cfg.Interactions.Listen != "" {
			// Not the console: this is a deployment without its token.
			fmt.Fprintln(stderr, "tessera: interactions.listen is set but DISCORD_TOKEN is not: the bot answers and posts through Discord's API, which needs the token")
			return 2
		}
		if !isTerminal(stdin) {
			fmt.Fprintln(stderr, "tessera: DISCORD_TOKEN is not set, so the bot cannot connect to Discord: set it in the environment; to play on the local console with a script as input, run `tessera console`")
			return 2
		}
		local = true
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	if local {
		// The console's output is the game: its logs go to standard
		// error, and only warnings and errors.
		level = max(level, slog.LevelWarn)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	folder, err := makeDatabaseFolder(cfg.Database)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	store, err := database.Open(ctx, cfg.Database, storage.Options{Timeout: cfg.DatabaseTimeout, Log: log})
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	defer store.Close()
	created := ""
	if folder != "" {
		created = fmt.Sprintf(" (in the new folder %s)", folder)
	}
	if store.Created() {
		log.Info("created a new, empty database"+created, "path", database.Redact(cfg.Database))
	}
	if database.IsPostgres(cfg.Database) {
		// Nothing to serve: backup and check reach the server themselves.
	} else if admin, err := serveAdmin(ctx, store, cfg.Database, log); err != nil {
		log.Warn("no backup socket: tessera backup works only while the bot is stopped", "err", err)
	} else {
		defer admin.Close()
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *seed != 0 && !local {
		fmt.Fprintln(stderr, "tessera: --seed is for the local console only; on Discord every game is dealt at random")
		return 2
	}

	web, err := listenHTTP(cfg, cfg.Web.Listen, local, log)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 2
	}
	defer web.shutdown()
	reg := metrics.New()
	reg.Logger = log
	reg.WatchOutbox(store)
	webCfg, err := web.webConfig(ctx, cfg, store)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}

	if webOnly {
		return serveWebOnly(ctx, cfg, store, web, webCfg, reg, log, stderr)
	}
	if local {
		sc := cfg.serviceConfig()
		if *seed != 0 {
			next := *seed
			sc.Seed = func() uint64 { next++; return next - 1 }
		}
		sc.Logger = log
		sc.Web, sc.Meter = webCfg, reg
		svc := service.New(store, sc)
		pages, closePages, err := web.newPages(svc, store, reg, log)
		if err != nil {
			fmt.Fprintln(stderr, "tessera:", err)
			return 1
		}
		web.serve(reg, pages, closePages)
		kept := database.Redact(cfg.Database)
		if store.Created() {
			kept += ", a new, empty database" + created
		}
		fmt.Fprintf(stdout, "Tessera local console. Games are kept in %s; pictures go to %s/.\n", kept, cfg.Pictures)
		if web.pages != nil {
			fmt.Fprintf(stdout, "Game pages at %s (each game's address is printed when it starts).\n", web.url)
		}
		loops := startLoops(svc, log, nil, false)
		defer loops.Close()
		if err := console.New(svc, delivery.New(svc, store), stdout, cfg.Pictures).Run(ctx, stdin); err != nil {
			fmt.Fprintln(stderr, "tessera:", err)
			return 1
		}
		return 0
	}
	sc := cfg.serviceConfig()
	sc.Logger = log
	sc.Web, sc.Meter, sc.Mail = webCfg, reg, cfg.Mail.Relay != ""
	svc := service.New(store, sc)
	opt := bot.Options{Token: cfg.Token, GuildID: cfg.GuildID, Logger: log, PlainText: cfg.Moves.PlainText, Shards: cfg.shards,
		RateLimit: cfg.rateLimit(), Meter: reg}
	// Mail (play by email): the courier's Letterbox and the listener for
	// replies, beside Discord (config_mail.go).
	mailSide, err := newMail(ctx, cfg, svc, store, log)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	defer mailSide.Close()
	if cfg.Interactions.Listen != "" {
		// Interactions come over HTTP; the gateway stays only for
		// plain-text moves (config_interactions.go).
		key, _ := bot.ParsePublicKey(cfg.Interactions.PublicKey) // checked with the configuration
		opt.InteractionsListen, opt.InteractionsKey, opt.NoGateway = cfg.Interactions.Listen, key, !cfg.gateway()
	}
	b, err := bot.New(svc, opt)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	reg.WatchReady("discord", b.Ready)
	pages, closePages, err := web.newPages(svc, store, reg, log)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	web.serve(reg, pages, closePages)
	loopsCfg := loopsConfig(svc, log, b, cfg.workers())
	if mailSide != nil {
		loopsCfg.Letterbox = mailSide.transport
	}
	loops := runner.Start(loopsCfg)
	err = b.Run(ctx)
	loops.Close()
	if err != nil && ctx.Err() == nil {
		if !errors.Is(err, bot.ErrTokenRefused) { // the bot already said what to do
			log.Error("bot stopped", "err", err)
		}
		return 1
	}
	return 0
}

// serveWebOnly is `tessera run` with process.web_only: the game pages
// (with /healthz and /metrics) and the clocks, and the workers unless
// process.workers is off, without Discord. It has no courier: the
// announcements its pages' moves make wait in the outbox for a Discord
// process on the same database, which delivers them. It runs until a
// signal ends ctx.
func serveWebOnly(ctx context.Context, cfg *Config, store storage.Store, web *httpSide, webCfg service.WebConfig, reg *metrics.Registry, log *slog.Logger, stderr io.Writer) int {
	sc := cfg.serviceConfig()
	sc.Logger = log
	sc.Web, sc.Meter = webCfg, reg
	svc := service.New(store, sc)
	pages, closePages, err := web.newPages(svc, store, reg, log)
	if err != nil {
		fmt.Fprintln(stderr, "tessera:", err)
		return 1
	}
	web.serve(reg, pages, closePages)
	if !database.IsPostgres(cfg.Database) {
		log.Warn("web-only on a database file: no Discord process can share it, so the pages' moves are announced in Discord only when `tessera run` serves this file again", "path", database.Redact(cfg.Database))
	}
	loops := startLoops(svc, log, nil, cfg.workers())
	log.Info("serving the game pages only (process.web_only)", "url", web.url, "workers", cfg.workers())
	<-ctx.Done()
	loops.Close()
	return 0
}
