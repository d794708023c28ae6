package chrome

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// Isolated returns a tab of the shared browser in a browser context of
// its own (like a private window): it shares no cookies with the other
// tabs, so a spectator's tab is not taken for the player whose private
// link another tab opened. It is closed, with its context, when t ends.
func Isolated(t testing.TB) context.Context {
	t.Helper()
	Tab(t) // starts the browser, or skips t without one
	ctx, cancel := chromedp.NewContext(browser.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := open(ctx); err != nil {
		t.Fatalf("chrome: a tab in a new browser context: %v", err)
	}
	return ctx
}
