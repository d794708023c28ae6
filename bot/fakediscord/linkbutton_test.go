package fakediscord_test

import (
	"strings"
	"testing"

	"tessera/bot/fakediscord"
)

// TestLinkButtons: the fake takes and refuses buttons as Discord's
// Component Reference says (docs/testing.md cites it): a link button
// (style 5) has a url and no custom_id, every other style the reverse; a
// url is http, https or discord, at most 512 characters.
func TestLinkButtons(t *testing.T) {
	t.Parallel()
	long := "https://t.example/" + strings.Repeat("a", fakediscord.MaxButtonURL)
	for _, tc := range []struct {
		name   string
		button string
		field  string // the field refused; "" when accepted
	}{
		{"a link button", `{"type":2,"style":5,"label":"Open","url":"https://t.example/g/1-abc"}`, ""},
		{"http is taken", `{"type":2,"style":5,"label":"Open","url":"http://localhost:8080/g/1"}`, ""},
		{"discord is taken", `{"type":2,"style":5,"label":"Open","url":"discord://-/channels/1/2"}`, ""},
		{"a link button without its url", `{"type":2,"style":5,"label":"Open"}`, "url"},
		{"a link button with a custom_id", `{"type":2,"style":5,"label":"Open","url":"https://t.example","custom_id":"x"}`, "custom_id"},
		{"another scheme", `{"type":2,"style":5,"label":"Open","url":"ftp://t.example/"}`, "url"},
		{"no scheme", `{"type":2,"style":5,"label":"Open","url":"t.example/g/1"}`, "url"},
		{"a url over 512 characters", `{"type":2,"style":5,"label":"Open","url":"` + long + `"}`, "url"},
		{"a label over 80 characters", `{"type":2,"style":5,"label":"` + strings.Repeat("L", 81) + `","url":"https://t.example"}`, "label"},
		{"a primary button with a url", `{"type":2,"style":1,"label":"Go","custom_id":"go","url":"https://t.example"}`, "url"},
		{"a primary button without a custom_id", `{"type":2,"style":1,"label":"Go"}`, "custom_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			srv := fakediscord.New(rec)
			a := sendJSON(t, srv, "POST", "/channels/"+srv.ChannelID+"/messages", `{"content":"x","components":[{"type":1,"components":[`+tc.button+`]}]}`)
			rec.finish()
			if tc.field == "" {
				if a.Status != 200 || len(rec.errs) != 0 {
					t.Fatalf("refused: %+v %q", a, rec.errs)
				}
				return
			}
			if a.Status != 400 || a.Code != 50035 || !strings.Contains(string(a.Errors), `"`+tc.field+`"`) {
				t.Fatalf("answer %d %d %s, want 50035 on %s", a.Status, a.Code, a.Errors, tc.field)
			}
		})
	}
}
