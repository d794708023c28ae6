package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"tessera/bot"
	"tessera/engine"
	"tessera/render"
	"tessera/service"
)

// Config is the bot's configuration; config.example.yaml documents it.
type Config struct {
	// Database is the database's file or URL and DatabaseTimeout the
	// longest one statement may run: the database key, in either of its
	// forms (config_database.go).
	Database        string        `yaml:"-"`
	DatabaseTimeout time.Duration `yaml:"-"`
	DatabaseKey     databaseKey   `yaml:"database"`

	GuildID  string `yaml:"guild_id"`
	Pictures string `yaml:"pictures"`
	LogLevel string `yaml:"log_level"`
	Defaults struct {
		Options map[string]string `yaml:"options"`
		Clock   string            `yaml:"clock"`
	} `yaml:"defaults"`
	Games struct {
		Thread *bool `yaml:"thread"`
	} `yaml:"games"`
	Moves struct {
		PlainText bool `yaml:"plain_text"`
	} `yaml:"moves"`
	Reminders struct {
		After string `yaml:"after"`
	} `yaml:"reminders"`
	Vacation struct {
		Days int `yaml:"days"`
	} `yaml:"vacation"`
	AI struct {
		Workers int    `yaml:"workers"`
		Think   string `yaml:"think"`
		// AnalysisIterations is /analyze's search per position.
		AnalysisIterations int `yaml:"analysis_iterations"`
	} `yaml:"ai"`
	Challenges struct {
		Expire string `yaml:"expire"`
	} `yaml:"challenges"`
	Replay struct {
		MaxMoves int `yaml:"max_moves"`
	} `yaml:"replay"`
	Ratings struct {
		Provisional int `yaml:"provisional"`
	} `yaml:"ratings"`
	// Shards: which gateway shards this process runs (config_shards.go).
	Shards struct {
		IDs   string `yaml:"ids"`
		Count int    `yaml:"count"`
	} `yaml:"shards"`
	shards bot.Shards // Shards (or TESSERA_SHARDS), checked
	// Interactions serves Discord's interactions over HTTP
	// (config_interactions.go).
	Interactions struct {
		Listen    string `yaml:"listen"`
		PublicKey string `yaml:"public_key"`
	} `yaml:"interactions"`
	// Courier: how many games' announcements are delivered at once
	// (config_courier.go).
	Courier struct {
		Workers int `yaml:"workers"`
	} `yaml:"courier"`
	// Discord: this process's share of the bot's global REST limit
	// (config_ratelimit.go); nil: worked out from the shards.
	Discord struct {
		RequestsPerSecond *int `yaml:"requests_per_second"`
	} `yaml:"discord"`

	// The web and metrics blocks: the game pages and the operators'
	// endpoints (config_web.go).
	webSettings `yaml:",inline"`

	// Mail: play by email (config_mail.go, docs/mail.md).
	Mail mailSettings `yaml:"mail"`

	// Process: what this process runs beside others on one database
	// (config_process.go).
	Process processSettings `yaml:"process"`

	// Token comes from the environment only (DISCORD_TOKEN).
	Token string `yaml:"-"`
}

