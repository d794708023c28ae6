package service

import "strings"

// commands is the table of commands (command.go): its order is the order
// in which Discord lists them, and its texts are what players read there.
// It is made at each use, so that the game: option lists every game
// registered by then (a table made at init could miss some).
func commands() []Command {
	return guardInput([]Command{ // input.go: the typed text cleaned of token characters
		{Name: "new", Description: "Challenge people to a game", InServer: true, MakesThread: true, Public: true, Run: runNew, Options: []Option{
			gameOption(true),
			{Type: UserOption, Name: "opponent", Description: "Who you challenge (name me to play the computer); leave out for an open challenge", NoBots: true},
			{Type: UserOption, Name: "opponent2", Description: "A second opponent (games for 3+)", NoBots: true},
			{Type: UserOption, Name: "opponent3", Description: "A third opponent (games for 4)", NoBots: true},
			{Type: StringOption, Name: "options", Description: "Game options, e.g. borders=RBGY (see /rules)", MaxLength: 200},
			{Type: StringOption, Name: "clock", Description: "Time control: 3d (days per move), bank=7d,inc=1d,cap=14d, or none", MaxLength: 60},
			{Type: StringOption, Name: "level", Description: "When you challenge me: how strong I play (default normal)", Choices: []Choice{
				{Name: "easy", Value: "easy"}, {Name: "normal", Value: "normal"}, {Name: "hard", Value: "hard"}}},
			{Type: IntegerOption, Name: "seats", Description: "Players of an open challenge (default the game's fewest)", MinValue: &one, MaxValue: 4},
			{Type: BooleanOption, Name: "rated", Description: "Whether the game changes ratings (default true; games against me never do)"},
		}},
		{Name: "move", Description: "Make your move (the list shows your legal moves)", Run: runMove, Options: []Option{
			{Type: StringOption, Name: "notation", Description: "Your move, e.g. d5 RGBY; start typing to see the legal moves", Required: true, Complete: completeMove, MaxLength: 200},
			gameRef,
		}},
		puzzleCommand(), // puzzle.go: worded from the games that have puzzles
		{Name: "hint", Description: "A tile of a solution from your puzzle's position (only you see it)", Run: onGame((*Service).Hint), Options: []Option{gameRef}},
		{Name: "hand", Description: "See your hand (only you see it)", Run: onGame((*Service).Hand), Options: []Option{gameRef}},
		{Name: "board", Description: "Show a game's board again", Public: true, Run: onGame((*Service).Board), Options: []Option{gameRef}},
		{Name: "games", Description: "Your games and whose turn it is", Run: runGames},
		{Name: "resign", Description: "Resign a game (asks to confirm)", Run: onGame((*Service).Resign), Options: []Option{gameRef}},
		{Name: "rules", Description: "A game's rules and move notation", Run: runRules, Options: []Option{gameOption(true)}},
		{Name: "abort", Description: "End a game without result (only before its second move)", Run: onGame((*Service).Abort), Options: []Option{gameRef}},
		{Name: "challenges", Description: "The open challenges of this server, to join", Run: runChallenges},
		tournamentCommand(), // tournamentcmd.go
		{Name: "history", Description: "Finished games, newest first", Run: runHistory, Options: []Option{
			{Type: UserOption, Name: "user", Description: "Whose games (default yours)"},
			gameOption(false),
		}},
		{Name: "leaderboard", Description: "The best players of a game in this server, as a picture", Run: runLeaderboard, Options: []Option{gameOption(true)}},
		{Name: "profile", Description: "A player's ratings, records and games, as a picture", Run: runProfile, Options: []Option{
			{Type: UserOption, Name: "user", Description: "Whose profile (default yours)"},
		}},
		{Name: "export", Description: "The record of a finished game, as files to keep", Run: onGame((*Service).Export), Options: []Option{
			{Type: StringOption, Name: "game", Complete: completeFinished, Required: true, Description: "Which finished game"},
		}},
		{Name: "replay", Description: "A game as an animated picture, one frame per move", Run: runReplay, Options: []Option{
			{Type: StringOption, Name: "game", Complete: completeAnyGame, Description: gameRef.Description},
			{Type: IntegerOption, Name: "from", Description: "First move to show (default the first)", MinValue: &one, MaxValue: 10000},
			{Type: IntegerOption, Name: "to", Description: "Last move to show (default the last)", MinValue: &one, MaxValue: 10000},
		}},
		{Name: "analyze", Description: "A finished game's analysis: each player's chance over the moves, and the costliest moves", Run: onGame((*Service).Analyze), Options: []Option{
			{Type: StringOption, Name: "game", Complete: completeFinished, Description: "Which finished game (needed outside its thread)"},
		}},
		{Name: "vacation", Description: "Pause your clocks in all your games", Run: runVacation, Options: []Option{
			{Type: IntegerOption, Name: "days", Description: "How many days you are away", Required: true, MinValue: &one, MaxValue: 366},
		}},
		{Name: "settings", Description: "Your settings: turn notices by direct message, time zone; the server's game pages", Run: runSettings, Options: []Option{
			{Type: StringOption, Name: "notify", Description: "How turn notices reach you", Choices: []Choice{{Name: "direct message", Value: "dm"}, {Name: "mail", Value: "mail"}, {Name: "both", Value: "both"}, {Name: "none", Value: "none"}}},
			{Type: StringOption, Name: "timezone", Description: "Your time zone, e.g. Europe/Paris", MaxLength: 64},
			{Type: StringOption, Name: "web", Description: "This server's game pages (members with Manage Server)", Choices: []Choice{{Name: "on", Value: "on"}, {Name: "off", Value: "off"}}},
			{Type: StringOption, Name: "email", Description: "Your mail address for turn notices (a code is mailed to it), or off", MaxLength: 254},
			{Type: StringOption, Name: "code", Description: "The code mailed to your address, to link it", MaxLength: 16},
		}},
		{Name: "link", Description: "Your private link to a game's page, to see your hand and move there (only you see it)", Run: runLink, Options: []Option{
			gameRef,
			{Type: BooleanOption, Name: "reset", Description: "Revoke every link you were given before, then give a new one"},
		}},
	})
}

