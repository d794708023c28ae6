package service_test

import (
	"fmt"
	"strconv"
	"testing"

	"tessera/service"
)

// games starts n two-player Elemental games, each in its own channel
// between its own players, and plays moves moves in each; nothing is
// delivered yet.
func games(t *testing.T, svc *service.Service, n, moves int) {
	t.Helper()
	k := 0
	req := func(u service.User, ch string) service.Request {
		k++
		return service.Request{User: u, GuildID: "g", ChannelID: ch, InteractionID: fmt.Sprint("i", k)}
	}
	for i := 1; i <= n; i++ {
		ch := fmt.Sprint("c", i)
		a := service.User{ID: fmt.Sprint(100 + i), Name: fmt.Sprint("A", i)}
		b := service.User{ID: fmt.Sprint(200 + i), Name: fmt.Sprint("B", i)}
		if _, err := svc.NewGame(req(a, ch), service.NewGameRequest{Game: "elemental", Opponents: []service.User{b}, Options: "borders=RBGY", Clock: ""}); err != nil {
			t.Fatal(err)
		}
		ref := strconv.Itoa(i)
		if _, err := svc.Click(req(b, ch), "accept:"+ref); err != nil {
			t.Fatal(err)
		}
		for m := 0; m < moves; m++ {
			u := []service.User{a, b}[m%2]
			c := svc.MoveChoices(req(u, ch), ref, "")
			if len(c) == 0 {
				t.Fatalf("game %d: no move for %s", i, u.Name)
			}
			if _, err := svc.Move(req(u, ch), ref, c[0].Value); err != nil {
				t.Fatalf("game %d move %d: %v", i, m, err)
			}
		}
	}
}
