package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestScreenshotImageContent: the SDK client receives the screenshot as an
// image content item whose PNG decodes to the fixture's colours.
func TestScreenshotImageContent(t *testing.T) {
	ctx := context.Background()
	s := startServer(t, ctx, binary)
	s.open(t, ctx, "/senses.html")
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "screenshot", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("screenshot: %v %s", err, text(res))
	}
	if len(res.Content) != 2 {
		t.Fatalf("content has %d items", len(res.Content))
	}
	im, ok := res.Content[1].(*sdk.ImageContent)
	if !ok || im.MIMEType != "image/png" {
		t.Fatalf("second item is %T %+v", res.Content[1], res.Content[1])
	}
	img, err := png.Decode(bytes.NewReader(im.Data))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		x, y    int
		r, g, b uint32
	}{{150, 100, 255, 0, 0}, {450, 100, 0, 255, 0}, {300, 300, 0, 0, 255}, {800, 100, 255, 255, 255}} {
		r, g, b, _ := img.At(p.x, p.y).RGBA()
		if r>>8 != p.r || g>>8 != p.g || b>>8 != p.b {
			t.Errorf("pixel (%d,%d) = %d,%d,%d, want %d,%d,%d", p.x, p.y, r>>8, g>>8, b>>8, p.r, p.g, p.b)
		}
	}
}

// TestScreenshotJPEGSandboxed: converting to JPEG works inside the
// sandboxed server (pure computation, no new system calls).
func TestScreenshotJPEGSandboxed(t *testing.T) {
	ctx := context.Background()
	s := startServer(t, ctx, binary)
	snap := s.open(t, ctx, "/senses.html")
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "screenshot", Arguments: map[string]any{"element": ref(t, snap, "button", "Blue"), "format": "jpeg", "quality": 70}})
	if err != nil || res.IsError || len(res.Content) != 2 {
		t.Fatalf("screenshot: %v %s", err, text(res))
	}
	im := res.Content[1].(*sdk.ImageContent)
	img, err := jpeg.Decode(bytes.NewReader(im.Data))
	if err != nil || im.MIMEType != "image/jpeg" || img.Bounds().Dx() != 600 || img.Bounds().Dy() != 200 {
		t.Fatalf("jpeg: %v %s %v", err, im.MIMEType, img)
	}
	if r, g, b, _ := img.At(300, 100).RGBA(); r>>8 > 12 || g>>8 > 12 || b>>8 < 243 {
		t.Errorf("centre pixel %d,%d,%d, want blue", r>>8, g>>8, b>>8)
	}
}

// TestToolsListIsCompact: the whole tools/list answer, as sent, stays
// within 21,500 bytes of the model's context (18 KB until every output field
// got its type, for clients that check schemas, and fill_form came; 20,000
// until list_downloads, a tool of its own, and wait_for's url came: 20,831;
// 21,000 until click, press_key and fill took the lock's intent argument,
// issue 43).
func TestToolsListIsCompact(t *testing.T) {
	cmd := exec.Command(binary)
	cmd.Env = []string{"FIREFOX_MCP_SANDBOX=off"}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r := bufio.NewReaderSize(stdout, 1<<20)
	for i := 0; i < 2; i++ {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			if !bytes.Contains(line, []byte(`"name":"screenshot"`)) {
				t.Fatalf("tools/list answer lacks screenshot: %.200s", line)
			}
			t.Logf("tools/list: %d bytes", len(line))
			if len(line) > 21_500 {
				t.Errorf("tools/list is %d bytes, over 21,500", len(line))
			}
		}
	}
}

// BenchmarkScreenshotMCP: a viewport, an element and a full-page screenshot
// through the real binary, image content decoded by the SDK client.
func BenchmarkScreenshotMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary)
	snap := s.open(b, ctx, "/senses.html")
	red := ref(b, snap, "button", "Red")
	settle(b)
	shoot := func(args map[string]any) func() {
		return func() {
			res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "screenshot", Arguments: args})
			if err != nil || res.IsError || len(res.Content) != 2 {
				b.Fatalf("screenshot: %v %s", err, text(res))
			}
		}
	}
	b.Run("viewport", func(b *testing.B) { benchutil.RunClean(b, nil, shoot(map[string]any{})) })
	b.Run("element", func(b *testing.B) { benchutil.RunClean(b, nil, shoot(map[string]any{"element": red})) })
	b.Run("full_page", func(b *testing.B) { benchutil.RunClean(b, nil, shoot(map[string]any{"full_page": true})) })
}

