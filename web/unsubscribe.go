package web

import (
	"errors"
	"html/template"
	"net/http"

	"tessera/service"
)

// The one-click unsubscribe of the mail notices (RFC 8058):
//
//	GET  /mail/unsubscribe/{token}  a page that asks, with one button (changes nothing)
//	POST /mail/unsubscribe/{token}  List-Unsubscribe=One-Click: the player's mail off
//
// A mailbox provider POSTs the body List-Unsubscribe=One-Click when its
// user presses its own "Unsubscribe" button; the page's button posts
// the same. A GET never changes anything: mail scanners and link
// previews fetch every link of a mail. The token is the service's
// (service.UnsubscribeURL): signed, bound to the user, their link epoch
// and the address, and it is the only authority, so the POST needs no
// cookie and comes from any site.

// unsubscribeHTML is the page a GET shows; the error template says the
// rest.
const unsubscribeHTML = `{{template "top" .}}
<section class="unsubscribe">
<h1>{{.Title}}</h1>
{{if .Done}}<p>{{.Message}}</p>{{else}}<p>Stop the turn notices by mail? They will come by direct message in Discord instead. <code>/settings notify:mail</code> turns mail on again.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Stop mailing me</button>
</form>{{end}}
</section>
{{template "bottom" .}}`

// unsubscribePage is what unsubscribeHTML reads.
type unsubscribePage struct {
	Title   string
	Done    bool
	Message string
	Action  string
}

// maxUnsubscribeBody bounds a POST's body: the form is 26 bytes.
const maxUnsubscribeBody = 4 << 10

func (s *Server) unsubscribeRoutes(mux *http.ServeMux) {
	template.Must(s.pages.New("unsubscribe.html").Parse(unsubscribeHTML))
	mux.HandleFunc("GET "+service.UnsubscribePath+"{token}", s.unsubscribeForm)
	mux.HandleFunc("POST "+service.UnsubscribePath+"{token}", s.unsubscribe)
}

// unsubscribeForm shows the one button, or that mail is off already. It
// only reads.
func (s *Server) unsubscribeForm(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	on, err := s.svc.UnsubscribeCheck(r.Context(), r.PathValue("token"))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	page := unsubscribePage{Title: "Turn notices by mail", Action: r.URL.EscapedPath()}
	if !on {
		page.Done, page.Message = true, "Mail is off already: nothing more is mailed to you. /settings notify:mail in Discord turns it on again."
	}
	s.render(w, r, http.StatusOK, "unsubscribe.html", page)
}

// unsubscribe switches the player's mail off: once, and again without
// change or error (RFC 8058 wants a 2xx either way).
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	r.Body = http.MaxBytesReader(w, r.Body, maxUnsubscribeBody)
	if err := r.ParseMultipartForm(maxUnsubscribeBody); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		s.fail(w, r, http.StatusBadRequest, "This is not an unsubscribe request.")
		return
	}
	if r.PostFormValue("List-Unsubscribe") != "One-Click" {
		s.fail(w, r, http.StatusBadRequest, "This is not an unsubscribe request.")
		return
	}
	changed, err := s.svc.Unsubscribe(r.Context(), r.PathValue("token"))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	msg := "Mail is off already: nothing more is mailed to you."
	if changed {
		msg = "Done: no more turn notices by mail. They come by direct message in Discord; /settings notify:mail turns mail on again."
	}
	s.render(w, r, http.StatusOK, "unsubscribe.html", unsubscribePage{Title: "Turn notices by mail", Done: true, Message: msg})
}
