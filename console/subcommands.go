package console

import (
	"fmt"
	"strconv"
	"strings"

	"tessera/service"
)

// A command with subcommands is written as on Discord, the subcommand's
// name first and then its options as name:value (or name=value, as the
// console's other commands take them):
//
//	ana: /tournament new game:closure format:swiss rounds:4
//	bo: /tournament standings #3
//
// "#id" names the event (or game) the subcommand is about, as "#id"
// names a game after the console's other commands.

// subcommand resolves the subcommand a line names and reads its options;
// refused, when set, is the short answer to a line that names none, an
// unknown one, an option the subcommand does not have, or lacks a
// required option.
func subcommand(cmd service.Command, ref string, args []string) (sc service.Command, in service.Args, refused *service.Reply) {
	path := cmd.Name
	for len(cmd.Subcommands) > 0 {
		if len(args) == 0 {
			return sc, nil, private(fmt.Sprintf("Write /%s and one of: %s; for example %s.", path, subcommandNames(cmd), example(path, cmd)))
		}
		next, ok := cmd.Sub(strings.ToLower(args[0]))
		if !ok {
			return sc, nil, private(fmt.Sprintf("/%s has no %q; write /%s and one of: %s.", path, clip(args[0]), path, subcommandNames(cmd)))
		}
		cmd, path, args = next, path+" "+next.Name, args[1:]
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "#") {
		ref, args = args[0], args[1:]
	}
	in = service.Args{}
	if ref != "" {
		if o, ok := refOption(cmd); ok {
			v := strings.TrimPrefix(ref, "#")
			if o.Type == service.IntegerOption {
				n, err := strconv.Atoi(v)
				if err != nil {
					return sc, nil, private(fmt.Sprintf("%q is not a number; write #id with the %s's number.", clip(ref), o.Name))
				}
				in[o.Name] = n
			} else {
				in[o.Name] = ref
			}
		} else {
			return sc, nil, private(fmt.Sprintf("/%s takes no #id; write /%s %s.", path, path, subUsage(cmd)))
		}
	}
	for _, a := range args {
		k, v, ok := cutOption(a)
		o, known := cmd.Option(strings.ToLower(k))
		if !ok || !known {
			return sc, nil, private(fmt.Sprintf("%q is not an option of /%s; write /%s %s.", clip(a), path, path, subUsage(cmd)))
		}
		switch o.Type {
		case service.IntegerOption:
			n, err := strconv.Atoi(v)
			if err != nil {
				return sc, nil, private(fmt.Sprintf("%s: takes a whole number, not %q.", o.Name, clip(v)))
			}
			in[o.Name] = n
		case service.BooleanOption:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return sc, nil, private(fmt.Sprintf("%s: takes true or false, not %q.", o.Name, clip(v)))
			}
			in[o.Name] = b
		case service.UserOption:
			name, ok := opponentName(v)
			if !ok {
				return sc, nil, private(fmt.Sprintf("%s: %q is not a player's name.", o.Name, clip(v)))
			}
			in[o.Name] = user(name)
		default:
			in[o.Name] = v
		}
	}
	for _, o := range cmd.Options {
		if _, given := in[o.Name]; o.Required && !given {
			return sc, nil, private(fmt.Sprintf("/%s needs %s:; write /%s %s.", path, o.Name, path, subUsage(cmd)))
		}
	}
	return cmd, in, nil
}

// cutOption splits "name:value" or "name=value" at whichever comes first,
// so that "options:borders=RBGY" is options and "clock=bank=7d" is clock.
func cutOption(word string) (name, value string, ok bool) {
	i := strings.IndexAny(word, ":=")
	if i <= 0 {
		return "", "", false
	}
	return word[:i], word[i+1:], true
}

// refOption is the option a "#id" fills: the subcommand's event, else its
// game.
func refOption(cmd service.Command) (service.Option, bool) {
	for _, name := range []string{"event", "game"} {
		if o, ok := cmd.Option(name); ok && (o.Type == service.IntegerOption || o.Type == service.StringOption) {
			return o, true
		}
	}
	return service.Option{}, false
}

// subcommandNames lists a command's subcommands: "new, list, standings".
func subcommandNames(cmd service.Command) string {
	var names []string
	for _, sc := range cmd.Subcommands {
		names = append(names, sc.Name)
	}
	return strings.Join(names, ", ")
}

// example is a command's first subcommand with its required options.
func example(path string, cmd service.Command) string {
	for len(cmd.Subcommands) > 0 {
		cmd = cmd.Subcommands[0]
		path += " " + cmd.Name
	}
	words := []string{"/" + path}
	for _, o := range cmd.Options {
		if o.Required {
			words = append(words, o.Name+":…")
		}
	}
	return strings.Join(words, " ")
}

// subUsage is how the help writes a subcommand's options: name:… for
// each, in brackets when it may be left out.
func subUsage(cmd service.Command) string {
	var words []string
	for _, o := range cmd.Options {
		w := o.Name + ":…"
		if !o.Required {
			w = "[" + w + "]"
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// subcommandLines are the help's lines for a command with subcommands:
// one a subcommand (a group's subcommands each on their own).
func subcommandLines(path string, cmd service.Command, line func(name, args, about string)) {
	for _, sc := range cmd.Subcommands {
		if len(sc.Subcommands) > 0 {
			subcommandLines(path+" "+sc.Name, sc, line)
			continue
		}
		line(path+" "+sc.Name, subUsage(sc), Reword(sc.Description))
	}
}
