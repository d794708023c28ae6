package bot_test

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"tessera/bot"
	"tessera/delivery"
	"tessera/runner"
	"tessera/service"
)

// startLoops starts the process's loops beside b as cmd/tessera does
// (startLoops there): the courier through b's Sink once b is open, a
// refused token ending b's Run, the clocks and the workers. Intervals the
// test leaves zero are short (20 ms), for the test's sake; the loops log
// to logger. The returned stop closes them (once; also at cleanup, which
// runs before the bot's when b's was registered first, so that a
// delivery under way ends on a live session).
func startLoops(t *testing.T, b *bot.Bot, svc *service.Service, logger *slog.Logger, cfg runner.Config) (stop func()) {
	t.Helper()
	cfg.Service, cfg.Log = svc, logger
	cfg.Sink, cfg.Ready, cfg.Refused = b.Sink(), b.Opened(), b.TokenRefused
	if cfg.Courier == nil {
		cfg.Courier = delivery.New(svc, svc.Store())
	}
	if cfg.RetryEvery == 0 {
		cfg.RetryEvery = 20 * time.Millisecond
	}
	if cfg.TickEvery == 0 {
		cfg.TickEvery = 20 * time.Millisecond
	}
	r := runner.Start(cfg)
	var once sync.Once
	stop = func() { once.Do(r.Close) }
	t.Cleanup(stop)
	return stop
}
