package web

import "net/http"

// playerRoutes registers the players' pages under /s/ (the leaderboards,
// the profiles, the open challenges).
func (s *Server) playerRoutes(mux *http.ServeMux) {}
