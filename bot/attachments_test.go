package bot_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"tessera/bot"
)

// TestStatusEditNamesItsPicture: every move edits the status message with
// a new board. The edit lists the upload in attachments, and Discord's API
// description refuses an attachment whose filename is "" (minLength 1),
// which is what discordgo's MessageAttachment sends for every field left
// empty. The fake refuses it as Discord would; the bot must send only the
// upload's id and its file name, and the status message must show the new
// board under that name.
func TestStatusEditNamesItsPicture(t *testing.T) {
	t.Parallel()
	w := start(t, bot.Options{})
	w.newGame(t)
	statusID := w.status(t).ID
	move := w.suggest(t, w.ana, "")[0].Value.(string)
	w.play(t, w.ana, move)

	edits := w.srv.RequestsTo("PATCH /channels/" + w.thread + "/messages/" + statusID)
	withBoard := 0
	for _, r := range edits {
		if len(r.Files) == 0 {
			continue
		}
		withBoard++
		if r.Status != http.StatusOK {
			t.Fatalf("the status edit was refused (%d): %s", r.Status, r.Response)
		}
		var body struct {
			Attachments []map[string]any `json:"attachments"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		// One upload, files[0]: listed by its index and its name, nothing else.
		want := []map[string]any{{"id": "0", "filename": r.Files[0].Name}}
		if len(r.Files) != 1 || r.Files[0].Name == "" || !reflect.DeepEqual(body.Attachments, want) {
			t.Fatalf("the status edit uploads %d file(s) named %q and lists attachments %v, want %v", len(r.Files), r.Files[0].Name, body.Attachments, want)
		}
	}
	if withBoard == 0 {
		t.Fatalf("no status edit with a new board among %d edits", len(edits))
	}
	st := w.status(t)
	if !strings.Contains(st.Content, "Moves so far: 1.") {
		t.Fatalf("the status message was not brought up to date: %q", st.Content)
	}
	if len(st.Attachments) != 1 || !strings.HasSuffix(st.Attachments[0].Filename, ".png") {
		t.Fatalf("the status message's attachments: %+v, want one board picture with its name", st.Attachments)
	}
}
