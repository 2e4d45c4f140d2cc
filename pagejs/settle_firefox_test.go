package pagejs_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxSettle: a quiet page settles after one window; a page that keeps
// mutating is waited for up to the cap; a request of the document in flight holds the
// wait in the isolated realm (its load group), where it is seen.
func TestFirefoxSettle(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/forms.html")
			var q pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 40, CapMS: 2000}, &q)
			if !q.Quiet || q.WaitedMS < 40 || q.WaitedMS > 400 || q.Mutations != 0 {
				t.Errorf("quiet page: %+v, want quiet after ≈40 ms", q)
			}
			if q.Requests != (r == isolatedRealm) {
				t.Errorf("requests seen: %v in the %s realm", q.Requests, r)
			}
			// The address at the end of the wait, a same-document change included.
			p.js(`(() => { setTimeout(() => history.pushState(null, "", "/forms.html?settled=1"), 5); return 1; })()`)
			var moved pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 40, CapMS: 2000}, &moved)
			if !strings.HasSuffix(moved.URL, "/forms.html?settled=1") {
				t.Errorf("URL after the wait: %q, want the pushed one", moved.URL)
			}

			p.js(`(() => { let n = 0; window.__iv = setInterval(() => { document.body.dataset.n = String(n++); }, 5); return 1; })()`)
			var busy pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 80, CapMS: 300}, &busy)
			p.js(`clearInterval(window.__iv)`)
			if busy.Quiet || busy.WaitedMS < 300 || busy.Mutations == 0 {
				t.Errorf("busy page: %+v, want the cap (300 ms) with mutations", busy)
			}

			// /api/jobs answers after 450 ms (internal/fixtures).
			p.js(`(() => { window.__done = "no"; fetch("/api/jobs?q=x").then((r) => r.json()).then(() => { window.__done = "yes"; }); return 1; })()`)
			var req pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 40, CapMS: 3000}, &req)
			done := p.js(`window.__done`)
			if r == isolatedRealm && (!req.Quiet || req.WaitedMS < 400 || done != "yes") {
				t.Errorf("request in flight: %+v, response handled: %s; want the wait to outlast the request", req, done)
			}
			if r == pageRealm && (!req.Quiet || req.WaitedMS > 400) {
				t.Errorf("request in flight, page realm: %+v; want quiet after one window (requests are not seen there)", req)
			}

			// change: a quiet page waits out the cap; a late answer that changes the
			// page ends the wait early.
			var none pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 1, CapMS: 200, Change: true}, &none)
			if none.Quiet || none.WaitedMS < 200 {
				t.Errorf("change on a quiet page: %+v, want the cap", none)
			}
			p.js(`(() => { fetch("/api/jobs/1").then((r) => r.json()).then(() => { document.body.dataset.late = "1"; }); return 1; })()`)
			var woke pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 1, CapMS: 5000, Change: true}, &woke)
			if !woke.Quiet || woke.WaitedMS >= 4000 {
				t.Errorf("change after a late answer: %+v, want an early wake", woke)
			}
			// (The page realm may wake at the request's end, before the answer's
			// handler changed the page: that change must not land in the next wait.)
			if got := p.waitJS(`document.body.dataset.late`, "1"); got != "1" {
				t.Fatalf("the late answer never changed the page: %q", got)
			}
			// A change inside a shadow root inside a shadow root is a change too.
			p.js(`(() => { const outer = document.createElement("div"); document.body.append(outer);
				const inner = document.createElement("span"); outer.attachShadow({mode: "open"}).append(inner);
				const deep = inner.attachShadow({mode: "open"}); window.__deep = deep; return 1; })()`)
			p.js(`(() => { setTimeout(() => { window.__deep.textContent = "deep change"; }, 30); return 1; })()`)
			var deep pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 1, CapMS: 1500, Change: true}, &deep)
			if !deep.Quiet || deep.Mutations == 0 {
				t.Errorf("change in a nested shadow root: %+v, want it seen (mutations > 0)", deep)
			}
			if got := p.waitJS(`window.__deep.textContent`, "deep change"); got != "deep change" {
				t.Fatalf("the nested shadow root never changed: %q", got)
			}
			// change with a calm: after the change, quietMs without a mutation, at most
			// gapMs after it: a page that keeps changing ends the pause long before the cap.
			p.js(`(() => { setTimeout(() => { document.body.dataset.calm = "1"; }, 30); return 1; })()`)
			var calm pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 4, CapMS: 5000, Change: true, GapMS: 25}, &calm)
			if !calm.Quiet || calm.Mutations != 1 || calm.WaitedMS >= 4000 {
				t.Errorf("change, then calm: %+v, want an early end after the one mutation", calm)
			}
			p.js(`(() => { let n = 0; window.__iv2 = setInterval(() => { document.body.dataset.m = String(n++); }, 1); return 1; })()`)
			var busyCalm pagejs.SettleResult
			p.must(r, pagejs.Settle, pagejs.SettleArgs{QuietMS: 4, CapMS: 5000, Change: true, GapMS: 25}, &busyCalm)
			p.js(`clearInterval(window.__iv2)`)
			if !busyCalm.Quiet || busyCalm.WaitedMS >= 4000 {
				t.Errorf("change on a page that keeps changing: %+v, want an end gapMs after the change", busyCalm)
			}
		})
	}
}
