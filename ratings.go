package tessera

import "time"

// Rating is a player's rating for one game within one server: a Weng-Lin
// belief (Mu, Sigma; see package rating), the record behind it, and its
// course, one point per rated game. It is derived from the finished games
// (tessera ratings --rebuild computes it again from them).
type Rating struct {
	GuildID string  `json:"guild_id"`
	Game    string  `json:"game"`
	UserID  string  `json:"user_id"`
	Name    string  `json:"name"` // as in the player's latest rated game
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Games   int     `json:"games"`
	Won     int     `json:"won"`    // first place alone
	Lost    int     `json:"lost"`   // any place below first
	Shared  int     `json:"shared"` // first place shared with others
	// History is the rating after each rated game, oldest first.
	History []RatingPoint `json:"history"`
}

// RatingPoint is a rating after one game.
type RatingPoint struct {
	GameID uint64    `json:"game_id"`
	At     time.Time `json:"at"`
	Mu     float64   `json:"mu"`
	Sigma  float64   `json:"sigma"`
}
