package fakediscord

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// RecordDirEnv names the environment variable that turns the recorder on:
// when it holds a directory, every server appends each HTTP request the bot
// makes and each gateway frame it sends, masked (below), one line each, to
// a file in that directory named after the test.
//
// The recorder proves a reshaping changed nothing the bot says to Discord:
// record the bot suite before and after and compare with CompareRecords.
// Courier workers and shards run concurrently, so a test's lines are
// compared as a sorted multiset, not in order. Ids, times, tokens, nonces,
// session ids and heartbeat sequence numbers are masked; an uploaded file is
// summarised by its field, name and a hash of its bytes.
const RecordDirEnv = "TESSERA_RECORD_DIR"

// recorder appends masked lines to one file per test; servers of one test
// share it.
type recorder struct {
	mu   sync.Mutex
	path string
}

var recorders sync.Map // file path -> *recorder

// newRecorder returns the recorder for test name when RecordDirEnv is set,
// or nil.
func newRecorder(name string) *recorder {
	dir := os.Getenv(RecordDirEnv)
	if dir == "" {
		return nil
	}
	path := filepath.Join(dir, recordFileName(name))
	r, _ := recorders.LoadOrStore(path, &recorder{path: path})
	return r.(*recorder)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// recordFileName turns a test name (with / for subtests) into a file name.
func recordFileName(name string) string {
	return unsafeName.ReplaceAllString(name, "_") + ".rec"
}

// write appends one line; a recorder that cannot write says so on stderr
// once per line rather than failing the test it observes.
func (r *recorder) write(line string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(r.path), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "fakediscord: recorder:", err)
		return
	}
	f, err := os.OpenFile(r.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakediscord: recorder:", err)
		return
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		fmt.Fprintln(os.Stderr, "fakediscord: recorder:", err)
	}
}

// recordRequest records one HTTP request as it arrived (before faults,
// rate limits and the route's answer): method, route (or the masked path
// when the fake has no route), masked query, masked body and files.
func (r *recorder) recordRequest(req *Request) {
	if r == nil {
		return
	}
	var b strings.Builder
	kind := "REST"
	if req.Inline {
		kind = "INLINE"
	}
	route := req.Route
	if route == "" {
		if rt, _ := matchRoute(req.Method, req.Path); rt != nil {
			route = rt.tmpl
		} else {
			route = req.Method + " " + maskText(req.Path)
		}
	}
	fmt.Fprintf(&b, "%s %s", kind, route)
	if q := maskQuery(req.Query); q != "" {
		fmt.Fprintf(&b, " ?%s", q)
	}
	if len(req.Body) > 0 {
		fmt.Fprintf(&b, " body=%s", maskText(string(req.Body)))
	}
	for _, f := range req.Files {
		fmt.Fprintf(&b, " file[%s %s %s %s]", f.Field, f.Name, f.ContentType, fileSummary(f.Data))
	}
	r.write(b.String())
}

// fileSummary is a picture's format and size in pixels, or another
// file's hash. A picture's bytes differ from run to run when it shows a
// time (a clock), so its hash would prove nothing.
func fileSummary(data []byte) string {
	if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		return fmt.Sprintf("%s %dx%d", format, cfg.Width, cfg.Height)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// recordFrame records one gateway frame the bot sent.
func (r *recorder) recordFrame(op int, data []byte) {
	if r == nil {
		return
	}
	d := maskText(string(data))
	switch op {
	case 1: // heartbeat: d is the last sequence number seen
		d = "<seq>"
	case 6: // resume: session id and sequence number
		d = resumeSeq.ReplaceAllString(d, `"seq":<seq>`)
	}
	r.write(fmt.Sprintf("GW op=%d d=%s", op, d))
}

var (
	// Snowflakes: Discord ids are 17 to 20 digits.
	snowflake = regexp.MustCompile(`\b\d{17,20}\b`)
	// RFC 3339 times, as Discord and discordgo write them.
	rfc3339 = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	// Values that are random or per-connection.
	secretField = regexp.MustCompile(`"(nonce|token|session_id|since)":("(\\.|[^"\\])*"|-?\d+)`)
	resumeSeq   = regexp.MustCompile(`"seq":-?\d+`)
	// Interaction tokens in webhook paths: long opaque strings.
	pathToken = regexp.MustCompile(`/[A-Za-z0-9_-]{40,}`)
	// Unix times in Discord's <t:...> markdown, < escaped by JSON or not.
	unixTime = regexp.MustCompile(`(<|\\u003c)t:\d+`)
	// The marker's counter ("-# game 3 · 1f"): the order in which one
	// game's announcements were queued, which concurrent commands vary.
	markerSeq = regexp.MustCompile(`(-# game \d+ · )[0-9a-z]+(\\n|"|$)`)
)

// maskText replaces what differs from run to run: ids, times, tokens,
// nonces, session ids.
func maskText(s string) string {
	s = secretField.ReplaceAllString(s, `"$1":"<masked>"`)
	s = rfc3339.ReplaceAllString(s, "<time>")
	s = unixTime.ReplaceAllString(s, "${1}t:<unix>")
	s = markerSeq.ReplaceAllString(s, "${1}<n>$2")
	s = pathToken.ReplaceAllString(s, "/<token>")
	s = snowflake.ReplaceAllString(s, "<id>")
	return s
}

func maskQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return maskText(q.Encode())
}

