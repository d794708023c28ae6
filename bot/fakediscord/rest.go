package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"
)

// call is one REST request being handled (with s.mu held).
type call struct {
	s       *Server
	r       *http.Request
	req     *Request
	params  map[string]string
	body    map[string]any // decoded JSON object body, or nil
	errs    []Violation    // violations to record for this answer
	header  http.Header    // extra response headers
	upload  time.Duration  // how long its files took to arrive (Fault.Upload)
	delayed time.Duration  // how long a fault held it back (Fault.Delay): the test's time, not the machine's
}

type handler func(c *call) (int, any)

type route struct {
	method string
	segs   []string
	tmpl   string
	h      handler
	noAuth bool
}

var routes []route

func addRoute(method, pattern string, h handler, noAuth bool) {
	routes = append(routes, route{
		method: method,
		segs:   strings.Split(strings.Trim(pattern, "/"), "/"),
		tmpl:   method + " " + pattern,
		h:      h,
		noAuth: noAuth,
	})
}

func init() {
	addRoute("GET", "/gateway", (*call).getGateway, true)
	addRoute("GET", "/gateway/bot", (*call).getGatewayBot, false)
	addRoute("GET", "/users/@me", (*call).getMe, false)
	addRoute("POST", "/users/@me/channels", (*call).createDM, false)
	addRoute("GET", "/users/{user}", (*call).getUser, false)
	addRoute("GET", "/oauth2/applications/@me", (*call).getApplication, false)
	addRoute("GET", "/applications/@me", (*call).getApplication, false)
	addRoute("GET", "/applications/{app}/commands", (*call).listCommands, false)
	addRoute("PUT", "/applications/{app}/commands", (*call).overwriteCommands, false)
	addRoute("POST", "/applications/{app}/commands", (*call).createCommand, false)
	addRoute("DELETE", "/applications/{app}/commands/{command}", (*call).deleteCommand, false)
	addRoute("GET", "/applications/{app}/guilds/{guild}/commands", (*call).listCommands, false)
	addRoute("PUT", "/applications/{app}/guilds/{guild}/commands", (*call).overwriteCommands, false)
	addRoute("POST", "/applications/{app}/guilds/{guild}/commands", (*call).createCommand, false)
	addRoute("DELETE", "/applications/{app}/guilds/{guild}/commands/{command}", (*call).deleteCommand, false)
	addRoute("POST", "/interactions/{interaction}/{token}/callback", (*call).interactionCallback, true)
	addRoute("POST", "/webhooks/{app}/{token}", (*call).followup, true)
	addRoute("GET", "/webhooks/{app}/{token}/messages/{message}", (*call).getWebhookMessage, true)
	addRoute("PATCH", "/webhooks/{app}/{token}/messages/{message}", (*call).editWebhookMessage, true)
	addRoute("DELETE", "/webhooks/{app}/{token}/messages/{message}", (*call).deleteWebhookMessage, true)
	addRoute("GET", "/channels/{channel}", (*call).getChannel, false)
	addRoute("PATCH", "/channels/{channel}", (*call).editChannel, false)
	addRoute("POST", "/channels/{channel}/typing", (*call).typing, false)
	addRoute("GET", "/channels/{channel}/messages", (*call).listMessages, false)
	addRoute("POST", "/channels/{channel}/messages", (*call).createMessage, false)
	addRoute("GET", "/channels/{channel}/messages/{message}", (*call).getMessage, false)
	addRoute("PATCH", "/channels/{channel}/messages/{message}", (*call).editMessage, false)
	addRoute("DELETE", "/channels/{channel}/messages/{message}", (*call).deleteMessage, false)
	addRoute("PUT", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", (*call).addReaction, false)
	addRoute("DELETE", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", (*call).removeReaction, false)
	addRoute("POST", "/channels/{channel}/threads", (*call).createThread, false)
	addRoute("POST", "/channels/{channel}/messages/{message}/threads", (*call).createThread, false)
	addRoute("GET", "/guilds/{guild}", (*call).getGuild, false)
	addRoute("GET", "/guilds/{guild}/channels", (*call).getGuildChannels, false)
	addRoute("GET", "/guilds/{guild}/members/{user}", (*call).getMember, false)
}

func matchRoute(method, p string) (*route, map[string]string) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i := range routes {
		rt := &routes[i]
		if rt.method != method || len(rt.segs) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for j, sg := range rt.segs {
			if strings.HasPrefix(sg, "{") {
				if segs[j] == "" {
					ok = false
					break
				}
				params[strings.Trim(sg, "{}")] = segs[j]
			} else if sg != segs[j] {
				ok = false
				break
			}
		}
		if ok {
			return rt, params
		}
	}
	return nil, nil
}

var apiPrefix = regexp.MustCompile(`^/api(/v\d+)?`)

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	p := apiPrefix.ReplaceAllString(r.URL.Path, "")
	req := &Request{
		Method: r.Method,
		Path:   p,
		Query:  r.URL.Query(),
		Header: r.Header.Clone(),
		Host:   r.Header.Get("X-Fakediscord-Host"),
	}
	req.Header.Del("X-Fakediscord-Host")
	if req.Host == "" {
		req.Host = r.Host
	}
	parseErr := readBody(r, req, !s.cfg.noPixels)
	s.rec.recordRequest(req)

	// Injected faults first (they are decided before the route runs, like
	// a proxy or Discord's rate limiter in front of the API).
	s.mu.Lock()
	s.arrived = append(s.arrived, *req)
	s.notify()
	f := s.takeFault(r.Method, p)
	s.mu.Unlock()
	// Arrived (and seen by WaitArrival), but held until its interaction's
	// HTTP response is applied.
	s.awaitInline(p)
	if f != nil && f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-s.done:
		case <-r.Context().Done():
		}
	}

	s.mu.Lock()
	req.Seq = len(s.st.requests) + 1
	rt, params := matchRoute(r.Method, p)
	if rt != nil {
		req.Route = rt.tmpl
	}
	c := &call{s: s, r: r, req: req, params: params, header: http.Header{}}
	if f != nil {
		c.delayed = f.Delay
	}
	if f != nil && len(req.Files) > 0 {
		c.upload = f.Upload
		if f.Upload > 0 && f.Status == 0 {
			req.Fault = f.describe()
		}
	}
	var status int
	var body any
	limited := false
	if f == nil || f.Status == 0 || f.Applied {
		status, body, limited = s.limit(c, rt)
	}
	switch {
	case limited:
	case f != nil && f.Status != 0 && !f.Applied:
		status, body = f.answer(c)
		req.Fault = f.describe()
	case rt == nil:
		status, body = c.fail(404, 0, "", "", "404: Not Found (fakediscord has no route "+r.Method+" "+p+"; add it in bot/fakediscord/rest.go)")
	case !rt.noAuth && !s.authorized(r) && s.tokenReset:
		status, body = c.refuse(401, 0, "401: Unauthorized")
	case !rt.noAuth && !s.authorized(r):
		status, body = c.fail(401, 0, "", "", "401: Unauthorized")
	case parseErr != nil:
		status, body = c.fail(400, 50109, "", "", "The request body contains invalid JSON. ("+parseErr.Error()+")")
	case tooLarge(req.Files) != "":
		status, body = c.fail(413, 40005, tooLarge(req.Files), "", "Request entity too large")
	default:
		if len(req.Body) > 0 && req.Body[0] == '{' {
			_ = json.Unmarshal(req.Body, &c.body)
		}
		status, body = rt.h(c)
		if f != nil && f.Status != 0 && f.Applied && status < 300 {
			status, body = f.answer(c)
			req.Fault = f.describe() + " after the request took effect"
			if rec, ok := s.st.interactions[params["interaction"]]; ok {
				rec.answerLost = true
			}
		}
	}
	s.countInvalid(c, status)
	var raw []byte
	if text, ok := body.(rawBody); ok {
		raw = []byte(text)
	} else if body != nil {
		raw, _ = json.Marshal(body)
	}
	req.Status = status
	req.Response = raw
	req.At = time.Now()
	s.st.requests = append(s.st.requests, *req)
	for _, v := range c.errs {
		v.Seq, v.Method, v.Path, v.Status = req.Seq, req.Method, req.Path, status
		s.st.violations = append(s.st.violations, v)
	}
	s.notify()
	s.mu.Unlock()

	for k, vs := range c.header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if raw == nil {
		if status == 200 {
			status = 204
		}
		w.WriteHeader(status)
		return
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}

