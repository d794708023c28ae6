package service

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Presenter is how one transport shows what the service writes in a
// neutral form: a mention of a user, a link to a game's place, a moment,
// and the words that name what the caller types. Each transport supplies
// its own (Discord: "<@id>", jump links, "<t:...>" tags; the console:
// "@name"; mail: names and dates in the player's own time zone), so that
// several transports share one Service and one outbox.
//
// The service writes these as tokens (Mention, Link, Stamp, the Wording
// methods below) into every text it makes: replies, errors, the
// announcements stored in the outbox, the courier's words. A transport
// renders a text with Render just before it shows it. A text without
// tokens (one stored by an older build, already in Discord's form) is
// shown as it is.
type Presenter interface {
	// Mention names a user (Discord: "<@id>", which pings only the users
	// a message allows).
	Mention(u User) string
	// Link points to a channel or thread (Discord: a jump URL).
	Link(guildID, channelID string) string
	// Stamp writes a moment for a reader in loc.
	Stamp(t time.Time, loc *time.Location) string
	// Wording is how hints name the transport's own syntax.
	Wording() Wording
}

// Plain is the presenter of a transport that has nothing of its own:
// "@name", "#channel", a date in the reader's zone, Discord's wording
// (the console and the web pages build theirs on it).
type Plain struct {
	// Words overrides the wording; an empty field is Discord's.
	Words Wording
}

// Mention is "@name".
func (Plain) Mention(u User) string { return "@" + u.Name }

// Link is "#channel".
func (Plain) Link(_, channelID string) string { return "#" + channelID }

// Stamp is the moment in loc, "Mon 2 Jan 15:04 MST".
func (Plain) Stamp(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("Mon 2 Jan 15:04 MST")
}

// Wording is p.Words with Discord's wording for an empty field.
func (p Plain) Wording() Wording { return p.Words.withDefaults() }

// withDefaults fills an empty field with Discord's wording.
func (w Wording) withDefaults() Wording {
	if w.PickGame == "" {
		w.PickGame = "the game: option"
	}
	if w.MoveList == "" {
		w.MoveList = "autocomplete"
	}
	if w.Channel == "" {
		w.Channel = "this channel"
	}
	if w.Server == "" {
		w.Server = "this server"
	}
	return w
}

// The tokens: tokOpen, a kind, fields separated by tokSep, tokClose. They
// are Unicode noncharacters (U+FDD0..U+FDEF), which the standard reserves
// for a program's internal use: no text a person writes means anything by
// them, and Render drops a stray one.
const (
	tokOpen  = '\uFDD0'
	tokClose = '\uFDD1'
	tokSep   = '\uFDD2'
)

// Token kinds.
const (
	kindMention = 'm' // id, name
	kindLink    = 'l' // guild, channel
	kindStamp   = 't' // unix seconds, IANA zone ("" is UTC)
	kindWord    = 'w' // which wording (wordPickGame...); 'W' capitalised
	kindWordCap = 'W'
)

// Which wording a kindWord token names.
const (
	wordPickGame = "pick"
	wordMoveList = "moves"
	wordChannel  = "channel"
	wordServer   = "server"
)

// tokenField removes what would end a token's field early.
func tokenField(s string) string {
	return strings.Map(func(r rune) rune {
		if isTokenRune(r) {
			return -1
		}
		return r
	}, s)
}

func isTokenRune(r rune) bool { return r == tokOpen || r == tokClose || r == tokSep }

func token(kind rune, fields ...string) string {
	var b strings.Builder
	b.WriteRune(tokOpen)
	b.WriteRune(kind)
	for _, f := range fields {
		b.WriteRune(tokSep)
		b.WriteString(tokenField(f))
	}
	b.WriteRune(tokClose)
	return b.String()
}

// MentionToken is u's mention, as a transport will render it.
func MentionToken(u User) string { return token(kindMention, u.ID, u.Name) }

