package web

import (
	"regexp"
	"strings"
	"testing"
)

// TestWording: issue #47's wording (defect 9). A game without moves
// says "Start · no moves yet", never "Start of 0", and its empty record
// is a sentence, not a numbered "1. No moves yet."; the player to move
// reads "Your turn" plainly in the status line (marked your-turn), the
// other player and a spectator do not.
func TestWording(t *testing.T) {
	s := newSite(t)
	g := s.start("elemental", "borders=RBGY")
	_, mover, other := s.turn(g)
	_, spect := s.get(nil, s.addr(g.ID))
	if strings.Contains(spect, "Start of 0") || !strings.Contains(spect, "Start · no moves yet") {
		t.Errorf("the start's name: %q", regexp.MustCompile(`Start[^<]*`).FindString(spect))
	}
	if regexp.MustCompile(`(?s)<li[^>]*>\s*No moves yet`).MatchString(spect) || !strings.Contains(spect, "No moves yet.") {
		t.Error("the empty record is not the sentence \"No moves yet.\" outside a list")
	}
	status := regexp.MustCompile(`<p class="status([^"]*)">([^<]*)</p>`)
	mc, _ := s.player(g.ID, mover)
	_, mine := s.get(mc, s.addr(g.ID))
	if m := status.FindStringSubmatch(mine); m == nil || m[1] != " your-turn" || !strings.HasPrefix(m[2], "Your turn") {
		t.Errorf("the mover's status line: %q", m)
	}
	oc, _ := s.player(g.ID, other)
	_, theirs := s.get(oc, s.addr(g.ID))
	for who, page := range map[string]string{"the other player": theirs, "a spectator": spect} {
		if m := status.FindStringSubmatch(page); m == nil || strings.Contains(m[2], "Your turn") || m[1] != "" {
			t.Errorf("%s's status line: %q", who, m)
		}
	}
}
