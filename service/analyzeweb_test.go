package service_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"tessera/engine"
	"tessera/service"
)

// TestWebAnalysis: a finished game's page carries its analysis once it
// is done: one chart line per seat, a point per position, each the
// spectator's chance (Public) as the shared chart's; each player's
// verdict; and each move's error (and, where something is drawn, the
// mover's luck) as the decomposition has them. Before the analysis, the
// page has none.
func TestWebAnalysis(t *testing.T) {
	for _, c := range []struct {
		game     string
		luckless bool
	}{{"elemental", false}, {"knotwork", true}} {
		t.Run(c.game, func(t *testing.T) {
			h := newHarnessWith(t, func(cfg *service.Config) { cfg.AnalysisIterations = analysisIterations })
			id := finishedGame(t, h, c.game, 12, 5)
			g, err := h.svc.Store().Game(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			v, err := h.svc.GameView(t.Context(), g, -1, "")
			if err != nil || v.Analysis != nil {
				t.Fatalf("before the analysis: %+v, %v", v.Analysis, err)
			}
			h.ok(h.svc.Analyze(h.req(ana), fmt.Sprint(id)))
			if n, err := h.svc.AnalyzeQueued(t.Context()); err != nil || n != 1 {
				t.Fatalf("analysed %d: %v", n, err)
			}
			a, err := h.svc.Store().Analysis(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			d, ok := service.Decompose(g.Setup, g.Moves, a.Positions, engine.NoSeat)
			if !ok {
				t.Fatal("does not decompose")
			}
			v, err = h.svc.GameView(t.Context(), g, 3, "") // any position shown: the analysis is the game's
			if err != nil {
				t.Fatal(err)
			}
			wa := v.Analysis
			if wa == nil || len(wa.Lines) != 2 || len(wa.Verdicts) != 2 {
				t.Fatalf("the page's analysis %+v", wa)
			}
			if strings.Contains(wa.View, "spectator") == c.luckless || !strings.HasPrefix(wa.Verdicts[0], "Ana: ") || !strings.Contains(wa.Verdicts[1], " = ") {
				t.Fatalf("view %q, verdicts %q", wa.View, wa.Verdicts)
			}
			for seat, l := range wa.Lines {
				pts := strings.Fields(l.Points)
				if len(pts) != len(a.Positions) {
					t.Fatalf("seat %d: %d points for %d positions", seat, len(pts), len(a.Positions))
				}
				for i, p := range pts {
					var x, y float64
					fmt.Sscanf(p, "%g,%g", &x, &y)
					if want := float64(wa.H) * (1 - a.Positions[i].Public[seat]); y < want-0.06 || y > want+0.06 {
						t.Fatalf("seat %d, position %d: y %v, the spectator's chance %v", seat, i, y, a.Positions[i].Public[seat])
					}
				}
			}
			errs := 0
			for i, m := range v.Record {
				sp := d.Steps[i]
				if (sp.Error >= 0.005) != (m.Error != "") || m.Error != "" && !strings.HasPrefix(m.Error, "error −") {
					t.Fatalf("move %d: error %v, the page's %q", m.N, sp.Error, m.Error)
				}
				if m.Error != "" {
					errs++
				}
				if want := "luck " + signedChance(sp.Luck[sp.By]); c.luckless && m.Luck != "" || !c.luckless && m.Luck != want {
					t.Fatalf("move %d: luck %q, want %q", m.N, m.Luck, want)
				}
			}
			if errs == 0 {
				t.Fatal("no move had an error")
			}
		})
	}
}

// signedChance writes a change of chance as the analysis does.
func signedChance(v float64) string {
	v = math.Round(v*100) / 100
	switch {
	case v > 0:
		return fmt.Sprintf("+%.2f", v)
	case v < 0:
		return fmt.Sprintf("−%.2f", -v)
	}
	return "0.00"
}
