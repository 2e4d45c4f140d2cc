package pagejs_test

import (
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxSettleRequestRows checks settle.js's REQUESTS table row by row
// (docs/settle.md) on the fixtures' live traffic (internal/fixtures/live.go):
// each kind of request is left out by its own row (SettleResult.Ignored) and
// the wait is quiet, well within its 1.5 s cap, although each request is
// still in flight at its end. A beacon is not in the document's load group
// at all (measured): it holds nothing, whatever the row.
func TestFirefoxSettleRequestRows(t *testing.T) {
	srv := fixtures.Server()
	t.Cleanup(srv.Close)
	args := func() pagejs.SettleArgs {
		return pagejs.SettleArgs{QuietMS: 10, CapMS: 1500, LongMS: 30, Began: time.Now().UnixMilli()}
	}
	rows := []struct {
		row    string
		before string // run before the action began
		action string // run after it
	}{
		{"websocket", "", `(window.__ws = new WebSocket("ws://" + location.host + "/live/ws?ms=20"), 1)`},
		{"event-stream", "", `(window.__es = new EventSource("/live/events?ms=20"), 1)`},
		{"before", `(fetch("/live/hold?ms=5000"), 1)`, ""},
		{"streaming", "", `(fetch("/live/stream?ms=30").then((r) => r.body.getReader().read()), 1)`},
		{"long-lived", "", `(fetch("/live/hold?ms=60000"), 1)`},
		{"named long poll", "", `(fetch("/live/poll?ms=60000"), 1)`},
		{"named long poll", "", `(fetch("/live/hold?EIO=4&transport=polling&ms=60000"), 1)`}, // (Socket.IO's polling transport)
		{"beacon-free", "", `(navigator.sendBeacon("/live/beacon?ms=5000", "x"), 1)`},
	}
	for _, r := range rows {
		t.Run(r.row, func(t *testing.T) {
			p := openOn(t, srv.URL, "/live.html")
			if r.before != "" {
				p.js(r.before)
				time.Sleep(200 * time.Millisecond) // (in flight before the action)
			}
			a := args()
			if r.action != "" {
				p.js(r.action)
			}
			var res pagejs.SettleResult
			p.must(isolatedRealm, pagejs.Settle, a, &res)
			if !res.Quiet || res.Pending != 0 || !res.Requests {
				t.Errorf("%+v, want quiet, nothing pending", res)
			}
			if r.row != "beacon-free" && res.Ignored[r.row] != 1 {
				t.Errorf("ignored %v, want one request left out by the %q row", res.Ignored, r.row)
			}
		})
	}
	// A long poll's next round, asked at once when a round that had no
	// answer for over 1 s ended during the wait, is left out at once
	// (long-poll), not only 1 s later (long-lived).
	t.Run("long-poll", func(t *testing.T) {
		p := openOn(t, srv.URL, "/live.html")
		p.js(`(fetch("/live/hold?ms=1300").then(() => fetch("/live/hold?ms=5000")), 1)`)
		time.Sleep(1150 * time.Millisecond)
		a := args()
		// The action's own request (300 ms) holds the wait while the round
		// ends and the next one is asked.
		p.js(`(fetch("/api/jobs/1"), 1)`)
		var res pagejs.SettleResult
		p.must(isolatedRealm, pagejs.Settle, a, &res)
		if !res.Quiet || res.Pending != 0 || res.Ignored["long-poll"] != 1 {
			t.Errorf("%+v, want quiet, the next round left out by the long-poll row", res)
		}
	})
}