// loadConfig reads the YAML file (when path is not empty and exists, or
// must exist when required) and applies the environment overrides.
func loadConfig(path string, required bool, getenv func(string) string) (*Config, error) {
	var b []byte
	if path != "" {
		var err error
		b, err = os.ReadFile(path)
		switch {
		case err == nil:
		case os.IsNotExist(err) && !required:
		default:
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	return parseConfig(b, path, getenv)
}

// parseConfig reads a configuration file's text (empty: none) and applies
// the environment overrides and the checks.
func parseConfig(b []byte, path string, getenv func(string) string) (*Config, error) {
	c := &Config{Database: "tessera.db", Pictures: "pictures", LogLevel: "info"}
	// Defaults are set before decoding, so that a value the file gives,
	// even 0 or "", is checked rather than replaced by the default.
	c.Reminders.After = "24h"
	c.Vacation.Days = 20
	c.Challenges.Expire = "7d"
	c.Replay.MaxMoves = service.DefaultReplayMoves
	c.Ratings.Provisional = service.Provisional
	c.Courier.Workers = runtime.NumCPU()
	if len(b) > 0 {
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) { // an empty file is the defaults
			return nil, fmt.Errorf("config %s: %w", path, err)
		}
	}
	if err := c.applyDatabase(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	for env, dst := range map[string]*string{
		"TESSERA_DATABASE":  &c.Database,
		"TESSERA_GUILD_ID":  &c.GuildID,
		"TESSERA_PICTURES":  &c.Pictures,
		"TESSERA_LOG_LEVEL": &c.LogLevel,
	} {
		if v := getenv(env); v != "" {
			*dst = v
		}
	}
	c.Token = strings.TrimSpace(getenv("DISCORD_TOKEN"))
	if err := c.checkAI(); err != nil {
		return nil, err
	}
	if err := c.checkShards(getenv); err != nil {
		return nil, err
	}
	if err := c.checkCourier(); err != nil {
		return nil, err
	}
	if err := c.checkRateLimit(); err != nil {
		return nil, err
	}
	if c.Games.Thread == nil {
		on := true
		c.Games.Thread = &on
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.checkInteractions(getenv); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.checkMail(getenv); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.checkWeb(getenv); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.checkProcess(getenv); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return nil, fmt.Errorf("config: log_level %q: use debug, info, warn or error", c.LogLevel)
	}
	return c, nil
}

// check finds bad settings at start-up, each error naming its key, so
// that players never meet them: durations and day counts within the
// service's bounds (service.Config.Validate, one place for them), the
// default clock, and every defaults.options entry accepted by its game.
func (c *Config) check() error {
	after, err := time.ParseDuration(strings.TrimSpace(c.Reminders.After))
	if err != nil {
		return fmt.Errorf("reminders.after %q: write a duration like 24h or 36h", c.Reminders.After)
	}
	if after < service.MinRemindAfter {
		return fmt.Errorf("reminders.after %q: give from 1h to 30 days (720h)", c.Reminders.After)
	}
	if c.Vacation.Days < 1 {
		return fmt.Errorf("vacation.days %d: give a number of days from 1 to %d", c.Vacation.Days, service.MaxVacationDays)
	}
	if c.Ratings.Provisional < 1 {
		return fmt.Errorf("ratings.provisional %d: give a number of games from 1 to %d", c.Ratings.Provisional, service.MaxProvisional)
	}
	if d, err := service.ParseSpan(c.Challenges.Expire); err != nil || d == 0 {
		return fmt.Errorf("challenges.expire %q: write a duration like 7d, 36h or 1d12h", c.Challenges.Expire)
	}
	if c.Replay.MaxMoves < 1 {
		return fmt.Errorf("replay.max_moves %d: give from 1 to %d moves", c.Replay.MaxMoves, service.MaxReplayMoves)
	}
	if err := c.serviceConfig().Validate(); err != nil {
		return err
	}
	if strings.TrimSpace(c.Database) == "" {
		return fmt.Errorf("database: give the database file's path, or a postgres:// URL")
	}
	ids := make([]string, 0, len(c.Defaults.Options))
	for id := range c.Defaults.Options {
		ids = append(ids, id)
	}
	sort.Strings(ids) // the same error every time
	for _, id := range ids {
		if err := checkDefaultOptions(id, c.Defaults.Options[id]); err != nil {
			return fmt.Errorf("defaults.options.%s: %w", id, err)
		}
	}
	return nil
}

// checkDefaultOptions checks a defaults.options entry as /new applies it
// (the service splits the value into words): the game exists and accepts
// the options with every number of players it allows.
func checkDefaultOptions(id, value string) error {
	g, ok := engine.Lookup(id)
	if !ok || g.ID != id {
		return fmt.Errorf("there is no game %q (games: %s)", id, gameIDs())
	}
	opts, err := engine.ParseOptions(strings.Fields(value))
	if err != nil {
		return err
	}
	for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
		if _, err := engine.New(engine.Setup{Game: id, Players: n, Seed: 1}); err != nil {
			continue // the player count alone is refused (a Knotwork puzzle is for one player)
		}
		if _, err := engine.New(engine.Setup{Game: id, Players: n, Seed: 1, Options: opts}); err != nil {
			if g.MinPlayers == g.MaxPlayers {
				return err
			}
			return fmt.Errorf("%v (with %d players)", err, n)
		}
	}
	return nil
}

// serviceConfig is the service's part of the configuration.
func (c *Config) serviceConfig() service.Config {
	after, _ := time.ParseDuration(c.Reminders.After)
	think, _ := time.ParseDuration(c.AI.Think)
	expire, _ := service.ParseSpan(c.Challenges.Expire)
	sc := service.Config{
		Renderer:     render.Renderer{},
		AIWorkers:    c.AI.Workers,
		AIThink:      think,
		Defaults:     c.Defaults.Options,
		Clock:        c.Defaults.Clock,
		NoThreads:    !*c.Games.Thread,
		RemindAfter:  after,
		VacationDays: c.Vacation.Days,
	}
	sc.ChallengeExpire = expire
	sc.ReplayMoves = c.Replay.MaxMoves
	sc.AnalysisIterations = c.AI.AnalysisIterations
	sc.Provisional = c.Ratings.Provisional
	sc.Courier.Workers = c.Courier.Workers
	return sc
}
