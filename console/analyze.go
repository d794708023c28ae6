package console

import (
	"context"
	"fmt"

	"tessera/service"
)

// analyze runs the analyses a command queued (/analyze), then delivers
// their posts: the progress line and the result, whose chart is written
// to the pictures folder. The console waits for them, as for the AI's
// moves, so the output reads in order.
func (c *Console) analyze(ctx context.Context) {
	due, err := c.svc.AnalysesPending(ctx)
	if err != nil || !due {
		return
	}
	fmt.Fprintf(c.out, "  (%s is analysing…)\n", service.DefaultBotName)
	if _, err := c.svc.AnalyzeQueued(ctx); err != nil {
		fmt.Fprintln(c.out, "the analysis failed:", err)
	}
	if _, err := c.courier.Deliver(ctx, sink{c}); err != nil {
		fmt.Fprintln(c.out, "delivery failed:", err)
	}
}
