package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
)

// otherOrigin serves the fixtures from another site (localhost, where fx is
// on 127.0.0.1: Fission puts its frames in another process).
func otherOrigin(b *testing.B) string {
	srv := fixtures.Server()
	b.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return "http://localhost:" + u.Port()
}

// BenchmarkSnapshotLargeFramesMCP: the large page's 3,000 elements, half in
// the top document and a quarter in each of two cross-origin frames (compare
// with BenchmarkSnapshotLargeMCP, one document), then a click on a button
// inside one of those frames with wait_after_ms 0.
func BenchmarkSnapshotLargeFramesMCP(b *testing.B) {
	ctx := context.Background()
	other := otherOrigin(b)
	s := startServer(b, ctx, binary, "FIREFOX_MCP_MAX_ELEMENTS=5000", "FIREFOX_MCP_MAX_TEXT_CHARS=300000")
	s.open(b, ctx, "/large-frames.html?other="+url.QueryEscape(other))
	settled := settle(b)
	var txt string
	b.Run("snapshot", func(b *testing.B) {
		benchutil.RunClean(b, nil, func() {
			txt, _ = s.must(b, ctx, "snapshot_page", map[string]any{"max_elements": 5000})
		})
		if n := strings.Count(txt, "--- frame "); n != 2 {
			b.Fatalf("%d frames in the snapshot, want 2", n)
		}
		benchutil.ReportLines(b, txt)
		settled(b)
	})
	// The click alone (observe: false), and with the delta of what changed,
	// which reads the top document once more.
	for _, observe := range []bool{false, true} {
		b.Run(fmt.Sprintf("click-in-frame-wait0/observe=%v", observe), func(b *testing.B) {
			frame := txt[strings.Index(txt, "--- frame "):]
			button := firstRef(b, frame, "button")
			benchutil.RunClean(b, nil, func() {
				s.must(b, ctx, "click", map[string]any{"element": button, "wait_after_ms": 0, "observe": observe})
			})
		})
	}
}
