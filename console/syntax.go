package console

import (
	"fmt"
	"strconv"
	"strings"

	"tessera/service"
)

// syntax is how the console writes one of the service's commands: its
// arguments in the help, and how the words typed after the command become
// its options. A command without one is read by readOptions: "#id" for
// its game: option and name=value for the others.
type syntax struct {
	usage string
	// read turns the words after the command (ref: a "#id" right after
	// it) into its options, or answers with a refusal instead.
	read func(c *Console, req service.Request, ref string, args []string) (service.Args, *service.Reply)
}

// syntaxes are the console's ways of writing the commands that take more
// than "#id" and name=value.
var syntaxes = map[string]syntax{
	"new": {usage: "<game> [opponents] [level] [option=value ...]", read: func(c *Console, req service.Request, _ string, args []string) (service.Args, *service.Reply) {
		if len(args) < 1 {
			return nil, private(NewForm + " Or /new <game> [seats=N] for an open challenge.")
		}
		return c.readNew(args)
	}},
	"move": {usage: "[#id] <move>", read: func(_ *Console, _ service.Request, ref string, args []string) (service.Args, *service.Reply) {
		return service.Args{"game": ref, "notation": strings.Join(args, " ")}, nil
	}},
	"puzzle": {usage: "[game] [level]", read: func(_ *Console, _ service.Request, _ string, args []string) (service.Args, *service.Reply) {
		// A word that names a game is the game (needed once two games
		// have puzzles); the other is the level.
		in := service.Args{"game": "", "level": ""}
		for _, a := range args {
			a = strings.ToLower(a)
			switch {
			case strings.HasPrefix(a, "game="):
				in["game"] = strings.TrimPrefix(a, "game=")
			case strings.HasPrefix(a, "level="):
				in["level"] = strings.TrimPrefix(a, "level=")
			default:
				if id, ok := gameID(a); ok {
					in["game"] = id
				} else {
					in["level"] = a
				}
			}
		}
		return in, nil
	}},
	"rules": {usage: "<game>", read: func(_ *Console, _ service.Request, _ string, args []string) (service.Args, *service.Reply) {
		if len(args) == 0 {
			return nil, private("Write /rules <game>: " + gameList())
		}
		return service.Args{"game": args[0]}, nil
	}},
	"leaderboard": {usage: "<game>", read: func(_ *Console, _ service.Request, _ string, args []string) (service.Args, *service.Reply) {
		if len(args) != 1 {
			return nil, private("Write /leaderboard <game>.")
		}
		return service.Args{"game": args[0]}, nil
	}},
	"profile": {usage: "[player]", read: func(_ *Console, req service.Request, _ string, args []string) (service.Args, *service.Reply) {
		u := req.User
		if len(args) == 1 {
			name, ok := opponentName(args[0])
			if !ok {
				return nil, private(fmt.Sprintf("%q is not a player's name; write /profile [name].", clip(args[0])))
			}
			u = user(name)
		}
		return service.Args{"user": u}, nil
	}},
	"history": {usage: "[player] [game]", read: func(_ *Console, _ service.Request, _ string, args []string) (service.Args, *service.Reply) {
		in := service.Args{}
		for _, a := range args {
			if _, isGame := gameID(a); isGame {
				in["game"] = a
			} else if name, ok := opponentName(a); ok {
				in["user"] = user(name)
			} else {
				return nil, private(fmt.Sprintf("%q is neither a game nor a player; write /history [player] [game].", clip(a)))
			}
		}
		return in, nil
	}},
	"export": {usage: "#id", read: func(_ *Console, _ service.Request, ref string, args []string) (service.Args, *service.Reply) {
		if ref == "" && len(args) == 1 {
			ref = args[0]
		}
		return service.Args{"game": ref}, nil
	}},
	"replay": {usage: "#id [from] [to]", read: func(_ *Console, _ service.Request, ref string, args []string) (service.Args, *service.Reply) {
		var span []int
		for _, a := range args {
			n, err := strconv.Atoi(a)
			if err != nil || n < 1 || len(span) == 2 {
				return nil, private("Write /replay #id [from] [to], with move numbers.")
			}
			span = append(span, n)
		}
		span = append(span, 0, 0)
		return service.Args{"game": ref, "from": span[0], "to": span[1]}, nil
	}},
	"vacation": {usage: "<days>", read: func(_ *Console, _ service.Request, _ string, args []string) (service.Args, *service.Reply) {
		days := 0
		if len(args) == 1 {
			fmt.Sscan(args[0], &days)
		}
		return service.Args{"days": days}, nil
	}},
}

