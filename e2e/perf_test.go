package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// Benchmarks through the full MCP path: the real binary (sandboxed, with
// its broker) over stdio under the official SDK client, against real
// Firefox. Each reports a median over b.N runs; use -benchtime=20x.
//
// Each waits, untimed, until Firefox is idle before timing (settle): the
// server drives the user's long-running Firefox, while the test Firefox was
// just launched and has just loaded the fixture, and spends its first
// seconds on start-up work and collecting garbage. The wait is reported
// (s-settle).

// settle waits (at most 20 s) until Firefox's processes are idle, and
// returns the report of that wait for after the timing (b.ResetTimer
// deletes metrics reported before it).
func settle(b *testing.B) (report func(b *testing.B)) {
	b.Helper()
	d, _ := firefox.Get(b).Settle(context.Background(), 250*time.Millisecond, 20*time.Second)
	return func(b *testing.B) { b.ReportMetric(d.Seconds(), "s-settle") }
}

func BenchmarkSnapshotLargeMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary, "FIREFOX_MCP_MAX_ELEMENTS=5000", "FIREFOX_MCP_MAX_TEXT_CHARS=300000")
	s.open(b, ctx, "/large.html")
	settled := settle(b)
	var txt string
	benchutil.RunClean(b, nil, func() {
		txt, _ = s.must(b, ctx, "snapshot_page", map[string]any{"max_elements": 5000})
	})
	benchutil.ReportLines(b, txt)
	settled(b)
}

// BenchmarkSnapshotPagingMCP: the first and the second 500 elements of the
// 3,000-element page (offset paging), with the default limit of 500. The two
// calls alternate, so machine noise falls on both alike; the medians of each
// and their ratio are reported. Then a query that matches one element.
func BenchmarkSnapshotPagingMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary)
	s.open(b, ctx, "/large.html")
	settle(b)
	b.Run("first-second500", func(b *testing.B) {
		var first, second []time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			s.must(b, ctx, "snapshot_page", map[string]any{})
			t1 := time.Now()
			s.must(b, ctx, "snapshot_page", map[string]any{"offset": 500})
			first, second = append(first, t1.Sub(t0)), append(second, time.Since(t1))
		}
		b.StopTimer()
		f, sec := benchutil.MedianMS(first), benchutil.MedianMS(second)
		b.ReportMetric(f, "ms-median-first500")
		b.ReportMetric(sec, "ms-median-second500")
		b.ReportMetric(sec/f, "second/first")
		b.ReportMetric(0, "ns/op")
	})
	b.Run("query", func(b *testing.B) {
		var txt string
		benchutil.RunClean(b, nil, func() { txt, _ = s.must(b, ctx, "snapshot_page", map[string]any{"query": "item 1236 details"}) })
		benchutil.ReportLines(b, txt)
	})
}

func BenchmarkActionsMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary)
	snap := s.open(b, ctx, "/forms.html")
	button := firstRef(b, snap, "button")
	field := firstRef(b, snap, "textbox")
	settle(b)
	b.Run("click-wait0", func(b *testing.B) {
		benchutil.RunClean(b, nil, func() { s.must(b, ctx, "click", map[string]any{"element": button, "wait_after_ms": 0}) })
	})
	b.Run("click-default", func(b *testing.B) {
		benchutil.RunClean(b, nil, func() { s.must(b, ctx, "click", map[string]any{"element": button}) })
	})
	b.Run("fill", func(b *testing.B) {
		benchutil.RunClean(b, nil, func() { s.must(b, ctx, "fill", map[string]any{"element": field, "value": "Ada Lovelace"}) })
	})
	b.Run("type100", func(b *testing.B) {
		benchutil.RunClean(b, func() { s.must(b, ctx, "fill", map[string]any{"element": field, "value": ""}) },
			func() {
				s.must(b, ctx, "type_text", map[string]any{"element": field, "text": strings.Repeat("abcdefghij", 10)})
			})
	})
}

// firstRef is the first element of a role that is not disabled and does not
// submit (clicking it must leave the page as it is).
func firstRef(b *testing.B, snap, role string) string {
	for _, m := range refLine.FindAllStringSubmatch(snap, -1) {
		line := m[0]
		if m[2] == role && !strings.Contains(line, "disabled") && !strings.Contains(strings.ToLower(line), "submit") &&
			!strings.Contains(strings.ToLower(line), "send") {
			return m[1]
		}
	}
	b.Fatalf("no %s in snapshot:\n%s", role, snap)
	return ""
}

// BenchmarkUpload: a file assigned and verified in the page, end to end
// (broker read, RDP transfer, File construction, assignment, events).
// Reports MiB/s for the large file, ms for the small one, and the server's
// peak RSS.
func BenchmarkUpload(b *testing.B) {
	for _, tc := range []struct {
		name  string
		size  int
		chunk int
	}{
		{"10KiB", 10 << 10, 256 << 10},
		{"20MiB/chunk=64KiB", 20 << 20, 64 << 10},
		{"20MiB/chunk=128KiB", 20 << 20, 128 << 10},
		{"20MiB/chunk=160KiB", 20 << 20, 160 << 10},
		{"20MiB/chunk=192KiB", 20 << 20, 192 << 10},
		{"20MiB/chunk=1MiB", 20 << 20, 1 << 20},
		{"20MiB/chunk=2MiB", 20 << 20, 2 << 20},
		{"25MiB/chunk=256KiB", 25 << 20, 256 << 10},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			root := b.TempDir()
			s := startServer(b, ctx, binary, "FIREFOX_MCP_UPLOAD_ROOTS="+root,
				fmt.Sprintf("FIREFOX_MCP_UPLOAD_CHUNK_BYTES=%d", tc.chunk),
				"FIREFOX_MCP_MAX_FILE_BYTES=33554432", "FIREFOX_MCP_MAX_UPLOAD_BYTES=33554432")
			snap := s.open(b, ctx, "/upload.html")
			input := ref(b, snap, "file", "Attachments")
			p, _ := writeFile(b, root, "f.bin", tc.size)
			settled := settle(b)
			// The fixture reads every received file back and hashes it; that
			// is the page's work, not the upload's, so it finishes untimed.
			idle := func() {
				s.must(b, ctx, "wait_for", map[string]any{"selector": `body:not([data-pending]), body[data-pending="0"]`})
			}
			d := benchutil.RunClean(b, idle, func() {
				s.must(b, ctx, "upload_files", map[string]any{"element": input, "paths": []string{p}})
			})
			b.ReportMetric(float64(tc.size)/(1<<20)/(benchutil.MedianMS(d)/1000), "MiB/s")
			b.ReportMetric(float64(s.vmHWM(b))/(1<<20), "MiB-peak-RSS")
			settled(b)
		})
	}
}
