package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/engine"
	"tessera/service"
)

// game loads the game a request's address names; a bad address (or a
// game that is not there) gets the 404 page.
func (s *Server) game(w http.ResponseWriter, r *http.Request) (*tessera.Game, bool) {
	g, err := s.svc.GameAt(r.Context(), r.PathValue("address"))
	if err != nil {
		if tessera.ErrorCode(err) == tessera.ENOTFOUND {
			s.fail(w, r, http.StatusNotFound, "There is no game at this address. Open the game from the link in its thread.")
		} else {
			s.internal(w, r, err)
		}
		return nil, false
	}
	return g, true
}

// gamePage is a game's page: the position ?move=N names (default the
// last), live.
func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	g, ok := s.game(w, r)
	if !ok {
		return
	}
	if r.URL.Query().Has("t") {
		s.takeToken(w, r, g)
		return
	}
	moves, ok := s.moveParam(w, r, g)
	if !ok {
		return
	}
	name := "game.html"
	switch r.URL.Query().Get("part") {
	case "position":
		name = "position" // the scrubber's and the live update's fragment
	case "placements":
		s.placementsPart(w, r, g, moves) // a long list of the player's moves, fetched by the script (see maxListed)
		return
	}
	s.showGame(w, r, g, moves, name, http.StatusOK, "")
}

// boardSVG is the page cache's name for a position's board alone, as
// its SVG (kept to be put in pages, not served by itself).
const boardSVG = "board.svg"

// sharedBuildTimeout bounds the making of a page that several requests
// wait for (none of their contexts alone may end it).
const sharedBuildTimeout = 30 * time.Second

// showGame writes a game's page (or its fragment) at position moves for
// whoever asks, with a message from their last action. A page without a
// message comes from the page cache (made once for all who ask at the
// same time; a player's for that player only, its personal tokens filled
// in per answer).
func (s *Server) showGame(w http.ResponseWriter, r *http.Request, g *tessera.Game, moves int, name string, code int, message string) {
	who, ok := s.viewer(w, r, g)
	if !ok {
		return
	}
	build := func(r *http.Request, who viewer, personal bool) ([]byte, error) {
		v, err := s.svc.GameView(r.Context(), g, moves, who.user)
		if err != nil {
			return nil, err
		}
		page, err := s.gamePageData(r, v, who)
		if err != nil {
			return nil, err
		}
		if personal && page.Player {
			page.CSRF, page.Key = csrfMarker, keyMarker
		}
		page.Message = message
		var buf bytes.Buffer
		if err := s.pages.ExecuteTemplate(&buf, name, page); err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		return buf.Bytes(), nil
	}
	if message == "" && code == http.StatusOK {
		// A page made for everyone who asks at once is not cut short by
		// its first asker's leaving: the others wait for it.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), sharedBuildTimeout)
		defer cancel()
		key := pageKey{game: g.ID, version: g.Version, moves: moves, template: name, viewer: who.user}
		page, err := s.cache.do(key, func() ([]byte, error) { return build(r.WithContext(ctx), who, true) })
		if err != nil {
			s.serviceError(w, r, err)
			return
		}
		var f fills
		if who.user != "" {
			f = fills{csrf: csrfToken(who.token), key: formKey()}
		}
		page.write(w, r, code, f)
		return
	}
	body, err := build(r, who, false)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeHTML(w, code, body)
}

// The placeholders of a kept player's page: letters only, so that the
// templates write them as they are, in an attribute or a text.
var (
	csrfMarker = "tesseraCsrfMarkerQ7v"
	keyMarker  = "tesseraFormKeyMarkerZ3k"
)

// moveParam reads ?move=N: absent or "last" is the last position; a number
// beyond either end is the nearest position; anything else is refused.
func (s *Server) moveParam(w http.ResponseWriter, r *http.Request, g *tessera.Game) (int, bool) {
	q := strings.TrimSpace(r.URL.Query().Get("move"))
	if q == "" || q == "last" {
		return -1, true
	}
	n, err := strconv.Atoi(q)
	if err != nil {
		if len(q) > 20 || strings.Trim(q, "+-0123456789") != "" {
			s.fail(w, r, http.StatusBadRequest, "?move= takes a move number: 0 for the start, 1 for the position after the first move, and so on.")
			return 0, false
		}
		// A number too long for an int: the nearest end.
		if strings.HasPrefix(q, "-") {
			return 0, true
		}
		return -1, true
	}
	return max(0, min(n, len(g.Moves))), true
}

// gamePage is what the game's templates read.
type gamePage struct {
	Title   string
	View    service.GameView
	Address string // the page's path: /g/<address>
	Board   template.HTML
	Hand    template.HTML
	Player  bool   // the viewer holds a seat (their cookie's token)
	CSRF    string // the forms' token (players only)
	Key     string // the forms' idempotency key, new with each page (players only)
	Prev    int    // the scrubber's neighbours (-1: none)
	Next    int
	Message string // what the last action said
	// Players is the path of the server's players' pages (its
	// leaderboards, profiles, open challenges); "" for a game outside a
	// server.
	Players string
	// Lazy: the player has more than maxListed legal moves (Glorieta's
	// pairs of stones: thousands), so the page lists none; its script
	// fetches the placements (?part=placements) and the form takes the
	// move typed in.
	Lazy bool
	// Playing: the viewer is a player of this game in play, at its last
	// position (their hand, the resignation); YourTurn: and it is their
	// turn (their moves).
	Playing, YourTurn bool
	// Status is the line above the board: "Your turn" on the player's
	// own turn, else what the picture's panel says.
	Status string
	// Placements are the moves placed on the board, for the script
	// (inline unless Lazy).
	Placements placements
	// At names the position for the scrubber ("Move 3 of 12").
	At string
	// Words is the position in words, the board's text alternative; Said
	// is what the live region announces when the page shows this
	// position (the move that made it, whose turn).
	Words, Said string
}

