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
// step: every command of the table (every subcommand, for a command that
// has them) has a row in the README's command table naming each of its
// options (option:), every row there is a
// command of the table, and docs/architecture.md says where the table is.
func TestCommandsDocumented(t *testing.T) {
	t.Chdir("../..")
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{} // command -> its rows' forms
	for _, m := range readmeCommand.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = append(rows[m[1]], m[2])
	}
	for _, c := range service.Commands() {
		forms, ok := rows[c.Name]
		if !ok {
			t.Errorf("the README's command table has no row for /%s", c.Name)
			continue
		}
		documented(t, "/"+c.Name, forms, c)
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

// documented checks that a command's rows (their forms: what follows
// the command's name) name each of its options, or for a command with
// subcommands that each subcommand has a row of its own ("| `/tournament
// new game: format: ...`") naming its options.
func documented(t *testing.T, path string, forms []string, c service.Command) {
	t.Helper()
	if len(c.Subcommands) == 0 {
		form := strings.Join(forms, " ") + " "
		for _, o := range c.Options {
			if !strings.Contains(form, " "+o.Name+":") && !strings.Contains(form, "["+o.Name+":") {
				t.Errorf("the README's %s row does not name its option %s:", path, o.Name)
			}
		}
		return
	}
	for _, sc := range c.Subcommands {
		var own []string // the forms of this subcommand's rows
		for _, f := range forms {
			if rest, ok := strings.CutPrefix(f+" ", " "+sc.Name+" "); ok {
				own = append(own, " "+rest)
			}
		}
		if len(own) == 0 {
			t.Errorf("the README's command table has no row for %s %s", path, sc.Name)
			continue
		}
		documented(t, path+" "+sc.Name, own, sc)
	}
}
