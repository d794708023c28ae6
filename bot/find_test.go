package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/bot"
	"tessera/bot/fakediscord"
)

// TestResendFindsPostInBusyThread: a move's post reaches Discord but its
// answer is lost (a 500 after the post took effect), and Discord stays
// unreachable while 150 messages are written in the thread and 10 minutes
// pass, longer than Discord remembers the post's nonce. Before sending it
// again the bot looks for it, and it is no longer among the newest 100:
// the search must page back to the post's first attempt, else the move is
// posted twice.
func TestResendFindsPostInBusyThread(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	posts := "POST /channels/" + w.thread + "/messages"
	w.srv.Inject(posts, fakediscord.Fault{Status: 500, Applied: true})
	w.srv.Inject(posts, fakediscord.Fault{Status: 500, Times: -1}) // until cleared

	move := w.suggest(t, w.ana, "")[0].Value.(string)
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.ana).In(w.srv.GuildID, w.thread))
	if !strings.Contains(text(r), "You played `"+move+"`") {
		t.Fatalf("/move %s: %q", move, text(r))
	}
	played := func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "** played `"+move+"`") }
	// The post arrived, the bot does not know, and it is trying again.
	w.srv.WaitMessage(t, w.thread, played, patience)
	w.srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Method == "POST" && q.Path == "/channels/"+w.thread+"/messages" && q.Status == 500 && q.Fault == "HTTP 500"
	}, patience)
	for i := range 150 {
		w.srv.UserMessage(w.bo, w.thread, "nice one, "+strconv.Itoa(i))
	}
	w.clock.Add(10 * time.Minute)
	w.srv.Advance(10 * time.Minute)
	// Discord comes back once a try has begun after the clocks moved: a
	// try that looked at the clock before would otherwise send at once.
	moved := len(w.srv.Requests())
	w.srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Seq > moved && q.Method == "GET" && q.Path == "/channels/"+w.thread+"/messages"
	}, patience)
	w.srv.ClearFaults()
	w.settle(t)

	n := 0
	for _, m := range w.srv.Messages(w.thread) {
		if played(m) {
			n++
		}
	}
	if n != 1 {
		for _, q := range w.srv.Requests() {
			if strings.Contains(q.Path, w.thread) {
				t.Logf("%d %s %s?%s %d %s %.80s", q.Seq, q.At.Format("15:04:05.000"), q.Method, q.Query.Encode(), q.Status, q.Fault, q.Response)
			}
		}
		t.Fatalf("the move was posted %d times, want once", n)
	}
	paged := false
	for _, q := range w.srv.RequestsTo("GET /channels/" + w.thread + "/messages") {
		paged = paged || q.Query.Get("before") != ""
	}
	if !paged {
		t.Fatal("the search never paged back")
	}
}

// TestResendFindsDMInKeptChannel: the same lost answer for a turn notice.
// Before sending it again after the nonce window, the bot searches the
// user's DM channel, the one it keeps (issue #24 item 3): the search opens
// no DM channel, and the notice arrives once.
func TestResendFindsDMInKeptChannel(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	opens := func() int { return len(w.srv.RequestsTo("POST /users/@me/channels")) }
	w.newGame(t)
	w.moveFrom(t, w.thread, 1) // Alice's first notice, then Bo's
	w.srv.WaitDMs(t, w.ana.ID, 1, patience)
	w.srv.WaitDMs(t, w.bo.ID, 1, patience)
	w.settle(t)
	if n := opens(); n != 2 {
		t.Fatalf("%d DM channels opened for two players, want 2", n)
	}
	dm := w.srv.DMs(w.ana.ID)[0].ChannelID
	posts := "POST /channels/" + dm + "/messages"
	w.srv.Inject(posts, fakediscord.Fault{Status: 500, Applied: true})
	w.srv.Inject(posts, fakediscord.Fault{Status: 500, Times: -1}) // until cleared

	move := w.suggest(t, w.bo, "")[0].Value.(string) // Alice's second notice
	r := w.respond(t, w.srv.Slash("move", fakediscord.Str("notation", move)).By(w.bo).In(w.srv.GuildID, w.thread))
	if !strings.Contains(text(r), "You played `"+move+"`") {
		t.Fatalf("/move %s: %q", move, text(r))
	}
	w.srv.WaitDMs(t, w.ana.ID, 2, patience)
	w.srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Method == "POST" && q.Path == "/channels/"+dm+"/messages" && q.Status == 500 && q.Fault == "HTTP 500"
	}, patience)
	w.clock.Add(10 * time.Minute)
	w.srv.Advance(10 * time.Minute)
	moved := len(w.srv.Requests())
	w.srv.WaitFor(t, func(q fakediscord.Request) bool {
		return q.Seq > moved && q.Method == "GET" && q.Path == "/channels/"+dm+"/messages"
	}, patience)
	w.srv.ClearFaults()
	w.settle(t)

	if n := len(w.srv.DMs(w.ana.ID)); n != 2 {
		t.Fatalf("Alice has %d turn notices, want 2 (the second once)", n)
	}
	if n := opens(); n != 2 {
		t.Fatalf("%d DM channels opened, want still 2: the search uses the kept channel", n)
	}
}
