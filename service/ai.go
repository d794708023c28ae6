package service

import (
	"fmt"
	"strings"

	"tessera"
	"tessera/ai"
	"tessera/engine"
)

// DefaultBotName names the AI's seats until the transport says who the
// bot is.
const DefaultBotName = "Tessera"

// SetBot tells the service who the bot itself is on its transport (Discord
// says it in READY; the console's bot is the player "tessera"). Naming
// this user as an opponent makes that seat an AI seat.
func (s *Service) SetBot(u User) {
	if u.Name == "" {
		u.Name = DefaultBotName
	}
	s.mu.Lock()
	s.bot = u
	s.mu.Unlock()
}

// Bot is the bot's own user (ID empty until SetBot).
func (s *Service) Bot() User {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bot.Name == "" {
		return User{ID: s.bot.ID, Name: DefaultBotName}
	}
	return s.bot
}

// aiLevel reads a /new level: option ("" is normal).
func aiLevel(level string) (ai.Level, error) {
	if strings.TrimSpace(level) == "" {
		return ai.Normal, nil
	}
	l, err := ai.ParseLevel(level)
	if err != nil {
		return 0, errorf(tessera.EINVALID, "There is no level %s; choose easy, normal or hard.", typed(level))
	}
	return l, nil
}

// nameAIs names the AI seats after the bot and their level, "Tessera
// (hard)", numbered when there are several ("Tessera 2 (hard)") so the
// picture, the posts and /games tell them apart. It returns how many
// there are.
func nameAIs(players []tessera.Player, bot string) int {
	n := 0
	for _, p := range players {
		if p.IsAI() {
			n++
		}
	}
	k := 0
	for i, p := range players {
		if !p.IsAI() {
			continue
		}
		k++
		if n == 1 {
			players[i].Name = fmt.Sprintf("%s (%s)", bot, p.AI)
		} else {
			players[i].Name = fmt.Sprintf("%s %d (%s)", bot, k, p.AI)
		}
	}
	return n
}

// aiToMove reports whether an AI seat is to move in st, a position of g.
func aiToMove(g *tessera.Game, st engine.State) bool {
	if st.Over() {
		return false
	}
	to := int(st.ToMove())
	return to >= 0 && to < len(g.Players) && g.Players[to].IsAI()
}

// aiSeed is the AI's seed for a move: derived from the game, the number of
// record entries and the seat, so that the same position asks the same
// question after a restart (and gets the same move when the search ends
// on its iterations, not its time cap), and two AI seats of one game
// search differently.
func aiSeed(gameID uint64, moves, seat int) uint64 {
	x := gameID*0x9e3779b97f4a7c15 ^ uint64(moves)<<20 ^ uint64(seat)
	// splitmix64's finaliser spreads nearby inputs apart.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
