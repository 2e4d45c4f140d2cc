package pagejs_test

import (
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// inPage measures, inside the page, how long expr takes (test-side wrapper).
func (p *page) inPage(console, expr string) float64 {
	p.t.Helper()
	res, err := p.c.EvaluateString(p.ctx, console,
		"(async () => { const now = typeof performance === \"object\" ? () => performance.now() : () => ChromeUtils.now(); const t0 = now(); await "+expr+"; return String(now() - t0); })()",
		rdp.EvalOptions{Await: true})
	if err != nil {
		p.t.Fatal(err)
	}
	ms, err := strconv.ParseFloat(res, 64)
	if err != nil {
		p.t.Fatalf("timing %q: %v", res, err)
	}
	return ms
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// BenchmarkSnapshotLarge snapshots the ≈3,000-element page with limits covering it:
// round trip per op, plus the median in-page time over 20 runs (ms-in-page).
func BenchmarkSnapshotLarge(b *testing.B) {
	p := open(b, "/large.html")
	args := pagejs.SnapshotArgs{MaxElements: 5000, MaxTextChars: 300000, IncludeAllText: true}
	for _, r := range realms {
		b.Run(string(r), func(b *testing.B) {
			p.t = b
			console, expr := p.expr(r, pagejs.Snapshot, args)
			var inPage []float64
			for i := 0; i < 20; i++ {
				inPage = append(inPage, p.inPage(console, expr))
			}
			var s pagejs.SnapshotResult
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				res, err := p.c.EvaluateString(p.ctx, console, expr, rdp.EvalOptions{Await: true})
				if err != nil {
					b.Fatal(err)
				}
				if err := pagejs.Decode(res, &s); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if s.Total != fixtures.LargeInteractive {
				b.Errorf("total = %d, want %d", s.Total, fixtures.LargeInteractive)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/roundtrip")
			b.ReportMetric(median(inPage), "ms-in-page")
		})
	}
}
