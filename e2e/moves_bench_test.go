package e2e

import (
	"context"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
)

// BenchmarkNewTabMCP: new_tab to a local page until its document is
// complete (the tool waits for that), through the real binary; the tab is
// closed (close_tab) untimed between runs.
func BenchmarkNewTabMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary)
	s.open(b, ctx, "/forms.html")
	settled := settle(b)
	var opened string
	closeIt := func() {
		if opened != "" {
			s.must(b, ctx, "close_tab", map[string]any{"tab_id": opened})
			opened = ""
		}
	}
	benchutil.RunClean(b, closeIt, func() {
		_, st := s.must(b, ctx, "new_tab", map[string]any{"url": fx.URL + "/labels.html"})
		if st["ready_state"] != "complete" {
			b.Fatalf("new_tab returned before the page was complete: %v", st)
		}
		opened, _ = st["tab_id"].(string)
	})
	closeIt()
	settled(b)
}

// BenchmarkHistoryMCP: navigate {history: back} to a page the tab just
// left (kept in Firefox's back-forward cache), waiting for dom (the default)
// and for complete; forward again untimed between runs.
func BenchmarkHistoryMCP(b *testing.B) {
	ctx := context.Background()
	s := startServer(b, ctx, binary)
	s.open(b, ctx, "/forms.html")
	s.must(b, ctx, "navigate", map[string]any{"url": fx.URL + "/labels.html", "wait": "complete"})
	settled := settle(b)
	for _, wait := range []string{"dom", "complete"} {
		b.Run("back-wait="+wait, func(b *testing.B) {
			forward := func() { s.must(b, ctx, "navigate", map[string]any{"history": "forward", "wait": "complete"}) }
			first := true
			benchutil.RunClean(b, func() {
				if !first {
					forward()
				}
				first = false
			}, func() {
				s.must(b, ctx, "navigate", map[string]any{"history": "back", "wait": wait})
			})
			forward()
		})
	}
	settled(b)
}
