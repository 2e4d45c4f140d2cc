package pagejs_test

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
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
	p.js(`(() => { const d = document.createElement("div"); document.body.prepend(d); d.attachShadow({mode: "open"}).innerHTML = "<button>Shadow press</button>"; return 1; })()`)
	snap := p.snapshot(isolatedRealm)
	// A button of the document (the pres shell's path) and one in a shadow root (an
	// event dispatched from the isolated realm, which keeps its client point).
	buttons := map[string]pagejs.Element{"Trusted only": find(t, snap, "button", "Trusted only"), "Shadow press": find(t, snap, "button", "Shadow press")}
	for _, c := range []struct{ name, setup string }{
		{"as opened", ``},
		{"window moved", win + `.moveTo(160, 120)`},
		{"zoomed", zoom + `.fullZoom = 1.5`},
	} {
		if c.setup != "" {
			chromeJS(`(() => { ` + c.setup + `; return "1"; })()`)
			time.Sleep(200 * time.Millisecond) // (the content process learns of the move and the zoom)
		}
		for _, name := range []string{"Trusted only", "Shadow press"} {
			// (the page realm: test code reading what the page saw)
			p.js(`(() => { const all = [...document.querySelectorAll("button"), ...document.querySelector("div").shadowRoot.querySelectorAll("button")]; const b = all.find((x) => x.textContent === ` + strconv.Quote(name) + `); window.__seen = []; window.__rect = () => { const r = b.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, mozInnerScreenX, mozInnerScreenY, devicePixelRatio]; }; if (!b.__logs) { b.__logs = true; for (const ty of ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]) b.addEventListener(ty, (ev) => window.__seen.push([ty, ev.clientX, ev.clientY, ev.screenX, ev.screenY])); } return 1; })()`)
			e := buttons[name]
			p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, nil)
			var seen [][]any
			var r []float64
			if err := json.Unmarshal([]byte(p.js(`JSON.stringify(window.__seen)`)), &seen); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(p.js(`JSON.stringify(window.__rect())`)), &r); err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, ev := range seen {
				types = append(types, ev[0].(string))
			}
			if strings.Join(types, " ") != "pointerdown mousedown pointerup mouseup click" {
				t.Errorf("%s, %s: want the five events of one click, saw %v", c.name, name, seen)
			}
			switch {
			case c.name == "window moved" && (r[4] != 160 || r[5] <= 120):
				t.Fatalf("the window did not move: the viewport is at (%v, %v) on the screen", r[4], r[5])
			case c.name == "zoomed" && r[6] != 1.5:
				t.Fatalf("the page is not zoomed: devicePixelRatio %v", r[6])
			}
			for _, ev := range seen {
				x, y, sx, sy := ev[1].(float64), ev[2].(float64), ev[3].(float64), ev[4].(float64)
				if x < r[0]-1 || x > r[2]+1 || y < r[1]-1 || y > r[3]+1 {
					t.Errorf("%s, %s: %s at client (%v, %v), outside the button %v", c.name, name, ev[0], x, y, r[:4])
				}
				if math.Abs(sx-(x+r[4])) > 1.5 || math.Abs(sy-(y+r[5])) > 1.5 {
					t.Errorf("%s, %s: %s at screen (%v, %v), want the client point plus the viewport's screen origin (%v, %v)", c.name, name, ev[0], sx, sy, r[4], r[5])
				}
			}
		}
	}
}

// TestFirefoxClickEventsAsAMouse: a trusted click's events say what a mouse's
// say in Firefox: the mouse's pointer id (0, which pointer capture takes, and
// which Firefox's own moves carry: a hover's), a pressed button's pressure, the
// mouse as their input source, so the click Firefox makes of the press and the
// release has pointerType "mouse" (React Aria takes mozInputSource 0 for a screen
// reader's click).
func TestFirefoxClickEventsAsAMouse(t *testing.T) {
	p := open(t, "/forms.html")
	snap := p.snapshot(isolatedRealm)
	e := find(t, snap, "button", "Trusted only")
	// (the page realm: test code recording what the page saw)
	p.js(`(() => { const b = [...document.querySelectorAll("button")].find((x) => x.textContent === "Trusted only"); window.__seen = []; for (const ty of ["pointermove", "pointerdown", "mousedown", "pointerup", "mouseup", "click"]) b.addEventListener(ty, (ev) => { let cap = ""; if (ty === "pointerdown") { try { b.setPointerCapture(ev.pointerId); cap = " captured"; } catch (x) { cap = " " + x.name; } } window.__seen.push(ty + " " + ev.pointerId + " " + ev.pointerType + " " + ev.pressure + " " + ev.buttons + " " + ev.detail + " " + ev.mozInputSource + cap); }); return 1; })()`)
	p.must(isolatedRealm, pagejs.Hover, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, nil)
	hovered := p.js(`window.__seen.splice(0).filter((s) => s.startsWith("pointermove")).slice(0, 1).join("")`)
	p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, nil)
	got := p.js(`window.__seen.join("\n")`)
	// The press's pointer capture ends with its release, as a mouse's: what the pointer
	// does next (a hover elsewhere) is not sent to the button.
	if held := p.js(`[...document.querySelectorAll("button")].find((x) => x.textContent === "Trusted only").hasPointerCapture(0)`); held != "false" {
		t.Errorf("after the click the button still holds the pointer capture (%s)", held)
	}
	want := "pointermove 0 mouse 0 0 0 1\n" +
		"pointerdown 0 mouse 0.5 1 0 1 captured\n" +
		"mousedown undefined undefined undefined 1 1 1\n" +
		"pointerup 0 mouse 0 0 0 1\n" +
		"mouseup undefined undefined undefined 0 1 1\n" +
		"click 0 mouse 0 0 1 1"
	if got != want {
		t.Errorf("a click's events (type pointerId pointerType pressure buttons detail mozInputSource):\n%s\nwant:\n%s", got, want)
	}
	if hovered != "pointermove 0 mouse 0 0 0 1" {
		t.Errorf("a hover's move (Firefox's own): %q, want the same pointer as a click's", hovered)
	}
}
