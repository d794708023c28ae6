package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tessera/engine"
	"tessera/service"
)

// NewForm is the form of /new that a refused word is answered with.
const NewForm = "Write /new <game> <opponent> [more opponents] [easy|normal|hard] [option=value ...]: the game by its id or full name, an opponent as bo or @bo (tessera is the computer), e.g. /new Elemental Connection @bo or /new closure tessera hard."

// readNew reads "/new GAME [opponent ...] [level] [word=value ...]", and
// the open challenge "/new GAME [seats=N] ...". GAME is a game's id or its
// full name in any case ("Elemental Connection"); an opponent is a name
// or @name; a level is easy, normal or hard (or level=...). A word=value
// is one of /new's options (clock=3d, rated=false, options=borders=RBGY)
// or one of the game's (borders=RBGY). Any other word is refused with
// the form: a word of a game's name that is not where the name is, an
// option's name without its "=" ("clock 3d"), a word that reads as a
// level in a game against the computer ("hardest"). Each used to become
// an opponent ("@connection", "@clock" and "@3d", "@hardest"). A name
// written with @ is always a player.
func (c *Console) readNew(args []string) (service.Args, *service.Reply) {
	refuse := func(why string) (service.Args, *service.Reply) {
		return nil, private(why + " " + NewForm)
	}
	game, words := gameWords(args)
	in := service.Args{"game": game}
	var opps []service.User
	var bare []string // the opponents written without @, as typed
	var opts []string
	level := ""
	for i, w := range words {
		k, v, isOpt := strings.Cut(w, "=")
		k = strings.ToLower(k)
		switch {
		case isOpt && k == "clock":
			in["clock"] = v
		case isOpt && k == "level":
			level = v
		case isOpt && k == "options":
			// The table's name for the game's options, as on Discord.
			opts = append(opts, v)
		case isOpt && k == "rated":
			switch strings.ToLower(v) {
			case "true", "yes":
				in["rated"] = true
			case "false", "no":
				in["rated"] = false
			default:
				return nil, private(fmt.Sprintf("rated=%s: write rated=true (the default) or rated=false (the game changes no rating).", clip(v)))
			}
		case isOpt:
			opts = append(opts, w)
		case isLevel(w):
			if level != "" && !strings.EqualFold(level, w) {
				return refuse(fmt.Sprintf("The level is given twice (%s and %s).", clip(level), clip(w)))
			}
			level = strings.ToLower(w)
		default:
			if why, ok := optionWithoutValue(game, w, words[i+1:]); ok {
				return nil, private(why)
			}
			name, ok := opponentName(w)
			if !ok {
				return refuse(fmt.Sprintf("%q is not a player's name.", clip(w)))
			}
			if _, isGame := gameWord(name); isGame {
				return refuse(fmt.Sprintf("%q is a game's word, not a player: a game's name goes first, whole.", clip(w)))
			}
			opps = append(opps, user(name))
			if !strings.HasPrefix(w, "@") {
				bare = append(bare, w)
			}
		}
	}
	if len(opps) == 0 {
		if level != "" {
			return refuse("A level is for a game against the computer: name tessera as an opponent.")
		}
		return readOpen(in, opts)
	}
	if why, ok := notALevel(game, opps, bare); ok {
		return nil, private(why)
	}
	for i, o := range opps {
		name := "opponent"
		if i > 0 {
			name += strconv.Itoa(i + 1)
		}
		in[name] = o
	}
	in["level"] = level
	in["options"] = strings.Join(opts, " ")
	return in, nil
}

// newCommand is /new as the service's table has it: its options' names
// and the levels of its level: option are what readNew knows.
func newCommand() service.Command {
	cmd, _ := service.LookupCommand("new")
	return cmd
}

// levelNames are the computer's levels, the choices of /new's level:
// option, which /new takes as bare words too.
func levelNames() []string {
	o, _ := newCommand().Option("level")
	var names []string
	for _, ch := range o.Choices {
		names = append(names, ch.Value)
	}
	return names
}

// orList is "easy, normal or hard".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// isLevel reports whether a word is one of the computer's levels.
func isLevel(w string) bool {
	for _, l := range levelNames() {
		if strings.EqualFold(w, l) {
			return true
		}
	}
	return false
}

// optionWithoutValue answers a bare word that names an option of /new
// (in the service's table) or of the game (its engine's options): an
// option's name is never a player. The answer gives the form expected,
// with the next word as the value when there is one ("clock 3d": write
// clock=3d).
func optionWithoutValue(game, word string, rest []string) (string, bool) {
	value := "…"
	if len(rest) > 0 && !strings.Contains(rest[0], "=") {
		value = rest[0]
	}
	k := strings.ToLower(word)
	if o, ok := newCommand().Option(k); ok {
		switch {
		case o.Type == service.UserOption:
			return fmt.Sprintf("%q is the name of an option, not a player: write each opponent alone after the game, as bo or @bo.", clip(word)), true
		case o.Name == "game":
			return fmt.Sprintf("%q is the name of an option, not a player: the game goes first, whole, as in /new elemental bo.", clip(word)), true
		case o.Name == "options":
			return fmt.Sprintf("%q is the name of an option, not a player: options need =, as in options=%s, or each game option as name=value (%s).", clip(word), clip(value), gameOptionsText(game)), true
		}
		return fmt.Sprintf("%q is the name of an option, not a player: options need =, as in %s=%s (%s).", clip(word), o.Name, clip(value), o.Description), true
	}
	g, ok := engine.Lookup(game)
	if !ok {
		return "", false
	}
	for _, o := range g.Options {
		if o.Name == k {
			return fmt.Sprintf("%q is an option of %s, not a player: options need =, as in %s=%s (%s).", clip(word), g.Name, o.Name, clip(value), o.Help), true
		}
	}
	return "", false
}

