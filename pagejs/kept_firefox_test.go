package pagejs_test

import (
	"encoding/json"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxIsolatedKept: a cached evaluation on a console that keeps no copy runs
// nothing and answers resident_missing; the whole script keeps its copies and lib.js's,
// after which the cached form acts like it, on this document and on the next one (the
// copies close over no evaluation's window); and the page sees none of it.
func TestFirefoxIsolatedKept(t *testing.T) {
	p := open(t, "/forms.html") // a new connection: a new content-process console
	s := p.snapshot(isolatedRealm)
	btn := find(t, s, "button", "Trusted only")
	args := pagejs.ClickArgs{Sel: btn.Sel, FP: btn.FP}
	var res pagejs.ActionResult
	if err := p.run(cachedRealmOnly, pagejs.Click, args, &res); !isCode(err, errcode.ResidentMissing) {
		t.Fatalf("cached click before any whole one: %v, want %s", err, errcode.ResidentMissing)
	}
	if got := p.js(`document.getElementById("accepted").textContent + "/" + document.getElementById("ignored").textContent`); got != "0/0" {
		t.Fatalf("the cached click that found no copy acted: %q", got)
	}
	p.must(isolatedRealm, pagejs.Click, args, &res)
	if !res.Trusted {
		t.Fatalf("whole click: %+v", res)
	}
	for i := 0; i < 3; i++ {
		res = pagejs.ActionResult{}
		if err := p.run(cachedRealmOnly, pagejs.Click, args, &res); err != nil || !res.Trusted {
			t.Fatalf("cached click %d: %v %+v", i, err, res)
		}
	}
	if got := p.js(`document.getElementById("accepted").textContent + "/" + document.getElementById("ignored").textContent`); got != "4/0" {
		t.Errorf("accepted/ignored clicks %q, want 4/0", got)
	}
	// The page's window holds none of the kept names.
	if got := p.js(`Object.getOwnPropertyNames(window).filter(n => n.startsWith("fxmcp")).join()`); got != "" {
		t.Errorf("the page sees %q on its window", got)
	}
	// The next document: the same copies act on it, not on the old window.
	old := p.target().InnerWindowID
	p.assign("/hostile.html", old)
	var d pagejs.Element
	if err := p.run(cachedRealmOnly, pagejs.Describe, pagejs.DescribeArgs{Sel: pagejs.Sel{"#real"}}, &d); !isCode(err, errcode.ResidentMissing) {
		t.Fatalf("cached describe never sent whole: %v, want %s", err, errcode.ResidentMissing)
	}
	p.must(cachedRealm, pagejs.Describe, pagejs.DescribeArgs{Sel: pagejs.Sel{"#real"}}, &d)
	d = pagejs.Element{}
	if err := p.run(cachedRealmOnly, pagejs.Describe, pagejs.DescribeArgs{Sel: pagejs.Sel{"#real"}}, &d); err != nil || d.Name != "Buy now" {
		t.Fatalf("cached describe on the next document: %v %+v", err, d)
	}
	if got := p.js(`document.getElementById("real-log").textContent`); got != "" {
		t.Errorf("describe clicked: %q", got)
	}
}

// TestFirefoxIsolatedKeptHostile: a hostile page that defines every kept name on its
// window and on Object.prototype (functions that would record being called) changes
// nothing: the cached scripts never see them, act on the real elements with trusted
// input, and a cached call with no copy still finds none.
func TestFirefoxIsolatedKeptHostile(t *testing.T) {
	p := open(t, "/hostile.html")
	names := []string{pagejs.LibKept}
	for _, s := range pagejs.Scripts() {
		if n := pagejs.KeptName(s); n != "" {
			names = append(names, n)
		}
	}
	list, _ := json.Marshal(names)
	// Test code standing for the page's own script (the page realm).
	p.js(`(() => { window.fxmcpCalled = []; for (const n of ` + string(list) + `) {
		const f = function () { window.fxmcpCalled.push(n); return function () { window.fxmcpCalled.push(n); return {}; }; };
		window[n] = f;
		Object.defineProperty(Object.prototype, n, {get() { window.fxmcpCalled.push("get " + n); return f; }, configurable: false});
	} return "ok"; })()`)
	var res pagejs.ActionResult
	if err := p.run(cachedRealmOnly, pagejs.Click, pagejs.ClickArgs{Sel: pagejs.Sel{"#real"}}, &res); !isCode(err, errcode.ResidentMissing) {
		t.Fatalf("cached click with only the page's copies: %v, want %s", err, errcode.ResidentMissing)
	}
	real, realIn := hostileElements(t, p.snapshot(cachedRealm))
	for i := 0; i < 2; i++ { // whole, then cached
		p.must(cachedRealm, pagejs.Click, pagejs.ClickArgs{Sel: real.Sel, FP: real.FP}, &res)
		if !res.Trusted {
			t.Fatalf("click %d not trusted: %+v", i, res)
		}
	}
	if err := p.run(cachedRealmOnly, pagejs.Fill, pagejs.FillArgs{Sel: realIn.Sel, FP: realIn.FP, Value: "1"}, &res); !isCode(err, errcode.ResidentMissing) {
		t.Fatalf("cached fill never sent whole: %v", err)
	}
	p.must(cachedRealm, pagejs.Fill, pagejs.FillArgs{Sel: realIn.Sel, FP: realIn.FP, Value: "42"}, &res)
	p.must(cachedRealm, pagejs.TypeText, pagejs.TypeTextArgs{Sel: realIn.Sel, FP: realIn.FP, Text: "7", FirstChunk: true}, &res)
	checks := map[string]string{
		`document.getElementById("real-log").textContent`:        "click:true;click:true;",
		`document.getElementById("decoy-log").textContent`:       "",
		`document.getElementById("real-input").value`:            "427",
		`document.getElementById("decoy-input-log").textContent`: "",
		`window.fxmcpCalled.join()`:                              "",
		`typeof window[` + string(mustJSON(names[0])) + `]`:      "function",
	}
	for expr, want := range checks {
		if got := p.js(expr); got != want {
			t.Errorf("%s = %q, want %q", expr, got, want)
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
