package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/bot"
)

const testPublicKey = "8d9e1e3a1e6fbd3ac0f4bfb5c7d3a0f0b7a2d37f6e1c3c5d1a4b7e0f9c2d6a11"

// TestConfigInteractions: the interactions block, its environment
// variables, its refusals, and when the gateway stays.
func TestConfigInteractions(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig(nil, "", none)
	if err != nil || c.Interactions.Listen != "" || !c.gateway() {
		t.Fatalf("default: %+v %v", c.Interactions, err)
	}
	c, err = parseConfig([]byte("interactions:\n  listen: \":8080\"\n  public_key: "+testPublicKey+"\n"), "c.yaml", none)
	if err != nil || c.Interactions.Listen != ":8080" || c.gateway() {
		t.Fatalf("set: %+v gateway %v %v", c.Interactions, c.gateway(), err)
	}
	c, err = parseConfig([]byte("moves:\n  plain_text: true\ninteractions:\n  listen: \"127.0.0.1:9000\"\n  public_key: "+strings.ToUpper(testPublicKey)+"\n"), "c.yaml", none)
	if err != nil || !c.gateway() {
		t.Fatalf("plain-text moves keep the gateway: %v %v", c.gateway(), err)
	}
	env := map[string]string{"TESSERA_INTERACTIONS_LISTEN": ":9090", "TESSERA_INTERACTIONS_PUBLIC_KEY": testPublicKey}
	c, err = parseConfig(nil, "", func(k string) string { return env[k] })
	if err != nil || c.Interactions.Listen != ":9090" || c.Interactions.PublicKey != testPublicKey {
		t.Fatalf("from the environment: %+v %v", c.Interactions, err)
	}
	for yaml, want := range map[string]string{
		"interactions:\n  listen: \":8080\"\n":                                               "interactions.public_key",
		"interactions:\n  public_key: " + testPublicKey + "\n":                               "interactions.listen",
		"interactions:\n  listen: \":8080\"\n  public_key: " + testPublicKey[:62] + "\n":     "64 hex digits",
		"interactions:\n  listen: \":8080\"\n  public_key: " + testPublicKey + "00\n":        "64 hex digits",
		"interactions:\n  listen: \":8080\"\n  public_key: zz" + testPublicKey[2:] + "\n":    "64 hex digits",
		"interactions:\n  listen: \"8080\"\n  public_key: " + testPublicKey + "\n":           "interactions.listen",
		"interactions:\n  listen: \":99999\"\n  public_key: " + testPublicKey + "\n":         "interactions.listen",
		"interactions:\n  listen: \"localhost:http\"\n  public_key: " + testPublicKey + "\n": "interactions.listen",
		"interactions:\n  port: 8080\n":                                                      "port",
	} {
		if _, err := parseConfig([]byte(yaml), "c.yaml", none); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "config") {
			t.Errorf("%q: %v (want an error naming %s)", yaml, err, want)
		}
	}
	// Without DISCORD_TOKEN, run refuses (exit 2) instead of starting the
	// console, before it creates the database.
	dir := t.TempDir()
	path, db := filepath.Join(dir, "c.yaml"), filepath.Join(dir, "t.db")
	os.WriteFile(path, []byte("interactions:\n  listen: \":8080\"\n  public_key: "+testPublicKey+"\n"), 0o600)
	var errb strings.Builder
	env = map[string]string{"TESSERA_CONFIG": path, "TESSERA_DATABASE": db}
	code := runBot(nil, strings.NewReader("quit\n"), io.Discard, &errb, func(k string) string { return env[k] })
	if errs := errb.String(); code != 2 || !strings.Contains(errs, "interactions.listen") {
		t.Fatalf("run: exit %d %q", code, errs)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("the database was created")
	}
}

// FuzzConfigInteractions: a configuration that loads either has no
// interactions endpoint, or a listen address with a port and a public key
// the bot takes (32 bytes).
func FuzzConfigInteractions(f *testing.F) {
	f.Add(":8080", testPublicKey)
	f.Add("", "")
	f.Add("0.0.0.0:443", strings.ToUpper(testPublicKey))
	f.Add(":8080", " "+testPublicKey+" ")
	f.Add("[::1]:80", testPublicKey[:63]+"g")
	f.Fuzz(func(t *testing.T, listen, key string) {
		env := map[string]string{"TESSERA_INTERACTIONS_LISTEN": listen, "TESSERA_INTERACTIONS_PUBLIC_KEY": key}
		c, err := parseConfig(nil, "", func(k string) string { return env[k] })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config") {
				t.Fatalf("an error that does not say it is the configuration: %v", err)
			}
			return
		}
		in := c.Interactions
		if in.Listen == "" && in.PublicKey == "" {
			return
		}
		if k, err := bot.ParsePublicKey(in.PublicKey); err != nil || len(k) != 32 {
			t.Fatalf("public key %q loaded: %v", in.PublicKey, err)
		}
		i := strings.LastIndex(in.Listen, ":")
		if i < 0 || i == len(in.Listen)-1 || strings.Trim(in.Listen[i+1:], "0123456789") != "" {
			t.Fatalf("listen %q loaded", in.Listen)
		}
	})
}
