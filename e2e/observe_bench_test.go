package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// BenchmarkObserveLargeMCP: the act-and-observe figures of issue 15 on the
// 3,000-element page, through the real binary and the SDK client (medians;
// use -benchtime 20x):
//   - snapshot-first: the first snapshot of a freshly loaded document (the
//     load, with observe=false, is untimed);
//   - snapshot-unchanged: a repeat snapshot of the unchanged page;
//   - snapshot-one-change: a snapshot after one button's aria-expanded
//     flipped (an untimed click with observe=false and no wait);
//   - click-one-line: a click on that button with the default settle, its
//     delta (one changed line) included;
//   - click-one-line-live: the same click on the same page holding a
//     WebSocket, an event stream and a long poll (/large.html?live=1, issue
//     42), its status line changing as they come; no answer may say the page
//     was still busy.
func BenchmarkObserveLargeMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary, "FIREFOX_MCP_MAX_ELEMENTS=5000", "FIREFOX_MCP_MAX_TEXT_CHARS=300000")
	snap := s.open(b, ctx, "/large.html")
	button := ref(b, snap, "button", "Action 1")
	settled := settle(b)
	snapshot := func() string {
		txt, _ := s.must(b, ctx, "snapshot_page", map[string]any{"max_elements": 5000})
		return txt
	}
	b.Run("snapshot-first", func(b *testing.B) {
		load := func() {
			s.must(b, ctx, "navigate", map[string]any{"url": fx.URL + "/large.html", "wait": "complete", "observe": false})
		}
		benchutil.RunClean(b, load, func() { snapshot() })
	})
	snap = snapshot()
	button = ref(b, snap, "button", "Action 1")
	b.Run("snapshot-unchanged", func(b *testing.B) {
		var txt string
		benchutil.RunClean(b, nil, func() { txt = snapshot() })
		benchutil.ReportLines(b, txt)
	})
	b.Run("snapshot-one-change", func(b *testing.B) {
		flip := func() {
			s.must(b, ctx, "click", map[string]any{"element": button, "wait_after_ms": 0, "observe": false})
		}
		benchutil.RunClean(b, flip, func() { snapshot() })
	})
	b.Run("click-one-line", func(b *testing.B) {
		var txt string
		benchutil.RunClean(b, nil, func() {
			txt, _ = s.must(b, ctx, "click", map[string]any{"element": button})
		})
		if !strings.Contains(txt, "changed:\n["+button+"] button \"Action 1\"") || strings.Count(txt, "\n[e") != 1 {
			b.Fatalf("click: want one changed line:\n%s", txt)
		}
		b.ReportMetric(float64(len([]rune(txt))), "chars")
	})
	snap = s.open(b, ctx, "/large.html?live=1")
	button = ref(b, snap, "button", "Action 1")
	b.Run("click-one-line-live", func(b *testing.B) {
		var txt string
		benchutil.RunClean(b, nil, func() {
			txt, _ = s.must(b, ctx, "click", map[string]any{"element": button})
			if strings.Contains(txt, "still busy") {
				b.Fatalf("click on the live page: the settle waited for its live traffic:\n%s", txt)
			}
		})
		if !strings.Contains(txt, "changed:\n["+button+"] button \"Action 1\"") || strings.Count(txt, "\n[e") != 1 {
			b.Fatalf("click: want one changed line:\n%s", txt)
		}
		b.ReportMetric(float64(len([]rune(txt))), "chars")
	})
	settled(b)
}
