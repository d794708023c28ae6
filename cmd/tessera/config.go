package main

import (
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is the bot's configuration; config.example.yaml documents it.
type Config struct {
	Database string `yaml:"database"`
	GuildID  string `yaml:"guild_id"`
	Pictures string `yaml:"pictures"`
	LogLevel string `yaml:"log_level"`
	Defaults struct {
		Options map[string]string `yaml:"options"`
	} `yaml:"defaults"`

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
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return nil, fmt.Errorf("config: log_level %q: use debug, info, warn or error", c.LogLevel)
	}
	return c, nil
}
