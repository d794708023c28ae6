package fakediscord

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
		sum := sha256.Sum256(f.Data)
		fmt.Fprintf(&b, " file[%s %s %s sha256:%s]", f.Field, f.Name, f.ContentType, hex.EncodeToString(sum[:8]))
	}
	r.write(b.String())
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
	// Unix times in seconds (Discord's <t:...> markdown, 10 digits).
	unixTime = regexp.MustCompile(`<t:\d+(:[tTdDfFR])?>`)
)

// maskText replaces what differs from run to run: ids, times, tokens,
// nonces, session ids.
func maskText(s string) string {
	s = secretField.ReplaceAllString(s, `"$1":"<masked>"`)
	s = rfc3339.ReplaceAllString(s, "<time>")
	s = unixTime.ReplaceAllString(s, "<t:<unix>$1>")
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
func CompareRecords(before, after string) ([]string, error) {
	a, err := readRecords(before)
	if err != nil {
		return nil, err
	}
	b, err := readRecords(after)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var diffs []string
	for _, n := range sorted {
		la, oka := a[n]
		lb, okb := b[n]
		switch {
		case !oka:
			diffs = append(diffs, fmt.Sprintf("%s: only in %s", n, after))
			continue
		case !okb:
			diffs = append(diffs, fmt.Sprintf("%s: only in %s", n, before))
			continue
		}
		for line, ca := range la {
			if cb := lb[line]; cb != ca {
				diffs = append(diffs, fmt.Sprintf("%s: %dx before, %dx after: %s", n, ca, cb, clip(line)))
			}
		}
		for line, cb := range lb {
			if _, ok := la[line]; !ok {
				diffs = append(diffs, fmt.Sprintf("%s: 0x before, %dx after: %s", n, cb, clip(line)))
			}
		}
	}
	sort.Strings(diffs)
	return diffs, nil
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
			lines[sc.Text()]++
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out[filepath.Base(f)] = lines
	}
	return out, nil
}
