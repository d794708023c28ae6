package tessera_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"tessera/engine"
	_ "tessera/engine/games"
)

// Every game's rules document opens with a short "How to play" for players
// (goal, turn, scoring or winning, end, notation with an example) before
// the reference that settles open points, and names no file outside the
// repository (issue #12, item 16): a player follows the document alone.
func TestRulesDocumentsStartWithHowToPlay(t *testing.T) {
	outside := regexp.MustCompile("(\\.\\./|shared/(seeds|reference)|/work/)")
	for _, g := range engine.Games() {
		path := "docs/rules/" + g.ID + ".md"
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s has no rules document: %v", g.ID, err)
			continue
		}
		doc := string(b)
		var headings []string
		for _, line := range strings.Split(doc, "\n") {
			if strings.HasPrefix(line, "## ") {
				headings = append(headings, line)
			}
		}
		if len(headings) == 0 || headings[0] != "## How to play" {
			t.Errorf("%s: the first section is %q, want \"## How to play\"", path, headings)
			continue
		}
		howTo := doc[strings.Index(doc, "## How to play"):]
		howTo = howTo[:strings.Index(howTo[3:], "\n## ")+3]
		for _, want := range []string{"goal", "turn", "end", "notation"} {
			if !strings.Contains(strings.ToLower(howTo), want) {
				t.Errorf("%s: the how-to-play says nothing of %q", path, want)
			}
		}
		if !strings.Contains(howTo, "`") {
			t.Errorf("%s: the how-to-play gives no notation example", path)
		}
		if m := outside.FindString(doc); m != "" {
			t.Errorf("%s names a file outside the repository: %s", path, m)
		}
	}
}
