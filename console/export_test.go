package console

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Item 15 of issue 24: /export's reply names the files the console wrote
// (pictures/ana-game-1.json), where it named game-1.json, which the
// console never writes, in the command that plays it back.
func TestConsoleExportNamesTheFilesWritten(t *testing.T) {
	c, out := newConsole(t)
	c.dir = t.TempDir()
	for _, l := range []string{"ana: /new elemental bo", "bo: /accept", "ana: /resign", "ana: /click resign:1"} {
		c.Line(t.Context(), l)
	}
	out.Reset()
	c.Line(t.Context(), "ana: /export #1")
	reply, _, _ := strings.Cut(out.String(), "\n")
	record := filepath.Join(c.dir, "ana-game-1.json")
	if !strings.Contains(reply, "tessera replay --record "+record) {
		t.Fatalf("the reply does not name %s in its command:\n%s", record, out)
	}
	// Every file the reply names exists.
	named := regexp.MustCompile(`\S+\.(json|txt)`).FindAllString(reply, -1)
	if len(named) < 3 {
		t.Fatalf("the reply names %q:\n%s", named, out)
	}
	for _, f := range named {
		if _, err := os.Stat(strings.TrimRight(f, ";,.")); err != nil {
			t.Errorf("the reply names %s: %v", f, err)
		}
	}
	var rec struct {
		Format string `json:"format"`
	}
	data, err := os.ReadFile(record)
	if err != nil || json.Unmarshal(data, &rec) != nil || rec.Format == "" {
		t.Fatalf("%s is not a record: %v %.200s", record, err, data)
	}
}
