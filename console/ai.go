package console

import (
	"context"
	"fmt"

	"tessera/service"
)

// BotName is the console's bot: challenging this player is playing the AI
// ("ana: /new closure tessera level=hard").
const BotName = "tessera"

// playAI makes the AI's moves after a command, each followed by its posts,
// as on Discord. The console waits for them rather than print them into
// the next command's output.
func (c *Console) playAI(ctx context.Context) {
	for {
		due, err := c.svc.AIPending(ctx)
		if err != nil || !due {
			return
		}
		fmt.Fprintf(c.out, "  (%s is thinking…)\n", service.DefaultBotName)
		n, err := c.svc.PlayAI(context.Background())
		if err != nil {
			fmt.Fprintln(c.out, "the AI failed:", err)
			return
		}
		if _, err := c.courier.Deliver(context.Background(), sink{c}); err != nil {
			fmt.Fprintln(c.out, "delivery failed:", err)
		}
		if n == 0 {
			return
		}
	}
}
