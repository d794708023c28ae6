package web

// The players' pages of a server, at /s/{guild}/... where {guild} is the
// server's unguessable address (service.GuildAddress), which the bot
// gives in /leaderboard's and /profile's answers:
//
//	GET /s/{guild}                      the server's games and links
//	GET /s/{guild}/leaderboard/{game}   a game's leaderboard
//	GET /s/{guild}/players/{user}       a player: ratings and their course, games in play, finished games (?page=N)
//	GET /s/{guild}/challenges           the open challenges (joined in Discord)
//
// They show what /leaderboard, /profile, /history and /challenges show
// anyone in the server (service/webplayers.go), and change nothing.

import (
	"html/template"
	"net/http"
	"strconv"

	"tessera"
	"tessera/engine"
	"tessera/service"
)

// playerRoutes registers the players' pages under /s/.
func (s *Server) playerRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /s/{guild}", s.guildPage)
	mux.HandleFunc("GET /s/{guild}/leaderboard/{game}", s.leaderboardPage)
	mux.HandleFunc("GET /s/{guild}/players/{user}", s.playerPage)
	mux.HandleFunc("GET /s/{guild}/challenges", s.challengesPage)
}

// guild is the server a request's address names; a bad address, or a
// server whose pages are off, gets the 404 page.
func (s *Server) guild(w http.ResponseWriter, r *http.Request) (string, bool) {
	id, err := s.svc.WebGuild(r.Context(), r.PathValue("guild"))
	if err != nil {
		if tessera.ErrorCode(err) == tessera.ENOTFOUND {
			s.fail(w, r, http.StatusNotFound, "There is no server's page at this address. Ask the bot for the link with /leaderboard or /profile.")
		} else {
			s.internal(w, r, err)
		}
		return "", false
	}
	return id, true
}

// guildNav is what every players' page links to: the server's pages.
type guildNav struct {
	Title string
	Base  string // "/s/{guild}"
	Games []engine.Game
}

func (s *Server) nav(r *http.Request, title string) guildNav {
	return guildNav{Title: title, Base: "/s/" + r.PathValue("guild"), Games: engine.Games()}
}

func (s *Server) guildPage(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.guild(w, r); !ok {
		return
	}
	s.render(w, r, http.StatusOK, "guild.html", s.nav(r, "This server's games"))
}

type leaderboardPage struct {
	guildNav
	Game       engine.Game
	Rows       []service.WebLeader
	Rated      int
	Note       string
	Page       int    // from 1
	From, To   int    // the places shown
	Prev, Next string // the pages before and after, "" for none
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guild(w, r)
	if !ok {
		return
	}
	g, ok := engine.Lookup(r.PathValue("game"))
	if !ok {
		s.fail(w, r, http.StatusNotFound, "There is no such game. Pick one from this server's page.")
		return
	}
	page := 0
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10_000 {
			s.fail(w, r, http.StatusBadRequest, "The page is a number from 1, like ?page=2.")
			return
		}
		page = n - 1
	}
	rows, note, rated, err := s.svc.WebLeaderboard(r.Context(), guild, g.ID, page)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	data := leaderboardPage{guildNav: s.nav(r, g.Name+": leaderboard"), Game: g, Rows: rows, Rated: rated, Note: note, Page: page + 1}
	if len(rows) > 0 {
		data.From, data.To = rows[0].Place, rows[len(rows)-1].Place
	}
	here := data.Base + "/leaderboard/" + g.ID
	if page > 0 {
		data.Prev = here + "?page=" + strconv.Itoa(page)
	}
	if (page+1)*service.WebLeaderboardSize < rated {
		data.Next = here + "?page=" + strconv.Itoa(page+2)
	}
	s.render(w, r, http.StatusOK, "leaderboard.html", data)
}

type playerPage struct {
	guildNav
	service.WebPlayerPage
	Charts      []template.HTML // one per Card.Games: its rating's course
	Leaderboard []string        // one per Card.Games: its leaderboard's page
	Page        int             // of finished games, from 1
	Prev, Next  string          // the pages before and after, "" for none
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guild(w, r)
	if !ok {
		return
	}
	page := 0
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10_000 {
			s.fail(w, r, http.StatusBadRequest, "The page is a number from 1, like ?page=2.")
			return
		}
		page = n - 1
	}
	user := r.PathValue("user")
	if len(user) > 64 {
		s.fail(w, r, http.StatusNotFound, "There is no player with that id in this server's games.")
		return
	}
	p, err := s.svc.WebPlayer(r.Context(), guild, user, page)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	data := playerPage{guildNav: s.nav(r, p.Card.Title), WebPlayerPage: p, Page: page + 1}
	data.Charts = make([]template.HTML, len(p.Card.Games))
	for _, g := range p.Card.Games {
		link := ""
		for _, e := range engine.Games() {
			if e.Name == g.Name {
				link = data.Base + "/leaderboard/" + e.ID
			}
		}
		data.Leaderboard = append(data.Leaderboard, link)
	}
	for i, g := range p.Card.Games {
		doc, err := s.cfg.SVG.RatingChart(g.Course, g.Name+": rating over time")
		if err != nil {
			s.internal(w, r, err)
			return
		}
		data.Charts[i] = template.HTML(doc) // svg escapes every text it writes
	}
	here := data.Base + "/players/" + user
	if page > 0 {
		data.Prev = here + "?page=" + strconv.Itoa(page)
	}
	if p.More {
		data.Next = here + "?page=" + strconv.Itoa(page+2)
	}
	s.render(w, r, http.StatusOK, "player.html", data)
}

type challengesPage struct {
	guildNav
	Open []service.WebChallenge
	More int // open challenges not listed
}

func (s *Server) challengesPage(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guild(w, r)
	if !ok {
		return
	}
	open, more, err := s.svc.WebChallenges(r.Context(), guild)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "challenges.html", challengesPage{guildNav: s.nav(r, "Open challenges"), Open: open, More: more})
}
