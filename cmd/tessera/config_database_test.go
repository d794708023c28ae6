package main

import (
	"strings"
	"testing"
	"time"
)

// TestConfigDatabase: the database key takes the file or URL alone, as
// it always has, or a mapping of url and timeout; database.timeout
// defaults to 10s, 0 lifts it, and a bad value or an unknown key is
// refused naming the key. TESSERA_DATABASE still overrides the URL.
func TestConfigDatabase(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, env string
		url             string
		timeout         time.Duration
		err             string // a part of the error; "" for none
	}{
		{name: "nothing", url: "tessera.db", timeout: DefaultDatabaseTimeout},
		// The form every existing configuration uses.
		{name: "scalar", yaml: "database: games.db\n", url: "games.db", timeout: DefaultDatabaseTimeout},
		{name: "mapping", yaml: "database:\n  url: postgres://h/db\n  timeout: 3s\n", url: "postgres://h/db", timeout: 3 * time.Second},
		{name: "timeout alone keeps the default file", yaml: "database:\n  timeout: 1m\n", url: "tessera.db", timeout: time.Minute},
		{name: "no limit", yaml: "database:\n  timeout: 0\n", url: "tessera.db", timeout: 0},
		{name: "environment wins over the file's url", yaml: "database:\n  url: a.db\n  timeout: 2s\n", env: "b.db", url: "b.db", timeout: 2 * time.Second},
		{name: "not a duration", yaml: "database:\n  timeout: soon\n", err: "database.timeout"},
		{name: "negative", yaml: "database:\n  timeout: -1s\n", err: "database.timeout"},
		{name: "unknown key", yaml: "database:\n  url: a.db\n  timeot: 2s\n", err: "timeot"},
		{name: "a list", yaml: "database: [a.db]\n", err: "database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := func(k string) string {
				if k == "TESSERA_DATABASE" {
					return tc.env
				}
				return ""
			}
			c, err := parseConfig([]byte(tc.yaml), "c.yaml", env)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Database != tc.url || c.DatabaseTimeout != tc.timeout {
				t.Fatalf("database %q, timeout %v; want %q, %v", c.Database, c.DatabaseTimeout, tc.url, tc.timeout)
			}
		})
	}
}
