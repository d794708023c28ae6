package service_test

import (
	"fmt"
	"strings"
	"testing"

	"tessera/picture"
	"tessera/render"
	"tessera/service"
)

// chartSpy is the renderer with its win charts kept, to read the lines
// the analysis drew.
type chartSpy struct {
	render.Renderer
	charts *[]picture.WinChart
}

func (c chartSpy) WinChart(w picture.WinChart) ([]byte, error) {
	*c.charts = append(*c.charts, w)
	return c.Renderer.WinChart(w)
}

// TestAnalysisParts: the result of /analyze says, for each player, the
// errors, the luck (or that there is none, where nothing is hidden or
// drawn) and the opponents' errors, as a sum that reaches the result;
// names the costliest moves with a better one; and every line of its
// chart is the spectator's view (Public) at every position, one view,
// which the title names.
func TestAnalysisParts(t *testing.T) {
	for _, c := range []struct {
		game     string
		luckless bool
	}{{"elemental", false}, {"knotwork", true}} {
		t.Run(c.game, func(t *testing.T) {
			var charts []picture.WinChart
			h := newHarnessWith(t, func(cfg *service.Config) {
				cfg.AnalysisIterations = analysisIterations
				cfg.Renderer = chartSpy{charts: &charts}
			})
			id := finishedGame(t, h, c.game, 12, 5)
			h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(id)))
			if n, err := h.svc.AnalyzeQueued(t.Context()); err != nil || n != 1 {
				t.Fatalf("analysed %d: %v", n, err)
			}
			res := results(h.deliver())
			if len(res) != 1 {
				t.Fatalf("results %+v", res)
			}
			text := res[0].Msg.Text
			for _, want := range []string{"• Ana: ", "• Bo: ", "total ", "opponents' errors ", " = ", "The costliest moves:", " was better"} {
				if !strings.Contains(text, want) {
					t.Fatalf("no %q in %q", want, text)
				}
			}
			if strings.Contains(text, "no luck") != c.luckless || strings.Contains(text, "; luck ") == c.luckless {
				t.Fatalf("luck in %q", text)
			}
			// A player asking again gets the shared analysis and, where
			// something was hidden, their own view, for their eyes only.
			mine := h.ok(h.svc.Analyze(h.req(bo), fmt.Sprint(id)))
			if !strings.HasPrefix(mine.Text, text) || strings.Contains(mine.Text, "**Your view**") == c.luckless || mine.Ephemeral == c.luckless {
				t.Fatalf("bo asked again (ephemeral %v): %q", mine.Ephemeral, mine.Text)
			}
			if !c.luckless && (!strings.Contains(mine.Text, "Your best luck: move ") || !strings.Contains(mine.Text, " = ")) {
				t.Fatalf("bo's own view: %q", mine.Text)
			}
			a, err := h.svc.Store().Analysis(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(charts) != 2 || fmt.Sprint(charts[0]) != fmt.Sprint(charts[1]) { // the post's, and the answer to asking again
				t.Fatalf("%d charts", len(charts))
			}
			ch := charts[0]
			view := "a spectator's view"
			if c.luckless {
				view = "as every player sees it"
			}
			if !strings.Contains(ch.Title, view) {
				t.Fatalf("the chart's title %q does not name its view", ch.Title)
			}
			for seat, s := range ch.Seats {
				for i, v := range s.Chance {
					if p := a.Positions[i]; len(p.Public) != 2 || v != p.Public[seat] {
						t.Fatalf("seat %d, position %d: the chart's %v, the spectator's %v", seat, i, v, p.Public)
					}
				}
			}
		})
	}
}
