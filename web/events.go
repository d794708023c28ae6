package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// heartbeat is how often an idle stream sends a comment, so that proxies
// keep it open.
const heartbeat = 25 * time.Second

// events is a game's Server-Sent Events stream: an event "change" with
// the game's version (its id, which Last-Event-ID gives back after a
// reconnection) and its move count whenever the game changes. The page
// then fetches the new position.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	g, ok := s.game(w, r)
	if !ok {
		return
	}
	// The page says which version it shows (?v=); a reconnection says
	// which event it saw last. Anything else counts as nothing seen.
	seen, _ := strconv.ParseUint(r.URL.Query().Get("v"), 10, 64)
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		seen, _ = strconv.ParseUint(id, 10, 64)
	}
	st, err := s.hub.subscribe(g.ID, seen, change{Version: g.Version, Moves: len(g.Moves), Status: string(g.Status)}, clientAddress(r))
	switch {
	case errors.Is(err, errClientFull):
		// This address has many pages open already: this one goes on
		// without live updates, as past the server's own bound.
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Too many live pages are open from your address; close some, or reload this one for the newest position.", http.StatusTooManyRequests)
		return
	case errors.Is(err, errHubFull):
		// The page goes on without live updates: reloading it shows the
		// game as it is.
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Too many live pages are open on this server; reload the page for the newest position.", http.StatusServiceUnavailable)
		return
	case err != nil:
		http.Error(w, "The server is shutting down; the page reconnects by itself.", http.StatusServiceUnavailable)
		return
	}
	defer s.hub.unsubscribe(g.ID, st)

	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout, if it has one
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	if rc.Flush() != nil {
		return
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.hub.done:
			return
		case <-beat.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case c := <-st.c:
			data, _ := json.Marshal(c)
			fmt.Fprintf(w, "id: %d\nevent: change\ndata: %s\n\n", c.Version, data)
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// clientAddress is who a request counts against for the streams' bound:
// its peer's address; an IPv6 address by its /64 (what one subscriber
// is given). A peer on this machine (loopback) is the reverse proxy the
// deployment puts in front (docs/web.md): then the client is the last
// address the proxy added to X-Forwarded-For, the one that a client
// cannot forge (what a client sends itself comes before it).
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if ip.Unmap().IsLoopback() {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			list := strings.Split(xff[len(xff)-1], ",")
			if fwd, err := netip.ParseAddr(strings.TrimSpace(list[len(list)-1])); err == nil {
				ip = fwd
			}
		}
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
