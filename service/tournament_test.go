package service_test

import (
	"fmt"
	"strings"
	"testing"

	"tessera"
	"tessera/service"
)

// newEvent posts an event as ana and returns its id.
func (h *harness) newEvent(r service.NewEventRequest) uint64 {
	h.t.Helper()
	rep := h.ok(h.svc.NewEvent(h.req(ana), r))
	if rep.Event == 0 || rep.Ephemeral {
		h.t.Fatalf("the event's post: %+v", rep)
	}
	return rep.Event
}

// event reads an event from the store.
func (h *harness) event(id uint64) *tessera.Event {
	h.t.Helper()
	e, err := h.svc.Store().Event(h.t.Context(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return e
}

// players are n users "p1".."pn" (ids 101...).
func players(n int) []service.User {
	var out []service.User
	for i := 1; i <= n; i++ {
		out = append(out, service.User{ID: fmt.Sprint(100 + i), Name: fmt.Sprintf("p%d", i)})
	}
	return out
}

// TestEventPostJoinLeave: the post carries Join, Leave and Start; joining
// twice, leaving when not entered and joining a full event are refused
// with what to do; every entry enqueues the post's edit.
func TestEventPostJoinLeave(t *testing.T) {
	h := newHarness(t)
	rep := h.ok(h.svc.NewEvent(h.req(ana), service.NewEventRequest{Name: "Spring Swiss", Game: "closure", Format: "swiss", Max: 3}))
	id := rep.Event
	if len(rep.Buttons) != 3 || rep.Buttons[0].ID != fmt.Sprintf("tjoin:%d", id) || rep.Buttons[2].ID != fmt.Sprintf("tstart:%d", id) {
		t.Fatalf("buttons %+v", rep.Buttons)
	}
	if !strings.Contains(rep.Text, "**Spring Swiss**") || !strings.Contains(rep.Text, "Swiss") || !strings.Contains(rep.Text, "3d") {
		t.Fatalf("post %q", rep.Text)
	}
	h.ok(h.svc.Click(h.req(ana), fmt.Sprintf("tjoin:%d", id)))
	h.refused(tessera.EINVALID, "already entered")(h.svc.Click(h.req(ana), fmt.Sprintf("tjoin:%d", id)))
	h.refused(tessera.EINVALID, "not entered")(h.svc.Click(h.req(bo), fmt.Sprintf("tleave:%d", id)))
	h.ok(h.svc.Click(h.req(bo), fmt.Sprintf("tjoin:%d", id)))
	h.ok(h.svc.Click(h.req(cy), fmt.Sprintf("tjoin:%d", id)))
	h.refused(tessera.EINVALID, "full")(h.svc.Click(h.req(service.User{ID: "9", Name: "Di"}), fmt.Sprintf("tjoin:%d", id)))
	h.ok(h.svc.Click(h.req(cy), fmt.Sprintf("tleave:%d", id)))
	e := h.event(id)
	if len(e.Pairing.Players) != 2 || e.Pairing.Players[1].Name != "Bo" {
		t.Fatalf("players %+v", e.Pairing.Players)
	}
	post := h.svc.EventPostMessage(e)
	if !strings.Contains(post.Text, "Ana, Bo") || len(post.Buttons) != 3 {
		t.Fatalf("post now %q", post.Text)
	}
	// Bo is not the organiser and cannot start it.
	h.refused(tessera.EFORBIDDEN, "organiser")(h.svc.Click(h.req(bo), fmt.Sprintf("tstart:%d", id)))
	list := h.ok(h.svc.ListEvents(h.req(bo)))
	if !strings.Contains(list.Text, "Spring Swiss") || !strings.Contains(list.Text, "2 players") {
		t.Fatalf("list %q", list.Text)
	}
}

// TestEventRefusals: what a player types that cannot make an event gets
// one line saying what to give instead.
func TestEventRefusals(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		r    service.NewEventRequest
		want string
	}{
		{service.NewEventRequest{Game: "chess", Format: "swiss"}, "no game"},
		{service.NewEventRequest{Game: "closure", Format: "ladder"}, "no format"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Clock: "none"}, "needs a clock"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Clock: "banana"}, ""},
		{service.NewEventRequest{Game: "glorieta", Format: "swiss-tables"}, "Use swiss"},
		{service.NewEventRequest{Game: "closure", Format: "knockout", Rounds: 3}, "rounds: is for swiss"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", BestOf: 3}, "best-of: is for knockout"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Min: 5, Max: 4}, "below min"},
		{service.NewEventRequest{Game: "closure", Format: "round-robin", Max: 40}, "at most 20"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Starts: "yesterday"}, "neither a span"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Starts: "2001-01-01"}, "in the future"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Name: "**bold**"}, "plain words"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", AI: "godlike"}, "no level"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Seats: 3}, "games of two"},
		{service.NewEventRequest{Game: "closure", Format: "swiss", Options: "colour=red"}, "no option"},
	} {
		_, err := h.svc.NewEvent(h.req(ana), c.r)
		if err == nil || tessera.ErrorCode(err) != tessera.EINVALID || !strings.Contains(h.svc.Fail(err).Text, c.want) {
			t.Errorf("%+v: %v, want a refusal saying %q", c.r, err, c.want)
		}
	}
}

// TestTournamentSubcommandsTyped: every /tournament subcommand, run from
// the table with what a player could type (nothing, nonsense, numbers
// out of range, another server's event), answers with a user-safe error
// or a reply, never an internal error or a panic.
func TestTournamentSubcommandsTyped(t *testing.T) {
	h := newHarness(t)
	id := h.newEvent(service.NewEventRequest{Game: "closure", Format: "swiss"})
	elsewhere := h.req(ana)
	elsewhere.GuildID = "other"
	cmd, ok := service.LookupCommand("tournament")
	if !ok || len(cmd.Subcommands) != 10 || cmd.Run != nil || len(cmd.Options) != 0 {
		t.Fatalf("/tournament: %+v", cmd)
	}
	values := []any{"", " ", "#", "#0", "-1", "99999999999999999999999", "🏆", strings.Repeat("x", 300), "1; DROP", fmt.Sprint(id), -5, 0, 1 << 40, true, service.User{}, service.User{ID: "2", Name: "Bo"}}
	for _, sub := range cmd.Subcommands {
		for _, v := range values {
			in := service.Args{}
			for _, o := range sub.Options {
				in[o.Name] = v
			}
			in["game"], in["format"] = "closure", "swiss"
			for _, req := range []service.Request{h.req(bo), elsewhere} {
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("/tournament %s %v: panic %v", sub.Name, v, p)
						}
					}()
					_, err := sub.Run(h.svc, req, in)
					if err != nil && tessera.ErrorCode(err) == tessera.EINTERNAL {
						t.Errorf("/tournament %s %v: internal error %v", sub.Name, v, err)
					}
				}()
			}
		}
	}
}
