package boltdb

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"tessera"
	"tessera/storage"
)

// TestIndexFieldsKeepTheKeys: the keys Check computes from a game's
// index fields alone are the keys putGame computes from the whole game,
// for every kind of game the indexes treat differently. A new field read
// by storage.Places, RemindNanos or OpenNanos and not added to
// indexFields makes a row of this table fail.
func TestIndexFieldsKeepTheKeys(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	games := []tessera.Game{
		{Status: tessera.StatusPlaying, ChannelID: "c", ThreadID: "t", RemindAt: at},           // in play in its thread: both places, a reminder
		{Status: tessera.StatusPlaying, ChannelID: "c", ThreadID: "c", RemindAt: at},           // threads off: one place
		{Status: tessera.StatusPlaying, ChannelID: "c", ThreadID: "t"},                         // no reminder (an AI's turn)
		{Status: tessera.StatusPlaying, ChannelID: "c", RemindAt: time.Unix(-5, 0).UTC()},      // a reminder before 1970 counts as 1970
		{Status: tessera.StatusFinished, ChannelID: "c", ThreadID: "t", RemindAt: at},          // finished: its thread only, no reminder
		{Status: tessera.StatusChallenge, Open: true, ChannelID: "c", Created: at},             // an open challenge: expiry key
		{Status: tessera.StatusChallenge, ChannelID: "c", Created: at},                         // a direct challenge: no expiry key
		{Status: tessera.StatusChallenge, Open: true, ChannelID: "c", Created: time.Time{}},    // made before 1970
		{Status: tessera.StatusExpired, Open: true, ChannelID: "c", ThreadID: "", Created: at}, // ended: nothing
	}
	for i, g := range games {
		g.ID = uint64(i + 1)
		g.Setup.Game = "closure"
		g.Moves = []tessera.MoveEntry{{Text: "a1"}}
		g.Players = []tessera.Player{{ID: "u1"}, {ID: "u2"}}
		g.GuildID, g.TurnStart, g.Updated = "g", at, at
		v, err := json.Marshal(&g)
		if err != nil {
			t.Fatal(err)
		}
		light, err := decodeIndexFields(v)
		if err != nil {
			t.Fatal(err)
		}
		keys := func(g *tessera.Game) string {
			r, rok := storage.RemindNanos(g)
			o, ook := storage.OpenNanos(g)
			return fmt.Sprint(storage.Places(g), r, rok, o, ook)
		}
		if got, want := keys(light), keys(&g); got != want {
			t.Errorf("game %d (%s): keys from the index fields %s, from the whole game %s", g.ID, g.Status, got, want)
		}
	}
}
