package main

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// DefaultDatabaseTimeout is database.timeout's default. Every query the
// bot makes reads or writes a few rows and takes milliseconds; the
// slowest (the reminders' pass over every game, a player's history)
// take well under a second on a big database. Ten seconds is far above
// them all, so a healthy database never meets it, and still well inside
// what a stuck query would otherwise hold: a courier worker's lease on
// its games (a minute, of which it starts games in the first third),
// the AI's lease on a turn, and the 15 minutes an interaction's answer
// may take.
const DefaultDatabaseTimeout = 10 * time.Second

// databaseKey is the database setting, in either form:
//
//	database: tessera.db
//
//	database:
//	  url: postgres://...
//	  timeout: 10s
//
// url is the file or URL; timeout bounds each statement (PostgreSQL's
// statement_timeout; a bbolt file is local and ignores it).
type databaseKey struct {
	url     *string
	timeout *string
}

// UnmarshalYAML takes a scalar (the url alone) or a mapping of url and
// timeout; any other key is refused, as the rest of the file's are.
func (d *databaseKey) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		var s string
		if err := n.Decode(&s); err != nil {
			return err
		}
		d.url = &s
		return nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var s string
			if err := v.Decode(&s); err != nil {
				return fmt.Errorf("database.%s: %w", k.Value, err)
			}
			switch k.Value {
			case "url":
				d.url = &s
			case "timeout":
				d.timeout = &s
			default:
				return fmt.Errorf("line %d: field %s not found in database (url, timeout)", k.Line, k.Value)
			}
		}
		return nil
	}
	return fmt.Errorf("line %d: database: give the database file's path or URL, or url: and timeout:", n.Line)
}

// applyDatabase copies the database setting the file gave over the
// defaults and checks database.timeout.
func (c *Config) applyDatabase() error {
	if c.DatabaseKey.url != nil {
		c.Database = *c.DatabaseKey.url
	}
	c.DatabaseTimeout = DefaultDatabaseTimeout
	if c.DatabaseKey.timeout != nil {
		s := strings.TrimSpace(*c.DatabaseKey.timeout)
		d, err := time.ParseDuration(s)
		if s == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return fmt.Errorf("database.timeout %q: write a duration like 10s or 1m (0: no limit)", *c.DatabaseKey.timeout)
		}
		c.DatabaseTimeout = d
	}
	return nil
}
