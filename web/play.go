package web

// Playing from the page: a player's private link (?t=token) becomes a
// cookie that only the game's own path receives, and the page's forms
// post moves through the same service call as /move. Every post needs the
// page's CSRF token and a same-origin request.

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tessera"
	"tessera/service"
)

// tokenCookie holds a player's token on their browser.
const tokenCookie = "tessera_player"

// viewer is who asks: a player (by their token) or a spectator (zero).
type viewer struct {
	user  string
	seat  int
	token string
}

// viewer reads the request's player cookie; a token that no longer holds
// (expired, revoked, another game's) makes a spectator and is forgotten.
// When the store cannot be read to check it, the cookie is kept and the
// request answered 500 (false): a passing fault must not sign a player out.
func (s *Server) viewer(w http.ResponseWriter, r *http.Request, g *tessera.Game) (viewer, bool) {
	c, err := r.Cookie(tokenCookie)
	if err != nil || c.Value == "" {
		return viewer{seat: -1}, true
	}
	user, seat, err := s.svc.CheckPlayerToken(r.Context(), g, c.Value)
	if tessera.ErrorCode(err) == tessera.EINTERNAL {
		s.internal(w, r, err)
		return viewer{seat: -1}, false
	}
	if err != nil {
		http.SetCookie(w, s.cookie(r, "", -1))
		return viewer{seat: -1}, true
	}
	w.Header().Set("Cache-Control", "no-store") // a player's page shows their hand
	return viewer{user: user, seat: seat, token: c.Value}, true
}

// cookie is the player cookie for the game page r asks for: HttpOnly,
// only for this game's path, Secure behind https, SameSite=Lax.
//
// Lax, not Strict: a private link is followed from Discord, most often
// from another site (Discord in a browser), and a Strict cookie is not
// sent on that navigation nor on the redirect that follows it, so the
// player would see the spectator's page until they typed the address
// again. Lax sends it on a top-level GET from another site, which only
// shows the page (it changes nothing); a POST from another site still
// goes without it, and a move is guarded on its own besides: the form's
// CSRF token, which only a page that read the player's own page holds,
// and the same-origin check (sameOrigin).
//
// maxAge < 0 deletes the cookie; 0 keeps it for the link's life (it
// outlives its link at most by that: an expired token is then
// forgotten by viewer).
func (s *Server) cookie(r *http.Request, token string, maxAge int) *http.Cookie {
	if maxAge == 0 {
		maxAge = int(s.linkTTL() / time.Second)
	}
	return &http.Cookie{Name: tokenCookie, Value: token, Path: "/g/" + r.PathValue("address"), MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)}
}

// linkTTL is a private link's life, as the service gives them.
func (s *Server) linkTTL() time.Duration {
	if ttl := s.svc.Config().Web.LinkTTL; ttl > 0 && ttl <= service.MaxLinkTTL {
		return ttl
	}
	return service.DefaultLinkTTL
}

// secure reports whether the pages are served over https (the public
// address says so, or the request came over TLS).
func (s *Server) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return strings.HasPrefix(s.svc.Config().Web.URL, "https://")
}

// takeToken checks a private link's token, keeps it in the cookie and
// sends the browser to the address without it, so that it stays neither
// in the address bar nor in the history.
func (s *Server) takeToken(w http.ResponseWriter, r *http.Request, g *tessera.Game) {
	w.Header().Set("Cache-Control", "no-store")
	token := r.URL.Query().Get("t")
	if _, _, err := s.svc.CheckPlayerToken(r.Context(), g, token); tessera.ErrorCode(err) == tessera.EINTERNAL {
		s.internal(w, r, err) // the store, not the link: "try again"
		return
	} else if err != nil {
		s.fail(w, r, http.StatusForbidden, "This private link is not valid any more (expired or reset). Ask for a new one with /link in Discord; the game's page without it shows the game to everyone in its thread.")
		return
	}
	http.SetCookie(w, s.cookie(r, token, 0))
	q := r.URL.Query()
	q.Del("t")
	to := "/g/" + r.PathValue("address")
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// csrfToken is the forms' token for a player's cookie: only a page that
// could read the cookie's owner's page has it.
func csrfToken(cookie string) string {
	h := hmac.New(sha256.New, []byte("tessera csrf"))
	h.Write([]byte(cookie))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18])
}

// sameOrigin reports whether a post comes from the pages themselves:
// Sec-Fetch-Site when the browser sends it, else Origin against the
// pages' public address (public, the service's Web.URL) or the origin
// the request was made to: its scheme (https over TLS, else http) and
// its host, both. A page served over http is another origin than one
// over https on the same host: a script there must not move for the
// player.
func sameOrigin(r *http.Request, public string) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	origin := r.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Path != "" || u.User != nil {
		return false
	}
	if p, err := url.Parse(public); err == nil && public != "" &&
		strings.EqualFold(u.Scheme, p.Scheme) && strings.EqualFold(u.Host, p.Host) {
		return true // behind a proxy that does not pass the Host on
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return strings.EqualFold(u.Scheme, scheme) && strings.EqualFold(u.Host, r.Host)
}

