package pagejs_test

import (
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxSettleTimers: after a text entry, the isolated realm's settle waits for
// the timers the typing set (a debounced handler, libAct.js watchTimers): a 120 ms
// debounce is waited for and its change seen; a 2 s timer holds the wait to the cap,
// which then counts as settled; without a text entry before it, a page timer holds
// nothing (a click's ripple or toast timer is no render to wait for). The page realm
// cannot watch timers: there the debounce is not waited for.
func TestFirefoxSettleTimers(t *testing.T) {
	args := pagejs.SettleArgs{QuietMS: 10, LongMS: 30, CapMS: 250}
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/forms.html")
			user := find(t, p.snapshot(r), "textbox", "User")
			p.js(`(() => { let h = null; const u = document.getElementById("user");
				u.addEventListener("input", () => { clearTimeout(h); h = setTimeout(() => { document.body.dataset.filtered = u.value; }, u.value.endsWith("slow") ? 2000 : 120); });
				return 1; })()`)
			typeThenSettle := func(text string) (pagejs.SettleResult, string) {
				var res pagejs.ActionResult
				p.must(r, pagejs.TypeText, pagejs.TypeTextArgs{Sel: user.Sel, FP: user.FP, Text: text, FirstChunk: true}, &res)
				var q pagejs.SettleResult
				p.must(r, pagejs.Settle, args, &q)
				return q, p.js(`document.body.dataset.filtered`)
			}
			q, got := typeThenSettle("abc")
			if r == isolatedRealm && (!q.Quiet || q.HeldMS < 50 || q.Mutations == 0 || got != "abc") {
				t.Errorf("a 120 ms debounce: %+v, page changed to %q; want the wait held for its timer and the change seen", q, got)
			}
			if r == pageRealm && (q.HeldMS != 0 || q.WaitedMS > 100) {
				t.Errorf("page realm: %+v; want no hold (timers cannot be watched there)", q)
			}
			p.waitJS(`document.body.dataset.filtered`, "abc")

			q, _ = typeThenSettle("slow")
			if r == isolatedRealm && (!q.Quiet || q.WaitedMS < 240 || q.HeldMS < 200) {
				t.Errorf("a 2 s timer: %+v; want the wait held to the cap (250 ms) and counted as settled", q)
			}
			p.waitJS(`document.body.dataset.filtered`, "abcslow")

			// No text entry: a timer the page sets holds nothing.
			p.js(`(() => { setTimeout(() => { document.body.dataset.late = "1"; }, 120); return 1; })()`)
			var plain pagejs.SettleResult
			p.must(r, pagejs.Settle, args, &plain)
			if !plain.Quiet || plain.HeldMS != 0 || plain.WaitedMS > 100 {
				t.Errorf("a page timer without a text entry: %+v; want quiet after the window", plain)
			}
		})
	}
}
