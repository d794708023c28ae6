package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/render"
	"tessera/service"
	"tessera/storage"
	"tessera/storage/boltdb"
)

// ratingsDB makes a database in which two games were played to the end
// through the service (so their ends stored ratings), and closes it.
func ratingsDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "r.db")
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0).UTC()
	svc := service.New(st, service.Config{Renderer: render.Renderer{}, Seed: func() uint64 { return 7 }, Now: func() time.Time { return now }})
	ana, bo, cy := service.User{ID: "1", Name: "Ana"}, service.User{ID: "2", Name: "Bo"}, service.User{ID: "3", Name: "Cy"}
	n := 0
	req := func(u service.User) service.Request {
		n++
		now = now.Add(time.Minute)
		return service.Request{User: u, GuildID: "g", ChannelID: "c", InteractionID: "i" + string(rune('a'+n))}
	}
	must := func(_ service.Reply, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(svc.NewGame(req(ana), service.NewGameRequest{Game: "elemental", Opponents: []service.User{bo}, Options: "borders=RBGY", Clock: ""}))
	must(svc.Click(req(bo), "accept:1"))
	must(svc.Click(req(bo), "resign:1"))
	must(svc.NewGame(req(cy), service.NewGameRequest{Game: "tilingking", Opponents: []service.User{ana, bo}, Options: "", Clock: ""}))
	must(svc.Click(req(ana), "accept:2"))
	must(svc.Click(req(bo), "accept:2"))
	must(svc.Click(req(ana), "resign:2"))
	must(svc.Click(req(cy), "resign:2"))
	if rs, err := st.AllRatings(t.Context()); err != nil || len(rs) != 5 {
		t.Fatalf("%d ratings stored, want 5 (%v)", len(rs), err)
	}
	st.Close()
	return db
}

func TestRatingsRebuildGivesTheStoredNumbers(t *testing.T) {
	db := ratingsDB(t)
	var out, errs bytes.Buffer
	if code := run([]string{"ratings", "--db", db}, nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "5 ratings computed from the finished games; 0 differ") {
		t.Fatalf("output %q", out.String())
	}

	// A stored rating that the games do not give is found, and --rebuild
	// puts the computed one back.
	st, err := boltdb.Open(db, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := st.AllRatings(t.Context())
	rs[0].Mu += 1e-12
	if err := st.ReplaceRatings(t.Context(), rs); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out.Reset()
	if code := run([]string{"ratings", "--db", db}, nil, &out, &errs); code != 1 || !strings.Contains(out.String(), "1 differ") {
		t.Fatalf("a changed rating: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"ratings", "--rebuild", "--db", db}, nil, &out, &errs); code != 0 {
		t.Fatalf("--rebuild: exit %d, %q %q", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"ratings", "--db", db}, nil, &out, &errs); code != 0 || !strings.Contains(out.String(), "0 differ") {
		t.Fatalf("after --rebuild: exit %d, %q", code, out.String())
	}
}