// player checks that a post comes from the seat's player on their own
// page: the cookie's token, the page's CSRF token, the same origin.
func (s *Server) player(w http.ResponseWriter, r *http.Request, g *tessera.Game) (viewer, bool) {
	if !sameOrigin(r, s.svc.Config().Web.URL) {
		s.fail(w, r, http.StatusForbidden, "This request did not come from the game's page; open the page and use its buttons.")
		return viewer{}, false
	}
	who, ok := s.viewer(w, r, g)
	if !ok {
		return viewer{}, false
	}
	if who.user == "" || who.seat < 0 || who.seat >= len(g.Players) {
		s.fail(w, r, http.StatusForbidden, "Only a player can move here: open your private link (ask /link in Discord).")
		return viewer{}, false
	}
	sent := r.Header.Get("X-CSRF-Token")
	if sent == "" {
		sent = r.PostFormValue("csrf")
	}
	if !hmac.Equal([]byte(sent), []byte(csrfToken(who.token))) {
		s.fail(w, r, http.StatusForbidden, "This form is out of date; reload the page and try again.")
		return viewer{}, false
	}
	return who, true
}

// maxForm bounds a post's body: a move is a few words.
const maxForm = 4 << 10

// maxKey bounds a form's idempotency key (formKey makes 22 characters).
const maxKey = 64

// formKey is a new idempotency key for a page's forms.
func formKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// move plays a move from the page: the form's move in notation, through
// service.Move as /move does (the same checks, the same posts in the
// game's thread). resign with confirm=yes resigns.
func (s *Server) move(w http.ResponseWriter, r *http.Request) {
	g, ok := s.game(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, "That form is too large or malformed; pick your move on the page.")
		return
	}
	who, ok := s.player(w, r, g)
	if !ok {
		return
	}
	text := strings.TrimSpace(r.PostFormValue("move"))
	req := service.Request{User: service.User{ID: who.user, Name: g.Players[who.seat].Name}, GuildID: g.GuildID, ChannelID: g.Place()}
	// The form's key names the click (every page's forms carry one, made
	// afresh with each page): a form sent twice (a reload that posts it
	// again, a retry after the answer was lost) is played once, whatever
	// the position allows. A post without it falls back on the page's
	// version; without either it is refused (a hint, which changes
	// nothing, needs neither). A move chosen on a page
	// older than the game (the opponent moved, or the player moved from
	// Discord) is refused: it was chosen for another position.
	v, verr := strconv.ParseUint(r.PostFormValue("version"), 10, 64)
	switch key := r.PostFormValue("key"); {
	case key != "" && len(key) <= maxKey:
		req.InteractionID = fmt.Sprintf("web:%d:key:%s:%s", g.ID, key, who.user)
	case key == "" && verr == nil:
		req.InteractionID = fmt.Sprintf("web:%d:%d:%s", g.ID, v, who.user)
	case r.PostFormValue("hint") != "yes":
		s.fail(w, r, http.StatusBadRequest, "This form is out of date; reload the page and try again.")
		return
	}
	if verr == nil && r.PostFormValue("hint") != "yes" {
		// Checked again by the service in the move's own transaction:
		// the check below sees the game as it was read, and another
		// move may come between.
		req.Seen = v
	}
	req = req.WithContext(r.Context())
	ref := strconv.FormatUint(g.ID, 10)
	var reply service.Reply
	var err error
	switch {
	case verr == nil && v != g.Version && r.PostFormValue("hint") != "yes":
		err = tessera.Errorf(tessera.ECONFLICT, "This page is out of date: the game has changed since it was made, so this move was not played (a move you had already sent was played once). Look at the position now and choose again.")
	case r.PostFormValue("hint") == "yes":
		reply, err = s.svc.Hint(req, ref)
	case strings.EqualFold(text, string(tessera.EndResign)) && r.PostFormValue("confirm") == "yes":
		reply, err = s.svc.ResignConfirm(req, g.ID)
	case strings.EqualFold(text, string(tessera.EndResign)):
		err = tessera.Errorf(tessera.EINVALID, "Confirm the resignation with its button; it cannot be undone.")
	default:
		reply, err = s.svc.Move(req, ref, text)
	}
	if wantsJSON(r) {
		if err != nil {
			s.serviceError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, result{OK: true, Message: service.Render(reply.Text, Presenter)})
		return
	}
	// Without the script: the page again, saying what happened when
	// there is something to say, else the new position.
	switch {
	case err != nil && tessera.ErrorCode(err) == tessera.EINTERNAL:
		s.internal(w, r, err)
	case err != nil:
		fresh, gerr := s.cfg.Store.Game(r.Context(), g.ID)
		if gerr != nil {
			s.internal(w, r, gerr)
			return
		}
		s.showGame(w, r, fresh, -1, "game.html", statusOf(err), service.Render(tessera.ErrorMessage(err), Presenter))
	case r.PostFormValue("hint") == "yes":
		s.showGame(w, r, g, -1, "game.html", http.StatusOK, service.Render(reply.Text, Presenter))
	default:
		http.Redirect(w, r, "/g/"+r.PathValue("address"), http.StatusSeeOther)
	}
}

// preview is the board after one of the player's legal moves, for the
// page's confirm step; only the seat's own player may ask.
func (s *Server) preview(w http.ResponseWriter, r *http.Request) {
	g, ok := s.game(w, r)
	if !ok {
		return
	}
	who, ok := s.viewer(w, r, g)
	if !ok {
		return
	}
	if who.user == "" {
		s.fail(w, r, http.StatusForbidden, "Only a player can preview a move: open your private link (ask /link in Discord).")
		return
	}
	sc, err := s.svc.PreviewBoard(r.Context(), g, who.user, r.URL.Query().Get("move"))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	svg, err := s.cfg.SVG.BoardOnly(sc)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(svg)
}

// result is a post's answer to the page's script.
type result struct {
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
