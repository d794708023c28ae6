package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"tessera/service"
)

// Config is the bot's configuration; config.example.yaml documents it.
type Config struct {
	Database string `yaml:"database"`
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
	} `yaml:"ai"`

	// Token comes from the environment only (DISCORD_TOKEN).
	Token string `yaml:"-"`
}

// loadConfig reads the YAML file (when path is not empty and exists, or
// must exist when required) and applies the environment overrides.
func loadConfig(path string, required bool, getenv func(string) string) (*Config, error) {
	c := &Config{Database: "tessera.db", Pictures: "pictures", LogLevel: "info"}
	if path != "" {
		b, err := os.ReadFile(path)
		switch {
		case err == nil:
			dec := yaml.NewDecoder(strings.NewReader(string(b)))
			dec.KnownFields(true)
			if err := dec.Decode(c); err != nil && err.Error() != "EOF" {
				return nil, fmt.Errorf("config %s: %w", path, err)
			}
		case os.IsNotExist(err) && !required:
		default:
			return nil, fmt.Errorf("config: %w", err)
		}
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
	if c.Games.Thread == nil {
		on := true
		c.Games.Thread = &on
	}
	if c.Reminders.After == "" {
		c.Reminders.After = "24h"
	}
	if c.Vacation.Days == 0 {
		c.Vacation.Days = 20
	}
	if _, err := time.ParseDuration(c.Reminders.After); err != nil {
		return nil, fmt.Errorf("config: reminders.after %q: write a duration like 24h or 36h", c.Reminders.After)
	}
	if _, err := service.ParseClock(c.Defaults.Clock); err != nil {
		return nil, fmt.Errorf("config: defaults.clock: %v", err)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return nil, fmt.Errorf("config: log_level %q: use debug, info, warn or error", c.LogLevel)
	}
	return c, nil
}

// serviceConfig is the service's part of the configuration.
func (c *Config) serviceConfig() service.Config {
	after, _ := time.ParseDuration(c.Reminders.After)
	think, _ := time.ParseDuration(c.AI.Think)
	return service.Config{
		AIWorkers:    c.AI.Workers,
		AIThink:      think,
		Defaults:     c.Defaults.Options,
		Clock:        c.Defaults.Clock,
		NoThreads:    !*c.Games.Thread,
		RemindAfter:  after,
		VacationDays: c.Vacation.Days,
	}
}
