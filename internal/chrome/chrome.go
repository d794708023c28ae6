// Package chrome drives a headless Chromium for tests: the web pages in a
// real browser, and pictures rasterised by it (the PNG-vs-SVG test). It is
// a test helper (it imports testing): only tests import it
// (architecture_test.go), and the chromedp driver is imported nowhere
// else.
//
// One browser serves a whole test binary, started by the first test that
// asks for a tab; each test gets a tab of its own, closed when it ends.
// A package's TestMain may call Main to close the browser when the tests
// are done; without it the kernel kills the browser when the binary exits
// (chromedp starts it with Pdeathsig), so a package that has a TestMain
// of its own need not change it.
//
// Chromium is found at $CHROME or /usr/bin/chromium (Debian's package;
// .ci/run installs it). Without it a test is skipped, unless CI=true:
// then it fails, so that CI never passes by skipping.
package chrome

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Timeout bounds one browser action (a page's load, a screenshot): a
// generous deadline for an event, on a loaded machine, not a measure.
const Timeout = 60 * time.Second

var browser struct {
	once   sync.Once
	ctx    context.Context // the browser's first tab; new tabs derive from it
	cancel func()
	err    string // why there is no browser
}

// Path is the Chromium binary the tests use: $CHROME, else
// /usr/bin/chromium, else chromium on the PATH; "" when there is none.
func Path() string {
	for _, p := range []string{os.Getenv("CHROME"), "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

func start() {
	path := Path()
	if path == "" {
		browser.err = "no Chromium: set CHROME or install Debian's chromium package"
		return
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("disable-gpu", true),
		// Unhinted glyphs, as render/ draws its Go fonts.
		chromedp.Flag("font-render-hinting", "none"),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox.
		opts = append(opts, chromedp.NoSandbox)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	if err := open(ctx); err != nil { // starts the browser
		cancelCtx()
		cancelAlloc()
		browser.err = "Chromium did not start: " + err.Error()
		return
	}
	browser.ctx = ctx
	browser.cancel = func() { cancelCtx(); cancelAlloc() }
}

// open runs nothing on a new chromedp context, which starts its browser
// or opens its tab. The browser (the tab) lives as long as the context of
// that first call, so it has no timeout of its own: the wait for it is
// bounded here instead, by Timeout.
func open(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	deadline := time.NewTimer(Timeout)
	defer deadline.Stop()
	select {
	case err := <-done:
		return err
	case <-deadline.C:
		return fmt.Errorf("no answer in %v", Timeout)
	}
}

// Main runs the package's tests and then closes the browser, if one was
// started: call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if browser.cancel != nil {
		browser.cancel()
	}
	os.Exit(code)
}

// Tab returns a new tab of the shared browser for t, closed when t ends.
// Without Chromium it skips t, or fails it under CI=true.
func Tab(t testing.TB) context.Context {
	t.Helper()
	browser.once.Do(start)
	if browser.ctx == nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("chrome: %s (CI=true: the browser tests must run)", browser.err)
		}
		t.Skipf("chrome: %s", browser.err)
	}
	ctx, cancel := chromedp.NewContext(browser.ctx)
	t.Cleanup(cancel)
	if err := open(ctx); err != nil {
		t.Fatalf("chrome: a new tab: %v", err)
	}
	return ctx
}

// Do runs actions in the tab within Timeout, failing t on an error.
func Do(t testing.TB, tab context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, Timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("chrome: %v", err)
	}
}

// Run runs an action that returns a value in the tab within Timeout,
// failing t on an error.
func Run[T any](t testing.TB, tab context.Context, action chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, Timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		t.Fatalf("chrome: %v", err)
	}
	return v
}

// Screenshot loads an HTML document in a tab with a viewport of w x h
// CSS pixels at one device pixel each, waits for its fonts, and returns
// what it shows.
func Screenshot(t testing.TB, html string, w, h int) image.Image {
	t.Helper()
	tab := Tab(t)
	Do(t, tab,
		chromedp.EmulateViewport(int64(w), int64(h)),
		chromedp.Navigate("data:text/html;base64,"+base64.StdEncoding.EncodeToString([]byte(html))),
	)
	Run(t, tab, chromedp.Evaluate[bool]("document.fonts.ready.then(() => true)", chromedp.EvalAwaitPromise))
	shot := Run(t, tab, chromedp.CaptureScreenshot())
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("chrome: the screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("chrome: a screenshot of %v, want %d x %d", b, w, h)
	}
	return img
}

// Rasterize draws an <svg> element (or any HTML fragment) at the top
// left of an otherwise empty page of w x h pixels, as a browser shows it
// inlined, and returns the picture. head is more of the page's <head>
// (a style sheet with fonts, say), or "".
func Rasterize(t testing.TB, head string, fragment []byte, w, h int) image.Image {
	t.Helper()
	html := `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;background:#fff}svg{display:block}</style>` + head + `</head><body>` +
		string(fragment) + `</body></html>`
	return Screenshot(t, html, w, h)
}
