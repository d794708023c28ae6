package fakediscord_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"

	"tessera/bot/fakediscord"
)

// TestListMessagesPages pages through a channel of 250 messages as Discord
// does (resources/message.mdx, Get Channel Messages): newest first, at most
// limit (default 50, 1 to 100), before/after/around a message id, one of
// them at a time.
func TestListMessagesPages(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.AllowViolations())
	dg := srv.Session("test-token")
	const total = 250
	var ids []string // oldest first
	for i := 0; i < total; i++ {
		ids = append(ids, srv.UserMessage(nil, srv.ChannelID, "m"+strconv.Itoa(i)).ID)
	}
	// contents lists a page's messages by their number (0 the oldest).
	contents := func(ms []*discordgo.Message) string {
		s := ""
		for _, m := range ms {
			s += m.Content[1:] + " "
		}
		return s
	}
	numbers := func(from, to int) string { // from down to to, inclusive
		s := ""
		for i := from; i >= to; i-- {
			s += strconv.Itoa(i) + " "
		}
		return s
	}
	for _, c := range []struct {
		name                  string
		limit                 int
		before, after, around string
		want                  string
	}{
		{"no parameters: the newest 50", 0, "", "", "", numbers(249, 200)},
		{"limit 100", 100, "", "", "", numbers(249, 150)},
		{"limit 1", 1, "", "", "", numbers(249, 249)},
		// Before m100: the 100 before it, m99 down to m0.
		{"before m100", 100, ids[100], "", "", numbers(99, 0)},
		{"before m120, 5", 5, ids[120], "", "", numbers(119, 115)},
		{"before the oldest: nothing", 10, ids[0], "", "", ""},
		// After: the oldest messages after the id, given newest first.
		{"after m10, 3", 3, "", ids[10], "", numbers(13, 11)},
		{"after the newest: nothing", 10, "", ids[total-1], "", ""},
		// Around: the message itself, 2 older and 2 newer.
		{"around m50, 5", 5, "", "", ids[50], numbers(52, 48)},
		// A snowflake made from a time (0: the beginning of time).
		{"after 0, 2", 2, "", "0", "", numbers(1, 0)},
	} {
		ms, err := dg.ChannelMessages(srv.ChannelID, c.limit, c.before, c.after, c.around)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := contents(ms); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}

	// Paging back with before reaches every message once, newest first.
	got, before := "", ""
	for pages := 0; ; pages++ {
		ms, err := dg.ChannelMessages(srv.ChannelID, 100, before, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) == 0 {
			if pages != 3 {
				t.Errorf("%d pages of 100 for %d messages, want 3", pages, total)
			}
			break
		}
		got += contents(ms)
		before = ms[len(ms)-1].ID
	}
	if got != numbers(total-1, 0) {
		t.Errorf("paged back: %q", got)
	}

	// What Discord refuses: a limit outside 1..100, two anchors, an id
	// that is no snowflake.
	for _, q := range []string{"limit=0", "limit=101", "before=" + ids[5] + "&after=" + ids[1], "before=abc"} {
		_, err := dg.RequestWithBucketID("GET", discordgo.EndpointChannelMessages(srv.ChannelID)+"?"+q, nil, "list")
		if restCode(err) != 50035 {
			t.Errorf("%s: err = %v, want 50035", q, err)
		}
	}
	if n := len(srv.Violations()); n != 4 {
		t.Errorf("violations: %v", fmt.Sprint(srv.Violations()))
	}
}
