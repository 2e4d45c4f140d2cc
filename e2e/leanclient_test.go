package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// leanClient speaks MCP over the binary's stdio the way a lean host does:
// it writes one request line and reads the response line, which it decodes
// once. Benchmarks use it beside the SDK client to tell the server's share
// of a round trip from the Go SDK client's own decoding, which for a
// 3,000-element snapshot (≈120 KB) takes several ms of the client's CPU.
type leanClient struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	id     int
	closed sync.Once
}

func startLean(t testing.TB, bin string, env ...string) *leanClient {
	t.Helper()
	c := &leanClient{cmd: exec.Command(bin)}
	c.cmd.Env = append(append(os.Environ(), "FIREFOX_RDP_SOCKET="+firefox.Get(t).Socket, "FIREFOX_MCP_LOG_LEVEL=warn"), env...)
	c.cmd.Stderr = os.Stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	c.out = bufio.NewReaderSize(stdout, 1<<20)
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	c.request(t, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "lean", "version": "1"}}, &init)
	if init.ProtocolVersion != "2025-06-18" {
		t.Fatalf("initialize: protocol version %q", init.ProtocolVersion)
	}
	c.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return c
}

// close ends the server (its stdin closed; killed after 10 s), once.
func (c *leanClient) close() {
	c.closed.Do(func() {
		c.in.Close()
		done := make(chan struct{})
		go func() { c.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			c.cmd.Process.Kill()
			<-done
		}
	})
}

func (c *leanClient) send(t testing.TB, msg any) {
	t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

// request sends one request and decodes its result into out; the server
// sends nothing else on this connection (no progress token is given).
func (c *leanClient) request(t testing.TB, method string, params, out any) {
	t.Helper()
	c.id++
	c.send(t, map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("%s: reading the response: %v", method, err)
	}
	var resp struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil || resp.ID != c.id || resp.Error != nil {
		t.Fatalf("%s: bad response (%v): %.300s", method, err, line)
	}
	if err := json.Unmarshal(resp.Result, out); err != nil {
		t.Fatalf("%s: result: %v", method, err)
	}
}

// call calls a tool and returns its text, failing on a tool error.
func (c *leanClient) call(t testing.TB, name string, args map[string]any) string {
	t.Helper()
	var res struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	c.request(t, "tools/call", map[string]any{"name": name, "arguments": args}, &res)
	var b strings.Builder
	for _, item := range res.Content {
		if item.Type == "text" {
			b.WriteString(item.Text)
		}
	}
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, b.String())
	}
	return b.String()
}

// sameLines reports whether two snapshots list the same element lines.
func sameLines(a, b string) bool {
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "[e") {
				out = append(out, l)
			}
		}
		return out
	}
	return slices.Equal(lines(a), lines(b))
}