func (s *Server) authorized(r *http.Request) bool {
	a := r.Header.Get("Authorization")
	if !strings.HasPrefix(a, "Bot ") {
		return false
	}
	return s.cfg.token == "" || strings.TrimPrefix(a, "Bot ") == s.cfg.token
}

// readBody fills Body and Files; multipart bodies carry payload_json.
// Pictures' headers are read; their pixels are decoded when a test asks
// (File.Image), and kept for the next time when pixels is set.
func readBody(r *http.Request, req *Request, pixels bool) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		return err
	}
	ct := r.Header.Get("Content-Type")
	mt, params, _ := mime.ParseMediaType(ct)
	if mt != "multipart/form-data" {
		if len(data) > 0 {
			req.Body = data
			if !json.Valid(data) {
				return fmt.Errorf("body is not JSON")
			}
		}
		return nil
	}
	mr := multipart.NewReader(bytes.NewReader(data), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return err
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			req.Body = b
			if !json.Valid(b) {
				return fmt.Errorf("payload_json is not JSON")
			}
		case part.FileName() != "" || strings.HasPrefix(name, "files["):
			f := File{Field: name, Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: b, keep: pixels}
			f.readHeader()
			req.Files = append(req.Files, f)
		}
	}
	return nil
}

// fail records a violation and answers with Discord's error JSON.
func (c *call) fail(status, code int, field, rule, msg string) (int, any) {
	c.errs = append(c.errs, Violation{Code: code, Field: field, Rule: rule, Detail: msg})
	return status, map[string]any{"code": code, "message": msg}
}

