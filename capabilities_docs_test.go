package tessera_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestAddingAGameNamesEveryCapability: docs/adding-a-game.md is where a
// new game's author learns which optional interfaces exist, so it names
// every interface declared in engine/capabilities.go (it once left out
// Inferrer and KeyScorer).
func TestAddingAGameNamesEveryCapability(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "engine/capabilities.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("docs/adding-a-game.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if _, ok := ts.Type.(*ast.InterfaceType); !ok {
				continue
			}
			n++
			if !strings.Contains(string(doc), "`engine."+ts.Name.Name+"`") {
				t.Errorf("docs/adding-a-game.md does not name `engine.%s`", ts.Name.Name)
			}
		}
	}
	if n != 14 {
		t.Errorf("engine/capabilities.go declares %d interfaces; its comment and enginetest.Run's say fourteen", n)
	}
}