// CompareRecords compares two directories written by the recorder, test by
// test, each file as a sorted multiset of lines, and returns one message
// per difference (nil when they agree).
//
// reruns are more captures of the same code as before: a line whose count
// differs between before and a rerun depends on timing (which of two
// racing goroutines wins, how many games a stress test finishes), so a
// difference in it proves nothing and is counted in tolerated instead.
// A difference in a test that varied between before and a rerun is
// marked "[varies]": the tests that never varied prove the most.
// Lines are masked again as they are read, so a capture taken with an
// older recorder compares with the masks of today's.
func CompareRecords(before, after string, reruns ...string) (diffs []string, tolerated int, err error) {
	a, err := readRecords(before)
	if err != nil {
		return nil, 0, err
	}
	b, err := readRecords(after)
	if err != nil {
		return nil, 0, err
	}
	noise := map[string]map[string]bool{} // test -> lines that vary
	for _, dir := range reruns {
		r, err := readRecords(dir)
		if err != nil {
			return nil, 0, err
		}
		for _, d := range multisetDiff(a, r) {
			if noise[d.test] == nil {
				noise[d.test] = map[string]bool{}
			}
			noise[d.test][d.line] = true
		}
	}
	for _, d := range multisetDiff(a, b) {
		switch {
		case d.line == "" && d.before:
			diffs = append(diffs, fmt.Sprintf("%s: only in %s", d.test, before))
		case d.line == "":
			diffs = append(diffs, fmt.Sprintf("%s: only in %s", d.test, after))
		case noise[d.test][d.line]:
			tolerated++
		case noise[d.test] != nil:
			// The test itself varies from run to run (a race, the AI's
			// time-capped search): this line may too, but did not in the
			// reruns; more reruns tell.
			diffs = append(diffs, fmt.Sprintf("[varies] %s: %dx before, %dx after: %s", d.test, d.countA, d.countB, clip(d.line)))
		default:
			diffs = append(diffs, fmt.Sprintf("%s: %dx before, %dx after: %s", d.test, d.countA, d.countB, clip(d.line)))
		}
	}
	sort.Strings(diffs)
	return diffs, tolerated, nil
}

// lineDiff is one line whose count differs between two captures of a
// test, or (line "") a test only one capture has (before: the first).
type lineDiff struct {
	test, line     string
	countA, countB int
	before         bool
}

func multisetDiff(a, b map[string]map[string]int) []lineDiff {
	var out []lineDiff
	for test, la := range a {
		lb, ok := b[test]
		if !ok {
			out = append(out, lineDiff{test: test, before: true})
			continue
		}
		for line, ca := range la {
			if cb := lb[line]; cb != ca {
				out = append(out, lineDiff{test: test, line: line, countA: ca, countB: cb})
			}
		}
		for line, cb := range lb {
			if _, ok := la[line]; !ok {
				out = append(out, lineDiff{test: test, line: line, countB: cb})
			}
		}
	}
	for test := range b {
		if _, ok := a[test]; !ok {
			out = append(out, lineDiff{test: test})
		}
	}
	return out
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// readRecords reads every .rec file of dir as a multiset of lines.
func readRecords(dir string) (map[string]map[string]int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.rec"))
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		lines := map[string]int{}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			lines[maskText(sc.Text())]++
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out[filepath.Base(f)] = lines
	}
	return out, nil
}
