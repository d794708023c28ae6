package service

import "strconv"

// A Command is one command players give, declared once for every
// transport: the bot registers it as a slash command and dispatches to
// Run, the console parses its lines by it and lists it in its help, and a
// web page could build its form from it. Adding a command means one entry
// in Commands (commandtable.go) and one handler.
type Command struct {
	Name        string
	Description string
	Options     []Option
	// InServer: offered only in a server channel, not in direct messages
	// (a challenge or a puzzle makes a thread in the channel).
	InServer bool
	// MakesThread: the transport checks first that it may make a thread
	// and post in it where it was asked.
	MakesThread bool
	// Public: the answer is normally seen by everyone in the channel;
	// otherwise only by the caller (a hand, a hint, a refusal). A Reply
	// can still ask to be private (Ephemeral).
	Public bool
	// Run carries the command out with the options the transport parsed.
	Run func(s *Service, req Request, in Args) (Reply, error)
	// Subcommands, when set, are the command's only choices, each a
	// Command with its own options and Run ("/tournament new game: ...");
	// the command itself then has no Options and no Run. The transport
	// resolves one with Sub.
	Subcommands []Command
}

// Sub finds one of the command's subcommands by name.
func (c Command) Sub(name string) (Command, bool) {
	for _, sc := range c.Subcommands {
		if sc.Name == name {
			return sc, true
		}
	}
	return Command{}, false
}

// OptionType is the kind of value an option takes.
type OptionType int

// Option types.
const (
	StringOption OptionType = iota + 1
	IntegerOption
	BooleanOption
	UserOption // a person; the transport resolves it to a User
)

// An Option is one named value a command takes.
type Option struct {
	Type        OptionType
	Name        string
	Description string
	Required    bool
	// Choices, when set, are the only values the option takes.
	Choices []Choice
	// Complete, when set, suggests values as the player types: in is
	// what the other options hold so far.
	Complete func(s *Service, req Request, in Args, typed string) []Choice
	// MinValue and MaxValue bound an integer (MinValue nil: no bound);
	// MaxLength bounds a string (0: Discord's 6000).
	MinValue  *float64
	MaxValue  float64
	MaxLength int
	// NoBots: a user option that may not name another bot (the bot itself
	// stands for the computer).
	NoBots bool
}

// Args are a command's option values by name, as a transport parsed them:
// string, int, bool or User.
type Args map[string]any

// String is a string option's value, "" when absent.
func (a Args) String(name string) string {
	v, _ := a[name].(string)
	return v
}

// Int is an integer option's value, 0 when absent.
func (a Args) Int(name string) int {
	v, _ := a[name].(int)
	return v
}

// Bool is a boolean option's value and whether it was given.
func (a Args) Bool(name string) (value, given bool) {
	value, given = a[name].(bool)
	return value, given
}

// User is a user option's value and whether it was given.
func (a Args) User(name string) (User, bool) {
	u, ok := a[name].(User)
	return u, ok
}

// Commands are the commands every transport offers, in the order Discord
// lists them.
func Commands() []Command { return commands() }

// LookupCommand finds a command by name.
func LookupCommand(name string) (Command, bool) {
	for _, c := range commands() {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Option finds one of the command's options by name.
func (c Command) Option(name string) (Option, bool) {
	for _, o := range c.Options {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// opponents are /new's user options in order: opponent, opponent2,
// opponent3 and, from a transport that takes more (the console),
// opponent4 and on; the engine refuses too many players.
func opponents(in Args) []User {
	var out []User
	for i := 1; ; i++ {
		name := "opponent"
		if i > 1 {
			name += strconv.Itoa(i)
		}
		u, ok := in.User(name)
		switch {
		case ok:
			out = append(out, u)
		case i >= 3: // Discord's three may have gaps; more come in order
			return out
		}
	}
}
