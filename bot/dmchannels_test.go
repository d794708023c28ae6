package bot_test

import (
	"testing"

	"tessera/bot"
)

// TestDMChannelOpenedOnce (issue #24 item 3): Discord gives a user the
// same DM channel every time, so the bot opens it (POST
// /users/@me/channels) once per user, not once per direct message: eight
// turn notices to two players open two channels. The ids are stored, so
// a restarted bot opens none again. A kept channel Discord no longer
// knows (deleted: Unknown Channel) is opened anew, and the notice arrives
// in the new one.
func TestDMChannelOpenedOnce(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	opens := func() int { return len(w.srv.RequestsTo("POST /users/@me/channels")) }
	w.newGame(t)
	w.moveFrom(t, w.thread, 6)
	// Alice: the first turn's notice and one per move of Bo's; Bo: one
	// per move of Alice's.
	w.srv.WaitDMs(t, w.ana.ID, 4, patience)
	w.srv.WaitDMs(t, w.bo.ID, 3, patience)
	if n := opens(); n != 2 {
		t.Fatalf("%d DM channels opened for 7 direct messages to 2 players, want 2", n)
	}

	w.close()
	w.launch(t, w.opt.Token)
	w.moveFrom(t, w.thread, 2)
	w.srv.WaitDMs(t, w.ana.ID, 5, patience)
	w.srv.WaitDMs(t, w.bo.ID, 4, patience)
	if n := opens(); n != 2 {
		t.Fatalf("%d DM channels opened after a restart, want still 2 (the ids are stored)", n)
	}

	old := w.srv.DMs(w.ana.ID)[0].ChannelID
	w.srv.DeleteChannel(old)
	w.moveFrom(t, w.thread, 2) // Alice's notice after Bo's move
	dms := w.srv.WaitDMs(t, w.ana.ID, 1, patience)
	if n := opens(); n != 3 || dms[0].ChannelID == old {
		t.Fatalf("after Alice's DM channel was lost: %d opens (want 3), the notice in channel %s (the lost one: %s)", n, dms[0].ChannelID, old)
	}
	refused := 0
	for _, r := range w.srv.RequestsTo("POST /channels/*/messages") {
		if r.Status == 404 {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("%d posts refused as Unknown Channel, want the one to the lost channel", refused)
	}
}
