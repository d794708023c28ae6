package main

import (
	"fmt"
	"strconv"
	"strings"
)

// processSettings is the process block: what this process runs, beside
// others sharing one PostgreSQL database (docs/scaling.md, "Growing").
type processSettings struct {
	// WebOnly serves the game pages (web.listen) without Discord: no
	// token, no gateway, no courier. The clocks run (every process may
	// run them: each deadline passes once, in the transaction that
	// passes it), and the workers when Workers is on. The Discord
	// processes deliver what its pages' moves announce.
	// (TESSERA_WEB_ONLY)
	WebOnly bool `yaml:"web_only"`
	// Workers runs the computer's moves and the queued analyses in this
	// process (default on). Off, other processes sharing the database
	// run them: a process that answers players keeps its cores for them.
	// (TESSERA_WORKERS)
	Workers *bool `yaml:"workers"`
}

// checkProcess applies TESSERA_WEB_ONLY and TESSERA_WORKERS (true or
// false, 1 or 0) and checks that a web-only process has pages to serve.
func (c *Config) checkProcess(getenv func(string) string) error {
	for env, dst := range map[string]*bool{"TESSERA_WEB_ONLY": &c.Process.WebOnly} {
		if v := strings.TrimSpace(getenv(env)); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s=%q: write true or false", env, v)
			}
			*dst = b
		}
	}
	if v := strings.TrimSpace(getenv("TESSERA_WORKERS")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("TESSERA_WORKERS=%q: write true or false", v)
		}
		c.Process.Workers = &b
	}
	if c.Process.Workers == nil {
		on := true
		c.Process.Workers = &on
	}
	if c.Process.WebOnly && c.Interactions.Listen != "" {
		return fmt.Errorf("process.web_only is on and interactions.listen is set: a web-only process answers no Discord interactions; run them in a process of their own")
	}
	return nil
}

// workers reports whether this process runs the computer's moves and the
// analyses.
func (c *Config) workers() bool { return c.Process.Workers == nil || *c.Process.Workers }
