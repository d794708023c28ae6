package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tessera/service"
)

// webSettings are the web and metrics blocks: the game pages' server and
// their public address, the key that signs their links, and the
// operators' endpoints (docs/web.md).
type webSettings struct {
	Web struct {
		// Listen (host:port) serves the pages, /healthz and /metrics.
		Listen string `yaml:"listen"`
		// URL is the pages' public address, which links use (default
		// http://LISTEN when Listen is a loopback address).
		URL string `yaml:"url"`
		// Secret signs the pages' addresses and players' links (at least
		// 32 bytes); better given as TESSERA_WEB_SECRET. Empty: the
		// database's own, made once.
		Secret string `yaml:"secret"`
		// LinkDays is a player's private link's life (default 30).
		LinkDays int `yaml:"link_days"`
	} `yaml:"web"`
	Metrics struct {
		// Listen serves /healthz and /metrics alone (for when the pages
		// are off, or to keep them off the public address).
		Listen string `yaml:"listen"`
	} `yaml:"metrics"`
}

// maxWebURL bounds web.url, so that a player's link (the URL, the game's
// address and a token) stays within a Discord link button's 512
// characters.
const maxWebURL = 200

// checkWeb applies the environment overrides (TESSERA_WEB_LISTEN,
// TESSERA_WEB_URL, TESSERA_WEB_SECRET, TESSERA_METRICS_LISTEN) and checks
// the blocks, each error naming its key. The secret is never part of a
// message.
func (c *Config) checkWeb(getenv func(string) string) error {
	w := &c.webSettings.Web
	for env, dst := range map[string]*string{
		"TESSERA_WEB_LISTEN":     &w.Listen,
		"TESSERA_WEB_URL":        &w.URL,
		"TESSERA_WEB_SECRET":     &w.Secret,
		"TESSERA_METRICS_LISTEN": &c.webSettings.Metrics.Listen,
	} {
		if v := getenv(env); v != "" {
			*dst = v
		}
	}
	w.Listen, w.URL = strings.TrimSpace(w.Listen), strings.TrimRight(strings.TrimSpace(w.URL), "/")
	m := &c.webSettings.Metrics
	m.Listen = strings.TrimSpace(m.Listen)
	if w.Listen != "" {
		if err := checkListen(w.Listen); err != nil {
			return fmt.Errorf("web.listen %q: %w", w.Listen, err)
		}
	}
	if m.Listen != "" {
		if err := checkListen(m.Listen); err != nil {
			return fmt.Errorf("metrics.listen %q: %w", m.Listen, err)
		}
		if m.Listen == w.Listen {
			return fmt.Errorf("metrics.listen %q: web.listen serves /healthz and /metrics already; give another port, or remove metrics.listen", m.Listen)
		}
	}
	switch {
	case w.URL != "":
		u, err := url.Parse(w.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return fmt.Errorf("web.url %q: write the pages' public address, like https://tessera.example.org (no query, no #)", w.URL)
		}
		// A scheme is read in any case (HTTPS://…), but the links are
		// written with it in lower case, as url.Parse reads it: the form
		// every chat client turns into a link.
		w.URL = u.Scheme + w.URL[len(u.Scheme):]
		if len(w.URL) > maxWebURL {
			return fmt.Errorf("web.url: at most %d characters (a player's link must fit Discord's 512)", maxWebURL)
		}
	case w.Listen != "" && !localListen(w.Listen):
		return fmt.Errorf("web.url: give the pages' public address (like https://tessera.example.org), which the links in Discord use; it defaults to http://<web.listen> only when that is a loopback address like localhost:8080")
	}
	if n := len(w.Secret); n > 0 && n < service.MinWebSecret {
		return fmt.Errorf("web.secret: give at least %d bytes (it has %d), e.g. the output of `openssl rand -hex 32`; or leave it out to use the database's own", service.MinWebSecret, n)
	}
	if w.LinkDays < 0 || time.Duration(w.LinkDays)*24*time.Hour > service.MaxLinkTTL {
		return fmt.Errorf("web.link_days %d: give from 1 to %d days (0 for the default, 30)", w.LinkDays, int(service.MaxLinkTTL/(24*time.Hour)))
	}
	return nil
}

// checkListen checks a host:port (or :port) address.
func checkListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	// Digits only: strconv.Atoi also takes a sign ("+0"), which no
	// listener does (FuzzConfigInteractions found it).
	if strings.Trim(port, "0123456789") != "" || len(port) > 5 {
		err = errors.New("not a port")
	}
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
		return fmt.Errorf("write host:port or :port, like :8080")
	}
	return nil
}

// localListen reports whether addr listens where only this machine
// reaches it (localhost, 127.0.0.1, [::1]): then the address itself
// serves as the pages' URL. On every address (":8080") the players reach
// the pages by a name this process cannot know, which web.url gives (the
// console's --web, for one person at this machine, uses localhost).
func localListen(addr string) bool {
	host, _, _ := net.SplitHostPort(addr)
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
