package fakediscord

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMaskText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Snowflakes anywhere: ids in paths, bodies and custom ids.
		{`{"channel_id":"1187654321098765432"}`, `{"channel_id":"<id>"}`},
		{`move:1187654321098765432:3`, `move:<id>:3`},
		// The marker's counter (base 36), not its kind.
		{`"game 1 · 1z\\n-# game 1 · h"`, `"game 1 · 1z\\n-# game 1 · <n>"`},
		{`-# game 2 · place s0"`, `-# game 2 · place s0"`},
		// Short numbers are content (move numbers, scores), not ids.
		{`{"content":"move 12 of 345"}`, `{"content":"move 12 of 345"}`},
		// Times written by discordgo and by the bot.
		{`{"timestamp":"2026-11-26T10:44:11.123Z"}`, `{"timestamp":"<time>"}`},
		{`due <t:1795000000:R>`, `due <t:<unix>:R>`},
		// Random per request or per connection.
		{`{"nonce":"a1b2c3","content":"x"}`, `{"nonce":"<masked>","content":"x"}`},
		{`{"token":"Bot abc","session_id":"f00d"}`, `{"token":"<masked>","session_id":"<masked>"}`},
		{`{"since":1795000000123,"status":"online"}`, `{"since":"<masked>","status":"online"}`},
		// An interaction token in a webhook path.
		{`/webhooks/1/` + strings.Repeat("aZ0_-", 10) + `/messages/@original`, `/webhooks/1/<token>/messages/@original`},
	} {
		if got := maskText(c.in); got != c.want {
			t.Errorf("maskText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRecordFileName(t *testing.T) {
	if got, want := recordFileName("TestGames/elemental connection"), "TestGames_elemental_connection.rec"; got != want {
		t.Errorf("recordFileName = %q, want %q", got, want)
	}
}

// TestCompareRecords: lines are compared as a multiset per test, so the
// order of concurrent senders does not matter but a count does.
func TestCompareRecords(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "TestX.rec", "one\ntwo\ntwo\n")
	write(b, "TestX.rec", "two\none\ntwo\n")
	if d, _, err := CompareRecords(a, b); err != nil || len(d) != 0 {
		t.Fatalf("reordered lines: %v %v, want no difference", d, err)
	}
	write(b, "TestX.rec", "two\none\nfour\n")
	write(b, "TestY.rec", "three\n")
	d, _, err := CompareRecords(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 3 || !strings.Contains(d[0], "0x before, 1x after: four") || !strings.Contains(d[1], "2x before, 1x after: two") || !strings.Contains(d[2], "TestY.rec: only in") {
		t.Fatalf("differences = %q", d)
	}
	// A rerun of the same code in which "four" appeared too: its count
	// depends on timing and proves nothing; "two"'s count still counts.
	rerun := t.TempDir()
	write(rerun, "TestX.rec", "one\ntwo\ntwo\nfour\n")
	d, tolerated, err := CompareRecords(a, b, rerun)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 2 || tolerated != 1 || !strings.Contains(d[1], "[varies] TestX.rec: 2x before, 1x after: two") {
		t.Fatalf("with a rerun: differences = %q, tolerated %d", d, tolerated)
	}
}

// TestRecordsAgree compares two captures of the bot suite, given as
// TESSERA_RECORD_BEFORE and TESSERA_RECORD_AFTER (directories written with
// TESSERA_RECORD_DIR), and fails on any difference; TESSERA_RECORD_RERUN
// (more captures of the before code, separated by ':', optional) tells
// which lines vary from run to run. Skipped without them.
func TestRecordsAgree(t *testing.T) {
	before, after := os.Getenv("TESSERA_RECORD_BEFORE"), os.Getenv("TESSERA_RECORD_AFTER")
	if before == "" || after == "" {
		t.Skip("set TESSERA_RECORD_BEFORE and TESSERA_RECORD_AFTER to compare two captures")
	}
	var reruns []string
	if r := os.Getenv("TESSERA_RECORD_RERUN"); r != "" {
		reruns = filepath.SplitList(r)
	}
	diffs, tolerated, err := CompareRecords(before, after, reruns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	varies := 0
	for _, d := range diffs {
		if strings.HasPrefix(d, "[varies]") {
			varies++
		}
	}
	t.Logf("%d differences (%d in tests that vary from run to run); %d lines tolerated (they varied between %s and a rerun)", len(diffs), varies, tolerated, before)
}

// TestRecorderWrites: a server started with the recorder on writes what
// the bot sends to a file named after the test, masked.
func TestRecorderWrites(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(RecordDirEnv, dir)
	s := New(t)
	dg := s.Session("token")
	if _, err := dg.ChannelMessageSend(s.ChannelID, "hello"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "TestRecorderWrites.rec"))
	if err != nil {
		t.Fatal(err)
	}
	want := `REST POST /channels/{channel}/messages body={"content":"hello",`
	if got := string(data); !strings.Contains(got, want) {
		t.Fatalf("record = %q, want a line %q", got, want)
	}
}
