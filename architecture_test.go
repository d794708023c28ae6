package tessera_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layout honest: gg only in render/,
// bbolt only in storage/boltdb/, pgx only in storage/postgres/ (the port,
// storage/, imports no driver), discordgo only in bot/, the Prometheus
// client only in metrics/, the SMTP and DKIM libraries only in mail/
// (which knows no service and no other transport), the engine free of everything but the
// standard library and itself, the AI of everything but those, and the
// conformance helpers (storagetest and its watch, enginetest, aitest)
// and the Chromium harness (internal/chrome, the only importer of
// chromedp) in tests only.
func TestDependencyDirection(t *testing.T) {
	only := map[string]string{
		"github.com/fogleman/gg":              "render/",
		"go.etcd.io/bbolt":                    "storage/boltdb/",
		"github.com/jackc/pgx":                "storage/postgres/",
		"github.com/bwmarrin/discordgo":       "bot/",
		"github.com/prometheus/client_golang": "metrics/",
		"github.com/emersion/go-smtp":         "mail/",
		"github.com/emersion/go-msgauth":      "mail/",
		"github.com/emersion/go-sasl":         "mail/",
	}
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for lib, dir := range only {
				if (p == lib || strings.HasPrefix(p, lib+"/")) && !strings.HasPrefix(filepath.ToSlash(path), dir) {
					t.Errorf("%s imports %s, which only %s may import", path, p, dir)
				}
			}
			if strings.HasPrefix(filepath.ToSlash(path), "engine/") && strings.Contains(p, ".") && !strings.HasPrefix(p, "tessera/engine") {
				t.Errorf("%s (the engine) imports %s: the engine is pure Go, standard library only", path, p)
			}
			if strings.HasPrefix(filepath.ToSlash(path), "engine/") && strings.HasPrefix(p, "tessera") && !strings.HasPrefix(p, "tessera/engine") {
				t.Errorf("%s (the engine) imports %s", path, p)
			}
			// The conformance suite imports testing, and the store that
			// wakes a test's waits (storagetest/watch) is for tests too:
			// tests only.
			if (p == "tessera/storage/storagetest" || strings.HasPrefix(p, "tessera/storage/storagetest/")) && !strings.HasSuffix(path, "_test.go") && !strings.HasPrefix(filepath.ToSlash(path), "storage/storagetest/") {
				t.Errorf("%s imports %s, which only tests may import", path, p)
			}
			// The engine's and the AI's conformance helpers, the
			// Chromium harness, the fake transport (deliverytest) and the
			// runs on both stores (databasetest) import testing: tests
			// only (and the helpers themselves).
			for _, helper := range []string{"engine/enginetest", "ai/aitest", "internal/chrome", "delivery/deliverytest", "storage/database/databasetest"} {
				if p == "tessera/"+helper && !strings.HasSuffix(path, "_test.go") && !strings.HasPrefix(filepath.ToSlash(path), helper+"/") {
					t.Errorf("%s imports %s, which only tests may import", path, p)
				}
			}
			// The Chromium driver drives the browser tests: the harness
			// and tests only, never the bot's binary.
			if (p == "github.com/chromedp/chromedp" || strings.HasPrefix(p, "github.com/chromedp/")) && !strings.HasSuffix(path, "_test.go") && !strings.HasPrefix(filepath.ToSlash(path), "internal/chrome/") {
				t.Errorf("%s imports %s, which only internal/chrome and tests may import", path, p)
			}
			// The port is the same whatever the adapter: no driver in it.
			if dir, _ := filepath.Split(filepath.ToSlash(path)); dir == "storage/" && strings.Contains(p, ".") {
				t.Errorf("%s (the storage port) imports %s: adapters go in storage/<name>/", path, p)
			}
			// The shared records depend on the engine and the pairing
			// library (an Event holds its tournament.Event), nothing else.
			if dir, _ := filepath.Split(filepath.ToSlash(path)); dir == "" && !strings.HasSuffix(path, "_test.go") && (strings.Contains(p, ".") || strings.HasPrefix(p, "tessera") && !strings.HasPrefix(p, "tessera/engine") && p != "tessera/tournament") {
				t.Errorf("%s (the shared records) imports %s: only the engine, tournament and the standard library", path, p)
			}
			// Tournaments are pairing rules: pure Go, the standard library only.
			if strings.HasPrefix(filepath.ToSlash(path), "tournament/") && (strings.Contains(p, ".") || strings.HasPrefix(p, "tessera")) {
				t.Errorf("%s (tournament) imports %s: pairings are pure Go, standard library only", path, p)
			}
			// Mail is a transport's adapter: it may know the shared records
			// (tessera) and the engine, never the service, another
			// transport, the courier or a store; the service wires it.
			if strings.HasPrefix(filepath.ToSlash(path), "mail/") && strings.HasPrefix(p, "tessera/") && !strings.HasPrefix(p, "tessera/engine") && p != "tessera/mail" {
				t.Errorf("%s (mail) imports %s: only the shared records (tessera), the engine and the standard library", path, p)
			}
			// The mail transport (mailer/) is an adapter on the transport
			// port, like bot/ and console/: it reaches mail through
			// package mail, never its libraries, and no other transport.
			// (Its tests may use a store and the renderer.)
			if strings.HasPrefix(filepath.ToSlash(path), "mailer/") && (strings.HasPrefix(p, "github.com/emersion/") ||
				!strings.HasSuffix(path, "_test.go") && (p == "tessera/bot" || p == "tessera/console" || p == "tessera/web" ||
					strings.HasPrefix(p, "tessera/storage/") || p == "tessera/render")) {
				t.Errorf("%s (the mail transport) imports %s: only package mail, the service, delivery and the shared records", path, p)
			}
			// The AI searches any game through the engine's interfaces alone.
			if strings.HasPrefix(filepath.ToSlash(path), "ai/") && (strings.Contains(p, ".") || strings.HasPrefix(p, "tessera") && !strings.HasPrefix(p, "tessera/engine") && !strings.HasPrefix(p, "tessera/ai")) {
				t.Errorf("%s (the AI) imports %s: only the engine and the standard library", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked", checked)
	}
}

// TestCommandTableReaders: the service's table of commands (service.Commands,
// LookupCommand and its types) is read by the transports alone, bot/,
// console/ and cmd/tessera/, which register, parse and dispatch by it; the
// rest of the code calls the service's methods, so the table stays a
// description of what players type and nothing else depends on it.
func TestCommandTableReaders(t *testing.T) {
	table := map[string]bool{"Commands": true, "LookupCommand": true, "Command": true, "Option": true, "OptionType": true, "Args": true}
	readers := []string{"bot/", "console/", "mailer/", "cmd/tessera/", "service/"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		slash := filepath.ToSlash(path)
		for _, r := range readers {
			if strings.HasPrefix(slash, r) {
				return nil
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		name := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "tessera/service" {
				name = "service"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && table[sel.Sel.Name] {
					t.Errorf("%s uses service.%s: only the transports (%s) read the table of commands", path, sel.Sel.Name, strings.Join(readers[:4], ", "))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRendererBehindAnInterface: the service draws through its Renderer
// interface, wired in cmd/tessera, and never imports render/ (its tests
// may, to wire it); what a picture shows is described in picture/, which
// depends on the engine alone. A second renderer (svg/, for the web
// pages) is one more adapter beside render/, with no library at all.
func TestRendererBehindAnInterface(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		slash := filepath.ToSlash(path)
		dir, _ := filepath.Split(slash)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dir == "service/" && !strings.HasSuffix(slash, "_test.go") && (p == "tessera/render" || strings.HasPrefix(p, "tessera/render/")) {
				t.Errorf("%s imports %s: the service draws through its Renderer interface", path, p)
			}
			if dir == "picture/" && (strings.Contains(p, ".") || strings.HasPrefix(p, "tessera") && !strings.HasPrefix(p, "tessera/engine")) {
				t.Errorf("%s (picture) imports %s: only the engine and the standard library", path, p)
			}
			// The SVG renderer needs no library: the engine, picture and
			// the standard library (its tests may import more).
			if strings.HasPrefix(slash, "svg/") && !strings.HasSuffix(slash, "_test.go") && (strings.Contains(p, ".") || strings.HasPrefix(p, "tessera") && p != "tessera/picture" && !strings.HasPrefix(p, "tessera/engine")) {
				t.Errorf("%s (svg) imports %s: only the engine, picture and the standard library", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDeliveryPackage keeps delivery a subsystem of its own (issue #25):
// the courier knows the commands' side (service) and the store's port,
// never a transport, so the bot, the console and a web companion each
// drive it with their own Sink; the service knows no transport and not
// the courier (it only fills the outbox); and only the transports and
// the wiring drive the courier.
func TestDeliveryPackage(t *testing.T) {
	rules := []struct {
		from string   // files under this folder (not tests)...
		not  []string // ...import none of these (or below them)
		why  string
	}{
		{"delivery/", []string{"tessera/bot", "tessera/console", "tessera/cmd", "github.com/bwmarrin/discordgo",
			"tessera/storage/boltdb", "tessera/storage/postgres", "tessera/storage/database"}, "delivery knows no transport, and the store only by its port"},
		{"service/", []string{"tessera/delivery", "tessera/bot", "tessera/console", "tessera/cmd", "github.com/bwmarrin/discordgo"}, "the service fills the outbox; transports and the courier come to it"},
		{"runner/", []string{"tessera/bot", "tessera/console", "tessera/web", "tessera/cmd", "github.com/bwmarrin/discordgo",
			"tessera/storage/boltdb", "tessera/storage/postgres", "tessera/storage/database"}, "the loops run beside every transport, so they know none, and the store only by its port"},
	}
	importers := map[string]bool{"bot/": true, "console/": true, "mailer/": true, "cmd/": true, "runner/": true}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, r := range rules {
				for _, no := range r.not {
					if strings.HasPrefix(slash, r.from) && (p == no || strings.HasPrefix(p, no+"/")) {
						t.Errorf("%s imports %s: %s", path, p, r.why)
					}
				}
			}
			if p == "tessera/delivery" {
				top, _, _ := strings.Cut(slash, "/")
				// delivery's own test helper (deliverytest) is a Sink, no driver.
				if !importers[top+"/"] && !strings.HasPrefix(slash, "delivery/deliverytest/") {
					t.Errorf("%s imports the courier: only the runner, the transports (bot, console, mailer) and cmd drive it", path)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOneRunner: the process's loops (runner/) are started once, by the
// wiring, beside whichever transports it serves (issue #45): only
// cmd/tessera imports the runner, outside tests, so no transport starts
// loops of its own (the bot gives the runner its Sink and Opened, and
// the console, the web pages or the bot alone all get the clocks).
func TestOneRunner(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "tessera/runner" && !strings.HasPrefix(slash, "cmd/tessera/") {
				t.Errorf("%s imports the runner: only cmd/tessera starts the loops, once a process", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWebImports: the web transport (web/) reaches the games through the
// service alone: it imports the service, the SVG renderer, the storage
// port (no adapter), the shared records, the engine and picture, and the
// standard library; and nothing imports it but cmd/tessera, which wires
// it (tests of web/ itself may use more: a store, the PNG renderer).
func TestWebImports(t *testing.T) {
	allowed := []string{"tessera/service", "tessera/svg", "tessera/storage", "tessera/engine", "tessera/picture"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		inWeb := strings.HasPrefix(slash, "web/")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			// A test may wire the pages beside another transport as
			// cmd/tessera does (the bot's: a move clicked on a page reaches
			// the fake Discord's thread).
			if (p == "tessera/web" || strings.HasPrefix(p, "tessera/web/")) && !inWeb && !strings.HasPrefix(slash, "cmd/tessera/") && !strings.HasSuffix(path, "_test.go") {
				t.Errorf("%s imports %s: only cmd/tessera wires the web transport", path, p)
			}
			if !inWeb || strings.HasSuffix(path, "_test.go") {
				continue
			}
			if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
				t.Errorf("%s (web) imports %s: the pages use the standard library only", path, p)
			}
			if p == "tessera" || !strings.HasPrefix(p, "tessera/") {
				continue
			}
			ok := false
			for _, a := range allowed {
				if p == a || strings.HasPrefix(p, a+"/") && a != "tessera/storage" && a != "tessera/service" {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s (web) imports %s: the pages reach the games through the service (allowed: %s)", path, p, strings.Join(allowed, ", "))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMetricsPackage: the service, the bot and the web pages report to
// package metrics through interfaces of their own, so only the wiring
// (cmd) imports it, and it imports none of them (only the shared records
// at the root).
func TestMetricsPackage(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "tessera/metrics" && !strings.HasPrefix(slash, "cmd/") {
				t.Errorf("%s imports tessera/metrics: report through an interface of your own; cmd/tessera wires the registry", path)
			}
			if strings.HasPrefix(slash, "metrics/") && strings.HasPrefix(p, "tessera/") {
				t.Errorf("%s (metrics) imports %s: metrics knows only the shared records (package tessera)", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTransportsSeeAnAudience: a transport (bot/, console/, web/,
// mailer/) and the runner see the service through the narrow interface
// of their audience (service.Players, Pages, Workers, or one of their
// own), never the whole *service.Service, and never reach around it into
// the store with Service.Store (issue #45). Only the wiring
// (cmd/tessera) and tests hold the whole service.
func TestTransportsSeeAnAudience(t *testing.T) {
	transports := []string{"bot/", "console/", "web/", "mailer/", "runner/"}
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		slash := filepath.ToSlash(path)
		in := false
		for _, p := range transports {
			// bot/fakediscord is Discord's stand-in, not a transport.
			in = in || strings.HasPrefix(slash, p) && !strings.HasPrefix(slash, "bot/fakediscord/")
		}
		if !in {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StarExpr:
				if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Service" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "service" {
						t.Errorf("%s names *service.Service: a transport sees the service through its audience's interface", path)
					}
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "Store" {
					name := ""
					switch x := n.X.(type) {
					case *ast.SelectorExpr: // b.svc.Store, cfg.Service.Store
						name = x.Sel.Name
					case *ast.Ident: // svc.Store
						name = x.Name
					}
					if name == "svc" || name == "Service" {
						t.Errorf("%s reaches the store through the service (%s.Store): ask the service instead", path, name)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files of the transports: is the walk wrong?", checked)
	}
}