// LinkToken is a link to a channel or thread, as a transport will render it.
func LinkToken(guildID, channelID string) string { return token(kindLink, guildID, channelID) }

// StampToken is the moment t for a reader in loc, as a transport will
// render it.
func StampToken(t time.Time, loc *time.Location) string {
	zone := ""
	if loc != nil && loc != time.UTC && loc.String() != "UTC" {
		zone = loc.String()
	}
	return token(kindStamp, strconv.FormatInt(t.Unix(), 10), zone)
}

// wordToken is one of the transport's words.
func wordToken(which string) string { return token(kindWord, which) }

// Neutral wording: the tokens each transport renders with its Wording.
var neutralWording = Wording{
	PickGame: wordToken(wordPickGame),
	MoveList: wordToken(wordMoveList),
	Channel:  wordToken(wordChannel),
	Server:   wordToken(wordServer),
}

// capitalToken is capital for a text that may start with a wording token:
// the transport capitalises the word it renders.
func capitalToken(text string) string {
	open := string(tokOpen) + string(kindWord)
	if rest, ok := strings.CutPrefix(text, open); ok {
		return string(tokOpen) + string(kindWordCap) + rest
	}
	return capital(text)
}

// Render shows text through p: every token becomes p's rendering, a
// malformed or stray token character is dropped, and the rest is left as
// it is (so a text stored before tokens, in Discord's form, reads as it
// did).
func Render(text string, p Presenter) string {
	if !strings.ContainsFunc(text, isTokenRune) {
		return text
	}
	if p == nil {
		p = Plain{}
	}
	var b strings.Builder
	b.Grow(len(text))
	for len(text) > 0 {
		i := strings.IndexFunc(text, isTokenRune)
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		r, size := utf8.DecodeRuneInString(text[i:])
		text = text[i+size:]
		if r != tokOpen {
			continue // a stray separator or close
		}
		end := strings.IndexRune(text, tokClose)
		if end < 0 {
			continue // unclosed: drop the opening, keep the rest as text
		}
		body := text[:end]
		if strings.ContainsRune(body, tokOpen) {
			continue // another token opens before this one closes: malformed
		}
		text = text[end+utf8.RuneLen(tokClose):]
		b.WriteString(renderToken(body, p))
	}
	return b.String()
}

// renderToken renders a token's body (kind and fields); an unknown or
// malformed one renders as nothing.
func renderToken(body string, p Presenter) string {
	kind, size := utf8.DecodeRuneInString(body)
	var fields []string
	if rest := body[size:]; rest != "" {
		rest = strings.TrimPrefix(rest, string(tokSep))
		fields = strings.Split(rest, string(tokSep))
	}
	switch {
	case kind == kindMention && len(fields) == 2:
		return p.Mention(User{ID: fields[0], Name: fields[1]})
	case kind == kindLink && len(fields) == 2:
		return p.Link(fields[0], fields[1])
	case kind == kindStamp && len(fields) == 2:
		sec, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return ""
		}
		loc := time.UTC
		if fields[1] != "" {
			if l, err := time.LoadLocation(fields[1]); err == nil {
				loc = l
			}
		}
		return p.Stamp(time.Unix(sec, 0), loc)
	case (kind == kindWord || kind == kindWordCap) && len(fields) == 1:
		w := p.Wording().withDefaults()
		var word string
		switch fields[0] {
		case wordPickGame:
			word = w.PickGame
		case wordMoveList:
			word = w.MoveList
		case wordChannel:
			word = w.Channel
		case wordServer:
			word = w.Server
		}
		if kind == kindWordCap {
			word = capital(word)
		}
		return word
	}
	return ""
}

// RenderReply is r with its text rendered through p.
func RenderReply(r Reply, p Presenter) Reply {
	r.Text = Render(r.Text, p)
	return r
}

// RenderMessage is m with its text rendered through p.
func RenderMessage(m Message, p Presenter) Message {
	m.Text = Render(m.Text, p)
	return m
}