// one is the least value of counting options (seats, days, moves).
var one = 1.0

// gameOption is the game: option of commands about a kind of game.
func gameOption(required bool) Option {
	return Option{Type: StringOption, Name: "game", Description: "Which game", Required: required, Choices: GameIDs()}
}

// gameRef is the optional game: option of commands about one game.
var gameRef = Option{Type: StringOption, Name: "game", Complete: completeGame,
	Description: "Which of your games (needed only when this channel has several)"}

// onGame adapts a command about one of the caller's games.
func onGame(do func(s *Service, req Request, ref string) (Reply, error)) func(*Service, Request, Args) (Reply, error) {
	return func(s *Service, req Request, in Args) (Reply, error) { return do(s, req, in.String("game")) }
}

func runNew(s *Service, req Request, in Args) (Reply, error) {
	r := NewGameRequest{Game: in.String("game"), Opponents: opponents(in), Options: in.String("options"),
		Clock: in.String("clock"), Level: in.String("level"), Seats: in.Int("seats")}
	if rated, given := in.Bool("rated"); given && !rated {
		req.Unrated = true
	}
	if len(r.Opponents) == 0 { // an open challenge, for seats: players
		return s.NewOpen(req, r)
	}
	return s.NewGame(req, r)
}

func runMove(s *Service, req Request, in Args) (Reply, error) {
	return s.Move(req, in.String("game"), in.String("notation"))
}

func runPuzzle(s *Service, req Request, in Args) (Reply, error) {
	return s.Puzzle(req, PuzzleRequest{Game: in.String("game"), Level: in.String("level")})
}

func runGames(s *Service, req Request, _ Args) (Reply, error) { return s.Games(req) }

func runRules(s *Service, _ Request, in Args) (Reply, error) { return s.Rules(in.String("game")) }

func runChallenges(s *Service, req Request, _ Args) (Reply, error) { return s.Challenges(req) }

func runHistory(s *Service, req Request, in Args) (Reply, error) {
	u, _ := in.User("user")
	return s.History(req, u, in.String("game"))
}

func runLeaderboard(s *Service, req Request, in Args) (Reply, error) {
	return s.Leaderboard(req, in.String("game"))
}

func runProfile(s *Service, req Request, in Args) (Reply, error) {
	u, _ := in.User("user")
	return s.Profile(req, u)
}

func runReplay(s *Service, req Request, in Args) (Reply, error) {
	return s.ReplayGIF(req, in.String("game"), in.Int("from"), in.Int("to"))
}

func runVacation(s *Service, req Request, in Args) (Reply, error) {
	return s.Vacation(req, in.Int("days"))
}

func runSettings(s *Service, req Request, in Args) (Reply, error) {
	// An address, then its code: each answers alone (the address's reply
	// says the code is coming; the code's says where notices go now).
	if email := in.String("email"); email != "" {
		return s.Email(req, email)
	}
	if code := in.String("code"); code != "" {
		return s.ConfirmEmail(req, code)
	}
	web := in.String("web")
	if web == "" {
		return s.Settings(req, in.String("notify"), in.String("timezone"))
	}
	if in.String("notify") == "" && in.String("timezone") == "" {
		return s.ServerSettings(req, web)
	}
	// Both kinds at once: the server's is checked first, so that a
	// refusal leaves the caller's own settings as they were too.
	if err := checkServerSettings(req, strings.ToLower(strings.TrimSpace(web))); err != nil {
		return Reply{}, err
	}
	own, err := s.Settings(req, in.String("notify"), in.String("timezone"))
	if err != nil {
		return Reply{}, err
	}
	server, err := s.ServerSettings(req, web)
	if err != nil {
		return Reply{}, err
	}
	own.Text += "\n" + server.Text
	return own, nil
}

func runLink(s *Service, req Request, in Args) (Reply, error) {
	reset, _ := in.Bool("reset")
	return s.Link(req, in.String("game"), reset)
}

// completeGame suggests the caller's games in play.
func completeGame(s *Service, req Request, _ Args, typed string) []Choice {
	return s.GameChoices(req, typed)
}

// completeFinished suggests the caller's finished games.
func completeFinished(s *Service, req Request, _ Args, typed string) []Choice {
	return s.FinishedChoices(req, typed)
}

// completeAnyGame suggests games in play, then finished ones.
func completeAnyGame(s *Service, req Request, _ Args, typed string) []Choice {
	return append(s.GameChoices(req, typed), s.FinishedChoices(req, typed)...)
}

// completeMove suggests the legal moves of the game named (or the one
// the channel shows) that fit what was typed.
func completeMove(s *Service, req Request, in Args, typed string) []Choice {
	return s.MoveChoices(req, in.String("game"), typed)
}
