// Package web is the companion web pages' transport: an HTTP server (the
// standard library's net/http and html/template, its templates and assets
// embedded) that shows a game's page, live, and lets a player move from
// it. It drives the service like the bot and the console do, and draws
// boards through the SVG renderer (package svg).
//
// The routes:
//
//	GET  /g/{address}          a game's page (?move=N names a position; ?t= a player's link)
//	GET  /g/{address}/events   Server-Sent Events: the game's move count when it changes
//	POST /g/{address}/move     a move from the page (the player's cookie and the page's CSRF token)
//	GET  /g/{address}/preview  the board after one of the player's legal moves
//	GET  /g/{address}/{file}   a finished game's record.json, record.txt, replay.gif
//	GET  /static/...           the style sheet and the script
//	GET  /mail/unsubscribe/{t} a mail notice's unsubscribe page (a button; changes nothing)
//	POST /mail/unsubscribe/{t} RFC 8058's one-click unsubscribe: mail off for the token's player
//
// and the players' pages under /s/ (players.go). Every page works without
// the script (links and forms); static/app.js adds the live updates, the
// scrubbing by arrow keys and moving by clicking. Who sees what: a
// spectator what the game's thread shows (service.GameView), the seat's
// player, by the private link's cookie, their hand and moves too.
package web

import (
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"tessera/service"
	"tessera/storage"
	"tessera/svg"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// LiveCounter is told when a live connection (a page's event stream)
// opens and closes; package metrics counts them.
type LiveCounter interface {
	LiveOpened()
	LiveClosed()
}

// Config is what a Server needs.
type Config struct {
	// Service is what the pages read and do (the service's Pages); Store
	// is read for the versions of watched games (live updates).
	Service service.Pages
	Store   storage.Games
	// SVG draws the boards and hands inline (svg.New()).
	SVG *svg.Renderer
	// Now is the clock (default: the service's).
	Now    func() time.Time
	Logger *slog.Logger
	// Live, when set, counts the open live connections.
	Live LiveCounter
	// Poll is how often a watched game's version is read from the store,
	// so that a move made by any process reaches the pages (default 250 ms).
	Poll time.Duration
	// MaxStreams bounds the live pages open at once in this process
	// (default DefaultMaxStreams): each holds a connection and a
	// goroutine, so pages past it are served without live updates (a
	// 503 the page survives: it scrubs and plays by its links and forms)
	// instead of running the process out of file descriptors.
	MaxStreams int
	// MaxClientStreams bounds the live pages one client address keeps
	// open at once (default DefaultMaxClientStreams), so that one client
	// cannot take all of MaxStreams: its pages past it are answered 429
	// with Retry-After and go on without live updates. Behind a proxy on
	// the same machine the client is the proxy's X-Forwarded-For (see
	// clientAddress).
	MaxClientStreams int
	// BodyTimeout bounds the reading of a request's body (default
	// DefaultBodyTimeout): a client that sends one slowly is cut off
	// instead of holding a connection and a goroutine forever.
	BodyTimeout time.Duration
}

// DefaultMaxStreams is Config.MaxStreams's default: far past a server's
// players watching their games, well inside Linux's default limit of
// open files once Go has raised it to the hard limit.
const DefaultMaxStreams = 4096

// DefaultMaxClientStreams is Config.MaxClientStreams's default: a
// household's or a school's tabs behind one address, far below
// DefaultMaxStreams.
const DefaultMaxClientStreams = 64

// DefaultBodyTimeout is Config.BodyTimeout's default: a move's form is a
// few hundred bytes.
const DefaultBodyTimeout = 15 * time.Second

// Timeouts for the http.Server that serves Handler (cmd/tessera sets
// them): headers within ReadHeaderTimeout, a whole request within
// ReadTimeout (bodies are also cut at Config.BodyTimeout by Handler
// itself, so a server without these is safe too). There is no
// WriteTimeout: a live stream lasts as long as its page is open.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
)

// DefaultPoll is Config.Poll's default; MinPoll its least.
const (
	DefaultPoll = 250 * time.Millisecond
	MinPoll     = 5 * time.Millisecond
)

// pageLife is how long a spectator's page is served again as it was made.
const pageLife = time.Minute

// Server is the web transport.
type Server struct {
	cfg   Config
	svc   service.Pages
	log   *slog.Logger
	pages *template.Template
	mux   *http.ServeMux
	hub   *hub
	cache *pageCache // spectators' pages, by version
}

// New returns a Server for cfg; Close stops its pollers.
func New(cfg Config) (*Server, error) {
	if cfg.Service == nil || cfg.Store == nil || cfg.SVG == nil {
		return nil, errors.New("web.New: Config.Service, Config.Store and Config.SVG are required")
	}
	if cfg.Now == nil {
		cfg.Now = cfg.Service.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = cfg.Service.Logger()
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	cfg.Poll = max(cfg.Poll, MinPoll) // each watched game is one read per poll
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.MaxClientStreams <= 0 {
		cfg.MaxClientStreams = DefaultMaxClientStreams
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	pages, err := template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, svc: cfg.Service, log: cfg.Logger, pages: pages, mux: http.NewServeMux()}
	s.cache = newPageCache(pageLife, cfg.Now)
	s.hub = newHub(cfg.Store, cfg.Poll, cfg.MaxStreams, cfg.Live, cfg.Logger)
	s.hub.perClient = cfg.MaxClientStreams
	s.routes()
	return s, nil
}

// Handler serves the pages: the security headers on every answer, a
// deadline on every request's body, and gzip for the clients that take
// it.
func (s *Server) Handler() http.Handler { return secure(s.bodyDeadline(gzipped(s.mux))) }

// bodyDeadline gives a request with a body Config.BodyTimeout to send it
// all: past it the connection's reads fail, the handler sees an error
// (a form too slow is a 400) and the server closes the connection, even
// when the handler never read the body (a page that is not there). A
// request without a body keeps no deadline: a live stream reads nothing
// for hours.
func (s *Server) bodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 { // -1: chunked, of a length not told
			http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
		}
		next.ServeHTTP(w, r)
	})
}

// Close stops the live updates' pollers and ends the open streams. Call
// it before http.Server.Shutdown, which waits for every open connection
// to end and would otherwise wait for the streams forever.
func (s *Server) Close() { s.hub.close() }

func (s *Server) routes() {
	static, _ := fs.Sub(staticFS, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	s.mux.HandleFunc("GET /static/{file}", serveStatic(files)) // one file: the folder itself is not listed
	s.mux.HandleFunc("GET /favicon.ico", serveFavicon)
	s.mux.HandleFunc("GET /g/{address}", s.gamePage)
	s.mux.HandleFunc("GET /g/{address}/events", s.events)
	s.mux.HandleFunc("POST /g/{address}/move", s.move)
	s.mux.HandleFunc("GET /g/{address}/preview", s.preview)
	s.mux.HandleFunc("GET /g/{address}/{file}", s.download)
	s.playerRoutes(s.mux)
	s.tournamentRoutes(s.mux)
	s.unsubscribeRoutes(s.mux) // unsubscribe.go: mail's one-click unsubscribe
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "There is no page here. Open a game from the link in its thread.")
	})
}

// csp allows nothing inline and nothing from elsewhere.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// secure sets the headers every answer carries: no inline script or
// style, no framing, no referrer (a private link carries a token).
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}