// BenchmarkObserveLargeLean: BenchmarkObserveLargeMCP's snapshot figures
// through the lean client above instead of the SDK's (medians; use
// -benchtime 20x): what the server and Firefox take, as a host that parses
// each answer once sees it. snapshot-first-settled is the first snapshot of
// a document left alone for 700 ms after its load (untimed), as an agent's
// next call comes; snapshot-first times it right after the load, as
// BenchmarkObserveLargeMCP does (the content process is then still busy
// with the document it left); snapshot-first-selected is the first snapshot
// of a fresh server 700 ms after its select_tab of a page already loaded;
// snapshot-first-slow-load, right after the load of the same page with a
// picture that holds its load 500 ms past its DOM's completion.
func BenchmarkObserveLargeLean(b *testing.B) {
	c := startLean(b, binary, "FIREFOX_MCP_MAX_ELEMENTS=5000", "FIREFOX_MCP_MAX_TEXT_CHARS=300000")
	c.call(b, "select_tab", map[string]any{"index": 0})
	load := func(b testing.TB) {
		c.call(b, "navigate", map[string]any{"url": fx.URL + "/large.html", "wait": "complete", "observe": false})
	}
	snapshot := func(b testing.TB) string { return c.call(b, "snapshot_page", map[string]any{"max_elements": 5000}) }
	load(b)
	snapshot(b)
	b.Run("snapshot-first", func(b *testing.B) { benchutil.RunClean(b, func() { load(b) }, func() { snapshot(b) }) })
	b.Run("snapshot-first-settled", func(b *testing.B) {
		benchutil.RunClean(b, func() { load(b); time.Sleep(700 * time.Millisecond) }, func() { snapshot(b) })
	})
	// The first snapshot right after the load of a page whose load comes 500 ms after
	// its DOM is complete (a picture answered late, as a real site's images are).
	b.Run("snapshot-first-slow-load", func(b *testing.B) {
		benchutil.RunClean(b, func() {
			c.call(b, "navigate", map[string]any{"url": fx.URL + "/large-slow.html?ms=500", "wait": "complete", "observe": false})
		}, func() { snapshot(b) })
	})
	// The first snapshot a server takes of a page loaded before it started (the
	// user's open tab), 700 ms after its select_tab (untimed), as an agent's next
	// call comes: a fresh server each time, on a freshly loaded document.
	b.Run("snapshot-first-selected", func(b *testing.B) {
		var fresh *leanClient
		benchutil.RunClean(b, func() {
			if fresh != nil {
				fresh.close()
			}
			load(b)
			fresh = startLean(b, binary, "FIREFOX_MCP_MAX_ELEMENTS=5000", "FIREFOX_MCP_MAX_TEXT_CHARS=300000")
			fresh.call(b, "select_tab", map[string]any{"index": 0})
			time.Sleep(700 * time.Millisecond)
		}, func() { fresh.call(b, "snapshot_page", map[string]any{"max_elements": 5000}) })
		fresh.close()
	})
	snap := snapshot(b)
	button := ref(b, snap, "button", "Action 1")
	b.Run("snapshot-unchanged", func(b *testing.B) {
		var txt string
		benchutil.RunClean(b, nil, func() { txt = snapshot(b) })
		benchutil.ReportLines(b, txt)
		if !sameLines(txt, snap) {
			b.Fatalf("the unchanged page's snapshot changed:\n%.500s\nwas\n%.500s", txt, snap)
		}
	})
	b.Run("snapshot-one-change", func(b *testing.B) {
		flip := func() {
			c.call(b, "click", map[string]any{"element": button, "wait_after_ms": 0, "observe": false})
		}
		var txt string
		benchutil.RunClean(b, flip, func() { txt = snapshot(b) })
		if !strings.Contains(txt, "["+button+"] button \"Action 1\" expanded") && !strings.Contains(txt, "["+button+"] button \"Action 1\" collapsed") {
			b.Fatalf("snapshot after the click: no expanded state on %s:\n%.2000s", button, txt)
		}
	})
}

// TestLeanClient keeps the lean client honest: it gets the answers the SDK
// client gets (the same element lines of the same page), and a tool error
// as a tool error.
func TestLeanClient(t *testing.T) {
	ctx := testCtx(t)
	s := startServer(t, ctx, binary)
	want := s.open(t, ctx, "/forms.html")
	c := startLean(t, binary)
	c.call(t, "select_tab", map[string]any{"index": 0})
	got := c.call(t, "snapshot_page", map[string]any{})
	if !sameLines(got, want) || !strings.Contains(got, "[e") {
		t.Fatalf("lean client's snapshot:\n%s\nSDK client's:\n%s", got, want)
	}
	var res struct {
		IsError bool `json:"isError"`
	}
	c.request(t, "tools/call", map[string]any{"name": "click", "arguments": map[string]any{"element": "e999999"}}, &res)
	if !res.IsError {
		t.Fatal("a click on an unknown ref was not a tool error")
	}
}
