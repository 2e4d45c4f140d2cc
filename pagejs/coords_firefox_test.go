package pagejs_test

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// TestFirefoxClickCoordinates: the page reads a trusted click's events where the
// click landed: clientX/clientY inside the element, screenX/screenY that far from the
// viewport's screen origin. Also with the browser window moved and the page zoomed
// (both undone after). Events dispatched through the pres shell take their position
// from screenX/screenY alone: without them the page read (0, -toolbars) for every
// click, and Radix's select ignored the click on an option.
func TestFirefoxClickCoordinates(t *testing.T) {
	p := open(t, "/forms.html")
	parent, err := p.c.ParentProcessConsole(p.ctx)
	if err != nil {
		t.Fatal(err)
	}
	chromeJS := func(src string) string {
		t.Helper()
		res, err := p.c.EvaluateString(p.ctx, parent, src, rdp.EvalOptions{Await: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return res
	}
	win := `Services.wm.getMostRecentWindow("navigator:browser")`
	zoom := `BrowsingContext.getCurrentTopByBrowserId(` + strconv.FormatInt(p.id, 10) + `)`
	at := chromeJS(`(() => { const w = ` + win + `; return w.screenX + "," + w.screenY; })()`)
	t.Cleanup(func() {
		chromeJS(`(() => { ` + win + `.moveTo(` + at + `); ` + zoom + `.fullZoom = 1; return "1"; })()`)
	})
	e := find(t, p.snapshot(isolatedRealm), "button", "Trusted only")
	for _, c := range []struct{ name, setup string }{
		{"as opened", ``},
		{"window moved", win + `.moveTo(160, 120)`},
		{"zoomed", zoom + `.fullZoom = 1.5`},
	} {
		if c.setup != "" {
			chromeJS(`(() => { ` + c.setup + `; return "1"; })()`)
			time.Sleep(200 * time.Millisecond) // (the content process learns of the move and the zoom)
		}
		p.js(`(() => { const b = [...document.querySelectorAll("button")].find((x) => x.textContent === "Trusted only"); window.__seen = []; window.__rect = () => { const r = b.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, mozInnerScreenX, mozInnerScreenY, devicePixelRatio]; }; for (const ty of ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]) b.addEventListener(ty, (ev) => window.__seen.push([ty, ev.clientX, ev.clientY, ev.screenX, ev.screenY]), {once: true}); return "1"; })()`)
		p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, nil)
		var seen [][]any
		var r []float64
		if err := json.Unmarshal([]byte(p.js(`JSON.stringify(window.__seen)`)), &seen); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(p.js(`JSON.stringify(window.__rect())`)), &r); err != nil {
			t.Fatal(err)
		}
		if len(seen) != 5 {
			t.Errorf("%s: want the five events of a click, saw %v", c.name, seen)
		}
		for _, ev := range seen {
			x, y, sx, sy := ev[1].(float64), ev[2].(float64), ev[3].(float64), ev[4].(float64)
			if x < r[0]-1 || x > r[2]+1 || y < r[1]-1 || y > r[3]+1 {
				t.Errorf("%s: %s at client (%v, %v), outside the button %v", c.name, ev[0], x, y, r[:4])
			}
			if math.Abs(sx-(x+r[4])) > 1.5 || math.Abs(sy-(y+r[5])) > 1.5 {
				t.Errorf("%s: %s at screen (%v, %v), want the client point plus the viewport's screen origin (%v, %v)", c.name, ev[0], sx, sy, r[4], r[5])
			}
		}
		t.Logf("%s: %v, button %v", c.name, seen, r)
	}
}
