package service

import "strings"

// What a person types never carries the presenter's token characters
// (presenter.go: Unicode noncharacters, which the service writes mentions,
// links, moments and wordings with). Were one to reach a text the
// service writes, a name or a move typed as "\uFDD0m\uFDD2<id>..." would
// render as a real mention (a ping on Discord) or a link, in a reply, a
// refusal's echo, a post or a stored record. So every noncharacter is
// removed where input enters the service, before anything is stored or
// echoed:
//
//   - the command table: every command's Run and every completion
//     (commands() wraps them all), whichever transport parsed the line:
//     the caller's name, each string option, each user option's name;
//   - the three methods transports call outside the table with typed
//     text or a transport's name: Move (the pages' form), PlainMove (a
//     chat line) and Click (a button).
//
// Game records keep the names cleaned at their entry; tokens in a text
// are made only by the service's own functions (MentionToken, ...), which
// also drop these characters from their fields.

// isNoncharacter reports the 66 Unicode noncharacters: U+FDD0..U+FDEF
// (the presenter's) and the last two code points of every plane.
func isNoncharacter(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE && r <= 0x10FFFF
}

// CleanInput is s without the Unicode noncharacters, among them the
// presenter's token characters: what a person typed, safe to store and
// echo. s itself is returned when it has none (no allocation).
func CleanInput(s string) string {
	if !strings.ContainsFunc(s, isNoncharacter) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isNoncharacter(r) {
			return -1
		}
		return r
	}, s)
}

// cleanUser is u with its name cleaned (an id is the transport's own).
func cleanUser(u User) User {
	u.Name = CleanInput(u.Name)
	return u
}

// cleanRequest is r with the caller's name cleaned.
func cleanRequest(r Request) Request {
	r.User = cleanUser(r.User)
	return r
}

// cleanArgs is a copy of in with its strings and users' names cleaned.
func cleanArgs(in Args) Args {
	if in == nil {
		return nil
	}
	out := make(Args, len(in))
	for k, v := range in {
		switch v := v.(type) {
		case string:
			out[k] = CleanInput(v)
		case User:
			out[k] = cleanUser(v)
		default:
			out[k] = v
		}
	}
	return out
}

// guardInput wraps every Run and completion of cs (and their
// subcommands') so that they see the input cleaned.
func guardInput(cs []Command) []Command {
	for i := range cs {
		c := &cs[i]
		if run := c.Run; run != nil {
			c.Run = func(s *Service, req Request, in Args) (Reply, error) {
				return run(s, cleanRequest(req), cleanArgs(in))
			}
		}
		opts := make([]Option, len(c.Options))
		copy(opts, c.Options)
		for j := range opts {
			if complete := opts[j].Complete; complete != nil {
				opts[j].Complete = func(s *Service, req Request, in Args, typed string) []Choice {
					return complete(s, cleanRequest(req), cleanArgs(in), CleanInput(typed))
				}
			}
		}
		c.Options = opts
		c.Subcommands = guardInput(append([]Command(nil), c.Subcommands...))
	}
	return cs
}