// answer is what the fake answers a request with: a status and a JSON
// body. A lookup that cannot go on (an unknown channel, a missing
// permission) returns the refusal to send, nil when the request may go
// on, and its handler passes it up with reply.
type answer struct {
	status int
	body   any
}

func (a *answer) reply() (int, any) { return a.status, a.body }

// failed is fail as a refusal a lookup returns.
func (c *call) failed(status, code int, field, rule, msg string) *answer {
	st, b := c.fail(status, code, field, rule, msg)
	return &answer{st, b}
}

// formErrors collects field errors for a 50035 Invalid Form Body answer.
type formErrors struct {
	tree map[string]any
	list []Violation
}

func (e *formErrors) add(field, rule, msg string) {
	if e.tree == nil {
		e.tree = map[string]any{}
	}
	node := e.tree
	for _, k := range strings.Split(field, ".") {
		next, ok := node[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			node[k] = next
		}
		node = next
	}
	list, _ := node["_errors"].([]any)
	node["_errors"] = append(list, map[string]any{"code": rule, "message": msg})
	e.list = append(e.list, Violation{Code: 50035, Field: field, Rule: rule, Detail: msg})
}

func (e *formErrors) empty() bool { return len(e.list) == 0 }

func (c *call) invalidForm(e *formErrors) (int, any) {
	c.errs = append(c.errs, e.list...)
	return 400, map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": e.tree}
}

// routeMatch matches "METHOD /path" against a pattern such as
// "POST /channels/*/messages" (path.Match syntax; "*" is one segment), a
// bare path pattern (any method), or "" (everything).
func routeMatch(pattern, method, p string) bool {
	if pattern == "" {
		return true
	}
	if strings.HasPrefix(pattern, "/") {
		ok, _ := path.Match(pattern, p)
		return ok
	}
	ok, _ := path.Match(pattern, method+" "+p)
	return ok
}
