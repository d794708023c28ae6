package web

import (
	"net/http"
	"strconv"
	"strings"

	"tessera"
	"tessera/service"
)

// download answers a finished game's files: the record as /export gives
// it (record.json, record.txt) and the replay GIF (replay.gif, the last
// moves a replay may animate), through the same service calls.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	g, ok := s.game(w, r)
	if !ok {
		return
	}
	file := r.PathValue("file")
	if g.Status != tessera.StatusFinished {
		s.fail(w, r, http.StatusNotFound, "The record and the replay are offered once the game is over (the record would reveal the hidden pieces).")
		return
	}
	req := service.Request{User: service.User{ID: "web", Name: "web"}, GuildID: g.GuildID, ChannelID: g.Place()}.WithContext(r.Context())
	ref := strconv.FormatUint(g.ID, 10)
	var reply service.Reply
	var err error
	var suffix, ctype string
	switch file {
	case "record.json":
		suffix, ctype = ".json", "application/json"
		reply, err = s.svc.Export(req, ref)
	case "record.txt":
		suffix, ctype = ".txt", "text/plain; charset=utf-8"
		reply, err = s.svc.Export(req, ref)
	case "replay.gif":
		suffix, ctype = ".gif", "image/gif"
		limit := s.svc.Config().ReplayMoves
		if limit <= 0 {
			limit = service.DefaultReplayMoves
		}
		reply, err = s.svc.ReplayGIF(req, ref, max(1, len(g.Moves)-limit+1), len(g.Moves))
	default:
		s.fail(w, r, http.StatusNotFound, "There is no such file: the page offers record.json, record.txt and replay.gif.")
		return
	}
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	for _, f := range reply.Files {
		if strings.HasSuffix(f.Name, suffix) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Disposition", `attachment; filename="`+f.Name+`"`)
			w.Write(f.Data)
			return
		}
	}
	s.internal(w, r, errNoFile)
}

type webError string

func (e webError) Error() string { return string(e) }

const errNoFile = webError("web: the service's reply had no such file")
