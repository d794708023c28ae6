package service_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocNamesEveryFile keeps the package documentation's map of concerns
// true: doc.go names every file of the package, and every file it names
// exists.
func TestDocNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	have := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		have[f] = true
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(f) + `\b`).Match(doc) {
			t.Errorf("doc.go does not say what %s holds", f)
		}
	}
	for _, m := range regexp.MustCompile(`\b[a-z]+\.go\b`).FindAll(doc, -1) {
		if !have[string(m)] {
			t.Errorf("doc.go names %s, which is not in the package", m)
		}
	}
}