// maxListed is the most legal moves a page lists inline. Glorieta's
// second turn has 8,001 and listed them all, twice, in a page of 1.2 MB
// sent again on every live update.
const maxListed = 500

func (s *Server) gamePageData(r *http.Request, v service.GameView, who viewer) (gamePage, error) {
	p := gamePage{Title: fmt.Sprintf("%s · game #%d", v.Name, v.ID), View: v, Address: "/g/" + r.PathValue("address"), Prev: v.Moves - 1, Next: v.Moves + 1}
	if p.Next > v.Total {
		p.Next = -1
	}
	// The board is the public position's, the same for every viewer: made
	// once for the spectators' page and the players' (after a move all of
	// them ask at once).
	board, err := s.cache.do(pageKey{game: v.ID, version: v.Version, moves: v.Moves, template: boardSVG}, func() ([]byte, error) {
		b, err := s.cfg.SVG.BoardOnly(v.Scene)
		return []byte(b), err
	})
	if err != nil {
		return p, err
	}
	p.Board = template.HTML(board.plain) // the renderer escapes every text it writes
	if v.Hand != nil {
		hand, err := s.cfg.SVG.Scene(*v.Hand)
		if err != nil {
			return p, err
		}
		p.Hand = template.HTML(hand)
	}
	if g := v.GuildID; g != "" {
		p.Players = "/s/" + s.svc.GuildAddress(g)
	}
	p.Lazy = len(v.Legal) > maxListed
	if who.user != "" {
		p.Player = true
		p.CSRF = csrfToken(who.token)
		p.Key = formKey()
	}
	p.Playing = p.Player && v.Status == tessera.StatusPlaying && v.Moves == v.Total && v.Viewer >= 0
	p.YourTurn = p.Playing && len(v.Legal) > 0
	p.Status = v.Panel.Status
	if p.YourTurn {
		p.Status = "Your turn"
		if v.Panel.Status != "" {
			p.Status += " · " + v.Panel.Status
		}
	}
	if p.YourTurn && !p.Lazy {
		p.Placements = placementsOf(v.Legal, v.Pieces)
	}
	p.At = positionName(v.Moves, v.Total)
	p.Words, p.Said = describe(v, p.Status)
	return p, nil
}

// positionName names the position shown, for the scrubber.
func positionName(moves, total int) string {
	switch {
	case total == 0:
		return "Start · no moves yet"
	case moves == 0 && total == 1:
		return "Start · 1 move"
	case moves == 0:
		return fmt.Sprintf("Start · %d moves", total)
	}
	return fmt.Sprintf("Move %d of %d", moves, total)
}

// render writes a template; an error before the first byte is a 500 page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, name string, data any) {
	if body, ok := s.execute(w, name, data); ok {
		writeHTML(w, code, body)
	}
}

// execute makes a template's bytes; on an error it answers 500 itself.
func (s *Server) execute(w http.ResponseWriter, name string, data any) ([]byte, bool) {
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Error("web: template", "name", name, "err", err)
		http.Error(w, "Something went wrong on our side. Please reload the page.", http.StatusInternalServerError)
		return nil, false
	}
	return buf.Bytes(), true
}

func writeHTML(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(body)
}

// errorPage is what the error template reads.
type errorPage struct {
	Title   string
	Code    int
	Message string
}

// fail answers with a short page saying what to do instead.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if wantsJSON(r) {
		writeJSON(w, code, result{Message: msg})
		return
	}
	s.render(w, r, code, "error.html", errorPage{Title: http.StatusText(code), Code: code, Message: msg})
}

// internal logs our own error and answers without its details.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("web: internal error", "path", r.URL.Path, "err", err)
	s.fail(w, r, http.StatusInternalServerError, "Something went wrong on our side; nothing was changed. Please try again.")
}

// serviceError answers with a service error's user-safe message.
func (s *Server) serviceError(w http.ResponseWriter, r *http.Request, err error) {
	if tessera.ErrorCode(err) == tessera.EINTERNAL {
		s.internal(w, r, err)
		return
	}
	s.fail(w, r, statusOf(err), service.Render(tessera.ErrorMessage(err), Presenter))
}

// statusOf is the HTTP status of a user-safe error.
func statusOf(err error) int {
	switch tessera.ErrorCode(err) {
	case tessera.ENOTFOUND:
		return http.StatusNotFound
	case tessera.EFORBIDDEN:
		return http.StatusForbidden
	case tessera.ECONFLICT:
		return http.StatusConflict
	case tessera.EINTERNAL:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"color": func(c engine.Color) string {
		if c.A == 0 {
			return ""
		}
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	},
	"rfc3339":  func(t interface{ Format(string) string }) string { return t.Format("2006-01-02T15:04:05Z07:00") },
	"signed":   func(n int) string { return fmt.Sprintf("%+d", n) },
	"span":     service.Span,
	"asset":    asset,
	"unplaced": unplaced,
	// placed reports whether any of the moves is made on the board.
	"placed": func(ls []service.WebLegal) bool {
		for _, l := range ls {
			if l.Placed {
				return true
			}
		}
		return false
	},
	// points writes cells as "x,y;x,y" for the page's script.
	"points": func(ps []engine.Point) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = strconv.FormatFloat(p.X, 'g', 6, 64) + "," + strconv.FormatFloat(p.Y, 'g', 6, 64)
		}
		return strings.Join(out, ";")
	},
}
