package main

import (
	"fmt"
	"strings"

	"tessera/bot"
)

// checkInteractions applies the interactions block's environment
// overrides and checks it: both settings or neither, a listen address
// with a port, and the application's public key (32 bytes in hex; it is
// not a secret, but a wrong one refuses every interaction).
func (c *Config) checkInteractions(getenv func(string) string) error {
	if v := getenv("TESSERA_INTERACTIONS_LISTEN"); v != "" {
		c.Interactions.Listen = v
	}
	if v := getenv("TESSERA_INTERACTIONS_PUBLIC_KEY"); v != "" {
		c.Interactions.PublicKey = v
	}
	in := &c.Interactions
	in.Listen, in.PublicKey = strings.TrimSpace(in.Listen), strings.TrimSpace(in.PublicKey)
	switch {
	case in.Listen == "" && in.PublicKey == "":
		return nil
	case in.Listen == "":
		return fmt.Errorf("interactions.listen: give the address to serve interactions on, like :8080, or remove interactions.public_key")
	case in.PublicKey == "":
		return fmt.Errorf("interactions.public_key: give the application's public key (developer portal, General Information), or remove interactions.listen")
	}
	if checkListen(in.Listen) != nil {
		return fmt.Errorf("interactions.listen %q: write host:port or :port, like :8080", in.Listen)
	}
	if _, err := bot.ParsePublicKey(in.PublicKey); err != nil {
		return fmt.Errorf("interactions.public_key: %w", err)
	}
	return nil
}

// gateway reports whether `tessera run` connects to the gateway: always
// without the interactions endpoint (interactions come that way), and
// with it only for plain-text moves, the one thing that still needs it.
func (c *Config) gateway() bool {
	return c.Interactions.Listen == "" || c.Moves.PlainText
}
