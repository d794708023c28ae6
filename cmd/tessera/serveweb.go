package main

// The process's HTTP side: the game pages with /healthz and /metrics on
// web.listen, and /healthz and /metrics alone on metrics.listen; the key
// that signs the pages' links; and their graceful end with the bot or the
// console.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"tessera/metrics"
	"tessera/service"
	"tessera/storage"
	"tessera/svg"
	"tessera/web"
)

// countLive is what counts the pages' live connections: the registry. A
// test (TestConsoleServesPages) wraps it to be told when a connection
// closed, which only the server's handler sees, instead of scraping
// /metrics until the number falls.
var countLive = func(reg *metrics.Registry) web.LiveCounter { return reg }

// webSecretName is the name of the pages' key among the database's
// secrets.
const webSecretName = "web"

// webSecretBytes is the size of a key made for the database: 256 bits.
const webSecretBytes = 32

// httpSide is the process's HTTP servers, listening before the service
// is made (so that the pages' URL can name the port given).
type httpSide struct {
	log     *slog.Logger
	pages   net.Listener // web.listen, or nil
	metrics net.Listener // metrics.listen, or nil
	url     string       // the pages' public address ("": off)
	servers []*http.Server
	closers []func() // the pages' own (live connections) before the servers stop
}

// listenHTTP opens the listeners of web.listen (listen, which --web may
// have given) and metrics.listen, and works out the pages' URL: web.url,
// or http://HOST:PORT of the address listened on when it is a loopback
// address, or localhost for the console (local), which one person uses
// at this machine.
func listenHTTP(c *Config, listen string, local bool, log *slog.Logger) (*httpSide, error) {
	h := &httpSide{log: log, url: c.Web.URL}
	if listen != "" {
		ln, err := net.Listen("tcp", listen)
		if err != nil {
			return nil, fmt.Errorf("web.listen: %w", err)
		}
		h.pages = ln
		if h.url == "" {
			host, port, _ := net.SplitHostPort(ln.Addr().String())
			ip := net.ParseIP(host)
			switch {
			case localListen(listen):
				h.url = "http://" + net.JoinHostPort(host, port)
			case local && ip != nil && ip.IsUnspecified():
				h.url = "http://" + net.JoinHostPort("localhost", port)
			default:
				ln.Close()
				return nil, errors.New("web.url: give the pages' public address (like https://tessera.example.org), which the links in Discord use")
			}
		}
	}
	if c.Metrics.Listen != "" {
		ln, err := net.Listen("tcp", c.Metrics.Listen)
		if err != nil {
			h.close()
			return nil, fmt.Errorf("metrics.listen: %w", err)
		}
		h.metrics = ln
	}
	return h, nil
}

// close closes the listeners of servers that never started.
func (h *httpSide) close() {
	for _, ln := range []net.Listener{h.pages, h.metrics} {
		if ln != nil {
			ln.Close()
		}
	}
}

// webConfig is the service's part of the pages' settings: their URL,
// the key (web.secret when given, else the database's own, made once by
// whichever process needs it first) and a link's life. The key is never
// logged.
func (h *httpSide) webConfig(ctx context.Context, c *Config, st storage.Secrets) (service.WebConfig, error) {
	if h.url == "" {
		return service.WebConfig{}, nil
	}
	key := []byte(c.Web.Secret)
	if len(key) == 0 {
		var err error
		key, err = st.Secret(ctx, webSecretName, func() ([]byte, error) {
			b := make([]byte, webSecretBytes)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return service.WebConfig{}, fmt.Errorf("the pages' key: %w", err)
		}
	}
	return service.WebConfig{URL: h.url, Secret: key, LinkTTL: time.Duration(c.Web.LinkDays) * 24 * time.Hour}, nil
}

// serve starts the servers: on web.listen the pages (pages, nil until
// there are any) beside /healthz and /metrics; on metrics.listen those
// two alone. closePages ends the pages' live connections at shutdown.
func (h *httpSide) serve(reg *metrics.Registry, pages http.Handler, closePages func()) {
	if closePages != nil {
		h.closers = append(h.closers, closePages)
	}
	start := func(ln net.Listener, handler http.Handler, what string) {
		srv := &http.Server{
			Handler:           handler,
			ReadHeaderTimeout: web.ReadHeaderTimeout,
			// A whole request, body included, within ReadTimeout: a
			// client that sends its body slowly is cut off (the pages
			// also cut a body at web.Config.BodyTimeout). A live stream
			// has no body, so the deadline ends with its headers.
			ReadTimeout:    web.ReadTimeout,
			IdleTimeout:    2 * time.Minute,
			MaxHeaderBytes: 64 << 10,
			// No WriteTimeout: a page's live updates stream for as long
			// as it is open.
		}
		h.servers = append(h.servers, srv)
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				h.log.Error("an HTTP server stopped", "serving", what, "err", err)
			}
		}()
		h.log.Info("serving "+what, "listen", ln.Addr().String())
	}
	if h.pages != nil {
		mux := http.NewServeMux()
		reg.Mount(mux)
		if pages != nil {
			mux.Handle("/", pages)
		}
		start(h.pages, mux, "the game pages, /healthz and /metrics")
	}
	if h.metrics != nil {
		mux := http.NewServeMux()
		reg.Mount(mux)
		start(h.metrics, mux, "/healthz and /metrics")
	}
}

// shutdown ends the pages' live connections, then lets the requests
// under way finish (up to 5 s) and stops the servers.
func (h *httpSide) shutdown() {
	for _, c := range h.closers {
		c()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, srv := range h.servers {
		if err := srv.Shutdown(ctx); err != nil {
			srv.Close()
		}
	}
	if len(h.servers) == 0 {
		h.close()
	}
}

// newPages makes the game pages (package web) on the service when this
// process serves them (web.listen), and what ends their live
// connections; nil otherwise.
func (h *httpSide) newPages(svc *service.Service, store storage.Store, reg *metrics.Registry, log *slog.Logger) (http.Handler, func(), error) {
	if h.pages == nil {
		return nil, nil, nil
	}
	srv, err := web.New(web.Config{Service: svc, Store: store, SVG: svg.New(), Logger: log, Live: countLive(reg)})
	if err != nil {
		return nil, nil, fmt.Errorf("the game pages: %w", err)
	}
	return srv.Handler(), srv.Close, nil
}
