package service

import (
	"strconv"
	"strings"

	"tessera"
)

// UnknownButton answers a button whose id is none of ours (an old
// message's, or one made up): it says nothing changed and where to go on.
const UnknownButton = "That button is not one I know (from an old message?), so nothing was changed. /games lists your games; /challenges the open challenges."

func unknownButton() error { return errorf(tessera.EINVALID, UnknownButton) }

// Presser says who may press a button. Everyone who sees a message sees
// its buttons, so each action refuses the others itself; the table says
// whom, and TestButtonsRefuseStrangers holds every action to it.
type Presser int

const (
	// AnyMember: anyone who sees the button (joining an open challenge,
	// a page of a list, keeping things as they were).
	AnyMember Presser = iota
	// GamePlayers: the players of the button's game.
	GamePlayers
	// EventOrganiser: the organiser of the button's tournament, or a
	// member with Manage Server.
	EventOrganiser
	// EventPlayers: the players of the button's tournament.
	EventPlayers
)

// ButtonAction is one kind of button, beside the commands in the command
// table (commandtable.go): its id is Prefix, ":", and the rest Run reads
// (a game's or a tournament's number, then what the action needs). Every
// transport presses a button with Service.Click and learns from the
// table whether the answer is for everyone (Public); the console offers
// the actions that have a Verb as commands of their own ("/accept #3").
type ButtonAction struct {
	Prefix string
	Who    Presser
	// Public: the answer is posted for everyone in the channel (it starts
	// or changes a game all can see), not shown to the presser alone.
	Public bool
	// Verb, Usage and About: how a transport without buttons writes the
	// press as a command ("accept", "[#id]", "accept a challenge"). An
	// optional number ("[#id]") means the newest challenge waiting for
	// the caller.
	Verb, Usage, About string
	Run                func(s *Service, req Request, rest string) (Reply, error)
}

// Buttons is the table of buttons, in the order a help lists them.
func Buttons() []ButtonAction { return buttonTable }

var buttonTable = []ButtonAction{
	{Prefix: actAccept, Who: GamePlayers, Public: true, Verb: "accept", Usage: "[#id]", About: "accept a challenge (the newest)", Run: numbered((*Service).Accept)},
	{Prefix: actDecline, Who: GamePlayers, Public: true, Verb: "decline", Usage: "[#id]", About: "decline a challenge (the newest)", Run: numbered((*Service).Decline)},
	{Prefix: actJoin, Who: AnyMember, Public: true, Verb: "join", Usage: "#id", About: "join an open challenge", Run: numbered((*Service).Join)},
	{Prefix: actRematch, Who: GamePlayers, Public: true, Verb: "rematch", Usage: "#id", About: "challenge a finished game's players again", Run: numbered((*Service).Rematch)},
	{Prefix: actWithdraw, Who: GamePlayers, Run: numbered((*Service).Withdraw)},
	{Prefix: actResign, Who: GamePlayers, Run: numbered((*Service).ResignConfirm)},
	{Prefix: actCancel, Who: AnyMember, Run: func(*Service, Request, string) (Reply, error) {
		return Reply{Text: "Kept playing: nothing was changed.", Ephemeral: true}, nil
	}},
	{Prefix: actHistory, Who: AnyMember, Run: (*Service).historyPage},
	{Prefix: actEventJoin, Who: AnyMember, Run: numbered((*Service).JoinEvent)},
	{Prefix: actEventLeave, Who: EventPlayers, Run: numbered((*Service).LeaveEvent)},
	{Prefix: actEventStart, Who: EventOrganiser, Run: numbered((*Service).StartEvent)},
	{Prefix: actEventQuit, Who: EventPlayers, Run: numbered(func(s *Service, req Request, id uint64) (Reply, error) {
		return s.withdrawConfirmed(req, id, req.User.ID)
	})},
	{Prefix: actEventKick, Who: EventOrganiser, Run: (*Service).kickConfirmed},
	{Prefix: actEventKeep, Who: AnyMember, Run: func(*Service, Request, string) (Reply, error) {
		return Reply{Text: "Nothing was changed.", Ephemeral: true}, nil
	}},
}

// ButtonFor finds the action of a button id; ok is false for an id that
// is none of ours.
func ButtonFor(id string) (ButtonAction, bool) {
	prefix, _, _ := strings.Cut(id, ":")
	for _, b := range buttonTable {
		if b.Prefix == prefix {
			return b, true
		}
	}
	return ButtonAction{}, false
}

// ButtonID is the id of the button of action prefix about game or
// tournament number n: what a transport without buttons presses.
func ButtonID(prefix string, n uint64) string { return buttonID(prefix, n) }

func buttonID(action string, id uint64) string { return action + ":" + strconv.FormatUint(id, 10) }

// Click handles a press of the button id: its action in the table (an id
// that is none, or whose number does not read, changes nothing and says
// so). The action itself refuses a presser who has no part in it.
func (s *Service) Click(req Request, id string) (Reply, error) {
	req, id = cleanRequest(req), CleanInput(id) // input.go
	b, ok := ButtonFor(id)
	if !ok {
		return Reply{}, unknownButton()
	}
	_, rest, _ := strings.Cut(id, ":")
	return b.Run(s, req, rest)
}

// numbered runs an action on the game or tournament whose number is the
// whole rest of the id.
func numbered(run func(*Service, Request, uint64) (Reply, error)) func(*Service, Request, string) (Reply, error) {
	return func(s *Service, req Request, rest string) (Reply, error) {
		id, err := strconv.ParseUint(rest, 10, 64)
		if err != nil {
			return Reply{}, unknownButton()
		}
		return run(s, req, id)
	}
}