// gameOptionsText names a game's options, for an answer.
func gameOptionsText(game string) string {
	g, ok := engine.Lookup(game)
	if !ok {
		return "see /rules"
	}
	if len(g.Options) == 0 {
		return g.Name + " has none"
	}
	var names []string
	for _, o := range g.Options {
		names = append(names, o.Name)
	}
	return g.Name + "'s: " + strings.Join(names, ", ")
}

// notALevel answers, in a game against the computer, a word written as
// an opponent that was meant as a level: one that reads as a level
// ("hardest", "norm", "eazy"), or the only other word when the players
// named are more than the game seats ("/new knotwork tessera medium",
// which the engine answered with "Knotwork is for 1 to 2 players",
// naming neither the word nor the levels).
func notALevel(game string, opps []service.User, bare []string) (string, bool) {
	if !slices.ContainsFunc(opps, func(u service.User) bool { return u.ID == BotName }) {
		return "", false
	}
	var others []string
	for _, w := range bare {
		if !strings.EqualFold(w, BotName) {
			others = append(others, w)
		}
	}
	levels := orList(levelNames())
	for _, w := range others {
		if readsAsLevel(w) {
			return fmt.Sprintf("%q is not a level: the computer plays %s (a player of that name is written @%s).", clip(w), levels, clip(strings.ToLower(w))), true
		}
	}
	if g, ok := engine.Lookup(game); ok && 1+len(opps) > g.MaxPlayers && len(others) == 1 {
		seats := fmt.Sprintf("%d to %d", g.MinPlayers, g.MaxPlayers)
		if g.MinPlayers == g.MaxPlayers {
			seats = fmt.Sprint("exactly ", g.MaxPlayers)
		}
		return fmt.Sprintf("%q is not a level (the computer plays %s), and as a player it is one too many: %s is for %s players.", clip(others[0]), levels, g.Name, seats), true
	}
	return "", false
}

// readsAsLevel reports whether a word looks like a level mistyped: a
// level with more after it, a level's start of three letters or more,
// or a level with one or two letters wrong.
func readsAsLevel(w string) bool {
	w = strings.ToLower(w)
	for _, l := range levelNames() {
		if strings.HasPrefix(w, l) || len(w) >= 3 && strings.HasPrefix(l, w) || len(w) >= 4 && service.EditDistance(w, l) <= 2 {
			return true
		}
	}
	return false
}

// readOpen reads the rest of an open challenge: "/new tilingking seats=3
// clock=3d".
func readOpen(in service.Args, words []string) (service.Args, *service.Reply) {
	var opts []string
	for _, w := range words {
		if v, ok := strings.CutPrefix(w, "seats="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 4 {
				return nil, private("Write seats=N with N the number of players (2 to 4).")
			}
			in["seats"] = n
			continue
		}
		opts = append(opts, w)
	}
	in["options"] = strings.Join(opts, " ")
	return in, nil
}

// gameWords splits /new's words into the game and the rest: the game is
// the longest run of first words that is a game's id or full name
// ("Elemental Connection", "elemental"), else the first word as it is
// (the service refuses it, naming the nearest game).
func gameWords(args []string) (string, []string) {
	for n := min(len(args), 3); n >= 1; n-- {
		typed := strings.Join(args[:n], "")
		for _, g := range service.GameIDs() {
			if strings.EqualFold(typed, g.Value) || strings.EqualFold(typed, strings.ReplaceAll(g.Name, " ", "")) {
				return g.Value, args[n:]
			}
		}
	}
	return args[0], args[1:]
}

// gameWord reports whether a word is one of a game's name's words
// ("connection", "elemental") or a game's id.
func gameWord(word string) (string, bool) {
	for _, g := range service.GameIDs() {
		if strings.EqualFold(word, g.Value) {
			return g.Value, true
		}
		for _, w := range strings.Fields(g.Name) {
			if strings.EqualFold(word, w) {
				return g.Value, true
			}
		}
	}
	return "", false
}

// maxName is the longest name a player may have: Discord's usernames
// are at most 32 characters.
const maxName = 32

// opponentName is the player a word names: "bo" or "@bo" is bo. A name is
// letters, digits, '_', '.' and '-', at most maxName of them.
func opponentName(word string) (string, bool) {
	name := strings.TrimPrefix(word, "@")
	if name == "" || len([]rune(name)) > maxName {
		return "", false
	}
	for _, r := range name {
		if !(r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && fileSafe(string(r)) == string(r)) {
			return "", false
		}
	}
	return name, true
}

// clip is at most 24 characters of what was typed, for a refusal.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= 24 {
		return s
	}
	return string(r[:23]) + "…"
}

// gameID reports whether a word names a game.
func gameID(word string) (string, bool) {
	for _, g := range service.GameIDs() {
		if strings.EqualFold(word, g.Value) {
			return g.Value, true
		}
	}
	return "", false
}
