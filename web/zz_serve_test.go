package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"tessera/service"
)

func TestZZServe(t *testing.T) {
	if os.Getenv("ZZSERVE") == "" {
		t.Skip()
	}
	s := newSite(t)
	g := s.lateGame(t, os.Getenv("ZZSERVE"), "")
	st, _ := service.Replay(g)
	mover := []service.User{ana, bo}[st.ToMove()]
	token, _ := s.svc.PlayerToken(context.Background(), g, mover.ID)
	srv := &http.Server{Addr: "127.0.0.1:18931", Handler: s.web.Handler()}
	go srv.ListenAndServe()
	fmt.Printf("SPEC http://127.0.0.1:18931%s\nPLAYER http://127.0.0.1:18931%s?t=%s\n", s.addr(g.ID), s.addr(g.ID), token)
	time.Sleep(90 * time.Second)
	srv.Close()
}
