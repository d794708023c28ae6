package service_test

// Tests for what careless and hostile players broke (issue 12, items 1-6):
// a leaked hand, a clock that overflows, a game shown in another server,
// repeated resignations, aborted games that read as in play, and a
// challenge its challenger could not withdraw.

import (
	"strings"
	"testing"
	"time"

	"tessera"

	"tessera/service"
)

// Item 2: every duration is bounded, in whole units, before arithmetic;
// the refusal states the bounds.
func TestDurationsAreBounded(t *testing.T) {
	for spec, want := range map[string]string{
		"bank=1d,inc=200000d":        "365d",
		"bank=1d,inc=9999999999999d": "365d",
		"bank=400d":                  "365d",
		"bank=1d,cap=366d":           "365d",
		"99d":                        "60d",
		"30m":                        "1h",
		"bank=30m":                   "1h",
		"bank=1d,inc=-1d":            "bank=7d",
		"153722867280912930d":        "60d",
		"bank=1d,bank=2d":            "twice",
	} {
		_, err := service.ParseClock(spec)
		if err == nil || tessera.ErrorCode(err) != tessera.EINVALID || !strings.Contains(tessera.ErrorMessage(err), want) {
			t.Errorf("clock %q: %v, want a refusal naming %q", spec, err, want)
		}
	}
	c, err := service.ParseClock("bank=365d,inc=365d,cap=365d")
	if err != nil || c.Inc != 365*24*time.Hour {
		t.Fatalf("the largest clock: %+v %v", c, err)
	}
	if c, err := service.ParseClock("bank=1d,inc=0d"); err != nil || c.Inc != 0 {
		t.Fatalf("no increment: %+v %v", c, err)
	}

	h := newHarness(t)
	for _, days := range []int{0, -1, -9223372036854775808, 21, 367, 1 << 40} {
		h.refused(tessera.EINVALID, "from 1 to 20")(h.svc.Vacation(h.req(ana), days))
	}
	if u, _ := h.svc.Store().User(ana.ID); !u.VacationUntil.IsZero() {
		t.Fatal("a refused vacation was stored")
	}

	good := service.Config{Clock: "3d", RemindAfter: 24 * time.Hour, VacationDays: 20}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	if err := (service.Config{}).Validate(); err != nil {
		t.Fatalf("the defaults refused: %v", err)
	}
	for _, bad := range []service.Config{
		{Clock: "bank=1d,inc=200000d"},
		{RemindAfter: -time.Hour},
		{RemindAfter: time.Minute},
		{RemindAfter: 400 * 24 * time.Hour},
		{VacationDays: -1},
		{VacationDays: 367},
		{RetryBase: -time.Second},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}
