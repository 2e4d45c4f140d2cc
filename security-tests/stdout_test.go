package securitytests

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Stdout belongs to MCP: whatever arrives on stdin, every line the server
// writes to stdout is one JSON-RPC 2.0 message, and diagnostics go to
// stderr. The input mixes garbage with valid requests, including ones that
// reach the broker and the (absent) browser.
func TestStdoutPurity(t *testing.T) {
	requireSandbox(t)
	s := startServer(t, serverEnv(t, t.TempDir()))
	inputs := []string{
		"garbage that is not json",
		"",
		"{",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":2,"method":"ping"}`,
		`"just a string"`,
		"\xff\xfe invalid utf-8",
		initialize,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":5,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"browser_status","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"upload_files","arguments":{"element":"e1","paths":["/etc/passwd","relative"]}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_tabs","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		strings.Repeat("x", 1<<16),
		`{"jsonrpc":"2.0","id":10,"method":"ping"}`,
	}
	for _, in := range inputs {
		s.send(t, in)
	}
	// Wait for the answer to the last ping, then close stdin and drain.
	var all []string
	deadline := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case l, ok := <-s.lines:
			if !ok {
				done = true
				break
			}
			all = append(all, l)
			if strings.Contains(l, `"id":10`) {
				s.stdin.Close()
			}
		case <-deadline:
			t.Fatalf("server did not finish; stderr:\n%s", s.stderr.String())
		}
	}
	bad := 0
	ids := map[string]bool{}
	for _, l := range all {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &m); err != nil || string(m["jsonrpc"]) != `"2.0"` {
			bad++
			t.Errorf("stdout line is not JSON-RPC 2.0: %.200q", l)
			continue
		}
		if id, ok := m["id"]; ok {
			ids[string(id)] = true
		}
	}
	record(t, "stdout", "non-JSON-RPC lines on stdout", "0", strconv.Itoa(bad))
	answered := 0
	for _, id := range []string{"3", "4", "5", "6", "7", "8", "9", "10"} {
		if ids[id] {
			answered++
		}
	}
	record(t, "stdout", "valid requests answered", "8", strconv.Itoa(answered))
	record(t, "stdout", "diagnostics went to stderr", "true", strconv.FormatBool(strings.Contains(s.stderr.String(), "level=")))
}