// fill loads the fixture that logs and fetches n times in the selected tab
// and waits until the server has all of it buffered.
func (s *server) fill(b *testing.B, ctx context.Context, n int) {
	b.Helper()
	s.must(b, ctx, "navigate", map[string]any{"url": fx.URL + "/senses.html?log=" + strconv.Itoa(n) + "&fetch=" + strconv.Itoa(n), "wait": "complete"})
	s.must(b, ctx, "wait_for", map[string]any{"selector": "body[data-done]", "timeout_ms": 60000})
	deadline := time.Now().Add(60 * time.Second)
	for {
		// Counting what the buffers saw (kept and evicted): the document
		// request comes on top of the n fetches.
		_, c := s.must(b, ctx, "console_messages", map[string]any{"level": "info", "limit": 1})
		_, r := s.must(b, ctx, "network_requests", map[string]any{"limit": 1})
		seen := func(m map[string]any) float64 { return m["matching"].(float64) + m["evicted"].(float64) }
		if seen(c) >= float64(n) && seen(r) >= float64(n+1) {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("buffers not filled: console %v, network %v", c, r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// BenchmarkBufferedListsMCP: console_messages and network_requests with
// 500 entries of each buffered, at the default limit (50) and at 500.
func BenchmarkBufferedListsMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary)
	s.must(b, ctx, "select_tab", map[string]any{"index": 0})
	s.fill(b, ctx, 500)
	settle(b)
	for _, tc := range []struct {
		tool  string
		limit int
	}{{"console_messages", 50}, {"console_messages", 500}, {"network_requests", 50}, {"network_requests", 500}} {
		b.Run(tc.tool+"/limit="+strconv.Itoa(tc.limit), func(b *testing.B) {
			var txt string
			benchutil.RunClean(b, nil, func() { txt, _ = s.must(b, ctx, tc.tool, map[string]any{"limit": tc.limit}) })
			b.ReportMetric(float64(len(txt)), "chars")
		})
	}
}

// BenchmarkBufferedRSS: the server's resident memory with 1,000 console
// messages and 1,000 requests buffered on each of 5 tabs.
func BenchmarkBufferedRSS(b *testing.B) {
	ctx := context.Background()
	openTabs(b, ctx, 4)
	s := startServer(b, ctx, binary)
	for i := 0; i < b.N; i++ {
		for tab := 0; tab < 5; tab++ {
			s.must(b, ctx, "select_tab", map[string]any{"index": tab})
			s.fill(b, ctx, 1000)
		}
	}
	// Every tab still has its buffers.
	for tab := 0; tab < 5; tab++ {
		s.must(b, ctx, "select_tab", map[string]any{"index": tab})
		_, c := s.must(b, ctx, "console_messages", map[string]any{"limit": 1})
		_, r := s.must(b, ctx, "network_requests", map[string]any{"limit": 1})
		if c["matching"].(float64) < 1000 || r["matching"].(float64) < 1000 {
			b.Fatalf("tab %d lost its buffers: console %v, network %v", tab, c, r)
		}
	}
	rss, hwm := s.rss(b)
	b.ReportMetric(float64(rss)/(1<<20), "MiB-RSS")
	b.ReportMetric(float64(hwm)/(1<<20), "MiB-peak-RSS")
	b.ReportMetric(0, "ns/op")
}

// openTabs opens n more tabs on the fixture index through a connection of
// the test's own, and closes them at the end.
func openTabs(b *testing.B, ctx context.Context, n int) {
	ff := firefox.Get(b)
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	pc, err := c.ParentProcessConsole(ctx)
	if err != nil {
		b.Fatal(err)
	}
	run := func(s pagejs.Script, args, out any) {
		expr, err := s.Chrome(args)
		if err == nil {
			var res string
			if res, err = c.EvaluateString(ctx, pc, expr, rdp.EvalOptions{Await: true}); err == nil {
				err = pagejs.Decode(res, out)
			}
		}
		if err != nil {
			b.Fatalf("%s: %v", s.Name(), err)
		}
	}
	for i := 0; i < n; i++ {
		var tr pagejs.TabResult
		run(pagejs.TabOpen, pagejs.TabOpenArgs{URL: fx.URL + "/", Background: true}, &tr)
		b.Cleanup(func() {
			if c.Err() == nil {
				run(pagejs.TabClose, pagejs.TabArgs{BrowserID: tr.BrowserID}, &pagejs.TabResult{})
			}
		})
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		tabs, err := c.ListTabs(ctx)
		if err == nil && len(tabs) >= n+1 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("tabs did not open: %v %v", len(tabs), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rss is the server's current and peak resident set size in bytes.
func (s *server) rss(t testing.TB) (cur, peak int64) {
	t.Helper()
	peak = s.vmHWM(t)
	b, err := readStatus(s.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(b, "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, peak
		}
	}
	t.Fatal("no VmRSS")
	return 0, 0
}

func readStatus(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	return string(b), err
}
