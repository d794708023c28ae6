package web

// A server's tournaments, among its players' pages (players.go):
//
//	GET /s/{guild}/tournaments        the server's tournaments, newest first
//	GET /s/{guild}/tournaments/{id}   one: its post and its standings
//
// They show what /tournament list and /tournament standings show anyone
// in the server (service/webevents.go), and change nothing.

import (
	"html/template"
	"net/http"
	"strconv"

	"tessera/service"
)

// tournamentRoutes registers the tournaments' pages under /s/.
func (s *Server) tournamentRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /s/{guild}/tournaments", s.tournamentsPage)
	mux.HandleFunc("GET /s/{guild}/tournaments/{id}", s.tournamentPage)
}

type tournamentsPage struct {
	guildNav
	Events []service.WebEvent
}

func (s *Server) tournamentsPage(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guild(w, r)
	if !ok {
		return
	}
	es, err := s.svc.WebEvents(r.Context(), guild)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "tournaments.html", tournamentsPage{guildNav: s.nav(r, "Tournaments"), Events: es})
}

type tournamentPage struct {
	guildNav
	service.WebEventPage
	Picture template.HTML // the standings, as the thread's picture draws them
}

func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guild(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.fail(w, r, http.StatusNotFound, "There is no such tournament in this server; the server's tournaments are listed on its page.")
		return
	}
	p, err := s.svc.WebEventOf(r.Context(), guild, id)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	doc, err := s.cfg.SVG.Standings(p.Standings)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "tournament.html", tournamentPage{guildNav: s.nav(r, p.Name), WebEventPage: p,
		Picture: template.HTML(doc)}) // svg escapes every text it writes
}
