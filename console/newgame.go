package console

import (
	"fmt"
	"strconv"
	"strings"

	"tessera/service"
)

// NewForm is the form of /new that a refused word is answered with.
const NewForm = "Write /new <game> <opponent> [more opponents] [easy|normal|hard] [option=value ...]: the game by its id or full name, an opponent as bo or @bo (tessera is the computer), e.g. /new Elemental Connection @bo or /new closure tessera hard."

// levels are the computer's levels, which /new takes as bare words.
var levels = map[string]bool{"easy": true, "normal": true, "hard": true}

// readNew reads "/new GAME [opponent ...] [level] [word=value ...]", and
// the open challenge "/new GAME [seats=N] ...". GAME is a game's id or its
// full name in any case ("Elemental Connection"); an opponent is a name
// or @name; a level is easy, normal or hard (or level=...). Any other
// word, such as a word of a game's name that is not where the name is,
// is refused with the form: it used to become an opponent ("@connection").
func (c *Console) readNew(args []string) (service.Args, *service.Reply) {
	refuse := func(why string) (service.Args, *service.Reply) {
		return nil, private(why + " " + NewForm)
	}
	game, words := gameWords(args)
	in := service.Args{"game": game}
	var opps []service.User
	var opts []string
	level := ""
	for _, w := range words {
		k, v, isOpt := strings.Cut(w, "=")
		switch {
		case isOpt && k == "clock":
			in["clock"] = v
		case isOpt && k == "level":
			level = v
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
		case levels[strings.ToLower(w)]:
			if level != "" && !strings.EqualFold(level, w) {
				return refuse(fmt.Sprintf("The level is given twice (%s and %s).", clip(level), clip(w)))
			}
			level = strings.ToLower(w)
		default:
			name, ok := opponentName(w)
			if !ok {
				return refuse(fmt.Sprintf("%q is not a player's name.", clip(w)))
			}
			if _, isGame := gameWord(name); isGame {
				return refuse(fmt.Sprintf("%q is a game's word, not a player: a game's name goes first, whole.", clip(w)))
			}
			opps = append(opps, user(name))
		}
	}
	if len(opps) == 0 {
		if level != "" {
			return refuse("A level is for a game against the computer: name tessera as an opponent.")
		}
		return readOpen(in, opts)
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