// private is an answer only the caller sees (a refusal, mostly).
func private(text string) *service.Reply { return &service.Reply{Text: text, Ephemeral: true} }

// readOptions reads a command the console has no syntax for: "#id" is
// its game: option and name=value any of its options; other words are
// left out.
func readOptions(cmd service.Command, ref string, args []string) service.Args {
	in := service.Args{}
	if _, ok := cmd.Option("game"); ok && ref != "" {
		in["game"] = ref
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		o, known := cmd.Option(k)
		if !ok || !known {
			continue
		}
		switch o.Type {
		case service.IntegerOption:
			if n, err := strconv.Atoi(v); err == nil {
				in[k] = n
			}
		case service.BooleanOption:
			if b, err := strconv.ParseBool(v); err == nil {
				in[k] = b
			}
		case service.UserOption:
			if name, ok := opponentName(v); ok {
				in[k] = user(name)
			}
		default:
			in[k] = v
		}
	}
	return in
}

// usage is how the help writes a command's arguments.
func usage(cmd service.Command) string {
	if s, ok := syntaxes[cmd.Name]; ok {
		return s.usage
	}
	var words []string
	for _, o := range cmd.Options {
		w := o.Name + "=…"
		if o.Name == "game" {
			w = "#id"
		}
		if !o.Required {
			w = "[" + w + "]"
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// extra is a console command that stands in for something Discord shows
// instead of a slash command: a button (the actions of service.Buttons
// that have a verb, and click for any), autocomplete (moves), a plain
// message (say).
type extra struct {
	usage, about string
	run          func(c *Console, req service.Request, ref string, args []string) (service.Reply, error)
}

// extras are the console's own commands: one per button action with a
// verb (accept, decline, join, rematch), then click, moves and say; in
// the order the help lists them (extraOrder).
var extras, extraOrder = func() (map[string]extra, []string) {
	m := map[string]extra{}
	var order []string
	add := func(name string, x extra) {
		m[name] = x
		order = append(order, name)
	}
	for _, b := range service.Buttons() {
		if b.Verb != "" {
			add(b.Verb, extra{b.Usage, b.About, pressing(b)})
		}
	}
	add("click", extra{"<button id>", "press a button shown as [Label: /click id]", (*Console).click})
	add("moves", extra{"[#id] [start of a move]", "your legal moves with what each gains, most first", (*Console).moves})
	add("say", extra{"<text>", "a plain message in the game's thread (a move typed as text)", (*Console).say})
	return m, order
}()

// pressing presses button b about the game "#id" typed after its verb;
// when b's number is optional ("[#id]"), the newest challenge waiting
// for the caller.
func pressing(b service.ButtonAction) func(c *Console, req service.Request, ref string, args []string) (service.Reply, error) {
	return func(c *Console, req service.Request, ref string, args []string) (service.Reply, error) {
		if ref == "" && len(args) == 1 {
			ref = args[0]
		}
		if ref == "" && !strings.HasPrefix(b.Usage, "[") {
			return *private(fmt.Sprintf("Write /%s %s (/challenges lists the open challenges; /games yours).", b.Verb, b.Usage)), nil
		}
		num, err := c.pending(req, ref)
		if err != nil {
			return service.Reply{}, err
		}
		id, err := strconv.ParseUint(strings.TrimPrefix(num, "#"), 10, 64)
		if err != nil {
			return *private(fmt.Sprintf("%q is not a game's number; write /%s %s.", clip(num), b.Verb, b.Usage)), nil
		}
		return c.svc.Click(req, service.ButtonID(b.Prefix, id))
	}
}

func (c *Console) click(req service.Request, _ string, args []string) (service.Reply, error) {
	if len(args) != 1 {
		return *private("Write /click <button id>."), nil
	}
	return c.svc.Click(req, args[0])
}

func (c *Console) moves(req service.Request, ref string, args []string) (service.Reply, error) {
	var b strings.Builder
	choices := c.svc.MoveChoices(req, ref, strings.Join(args, " "))
	for _, ch := range choices {
		fmt.Fprintf(&b, "  %s\n", Plain(ch.Name))
	}
	if len(choices) == service.MaxChoices {
		// The list, like Discord's autocomplete, holds at most 25.
		fmt.Fprintf(&b, "  (the list stops at %d moves, those that gain most first; type the start of a move after /moves to see others)\n", service.MaxChoices)
	}
	return service.Reply{Text: strings.TrimRight(b.String(), "\n"), Ephemeral: true}, nil
}
