package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"tessera/service"
)

// readmeCommand is a row of the README's command table: "| `/new game: ...".
var readmeCommand = regexp.MustCompile("(?m)^\\| `/([a-z]+)([^`]*)`")

// TestCommandsDocumented keeps the table of commands and the documents in
// step: every command of the table has a row in the README's command
// table naming each of its options (option:), every row there is a
// command of the table, and docs/architecture.md says where the table is.
func TestCommandsDocumented(t *testing.T) {
	t.Chdir("../..")
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // command -> its rows' forms, joined
	for _, m := range readmeCommand.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] += m[2] + " "
	}
	for _, c := range service.Commands() {
		form, ok := rows[c.Name]
		if !ok {
			t.Errorf("the README's command table has no row for /%s", c.Name)
			continue
		}
		for _, o := range c.Options {
			if !strings.Contains(form, " "+o.Name+":") && !strings.Contains(form, "["+o.Name+":") {
				t.Errorf("the README's /%s row does not name its option %s:", c.Name, o.Name)
			}
		}
		delete(rows, c.Name)
	}
	for name := range rows {
		t.Errorf("the README documents /%s, which the table of commands does not have", name)
	}
	arch, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"service/commandtable.go", "service.Commands()", "console/syntax.go"} {
		if !strings.Contains(string(arch), want) {
			t.Errorf("docs/architecture.md does not mention %s", want)
		}
	}
}
