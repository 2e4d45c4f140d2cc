package pagejs_test

import (
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// BindRefs takes the snapshot's hand-off (leaving no trace on the page), gives
// the listed nodes ids, and actions check them: the right id acts, another
// node's id is stale_element. A hand-off that never comes is unbound.
func TestBindRefs(t *testing.T) {
	p := open(t, "/labels.html")
	symbols := p.js(`Object.getOwnPropertySymbols(window).length`)
	const key = "0123456789abcdef0123456789abcdef"
	var s pagejs.SnapshotResult
	p.must(pageRealm, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 500, Pin: key}, &s)
	if got := p.js(`Object.getOwnPropertySymbols(window).length`); got == symbols {
		t.Fatalf("the walk left no hand-off")
	}
	var r pagejs.BindRefsResult
	p.must(isolatedRealm, pagejs.BindRefs, pagejs.BindRefsArgs{Key: key, Max: 500, WaitMS: 2000}, &r)
	ids, ok := r.IDs(len(s.Elements))
	if !ok {
		t.Fatalf("not bound: %+v", r)
	}
	if got := p.js(`Object.getOwnPropertySymbols(window).length`); got != symbols {
		t.Errorf("the hand-off was left on the page: %s symbols, want %s", got, symbols)
	}
	b := find(t, s, "button", "Shadow button")
	var i int
	for i = range s.Elements {
		if s.Elements[i].Name == "Shadow button" {
			break
		}
	}
	var ar pagejs.ActionResult
	p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP, Ref: ids[i]}, &ar)
	other := ids[(i+1)%len(ids)]
	if err := p.run(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP, Ref: other}, &ar); !isCode(err, errcode.StaleElement) {
		t.Errorf("a click with another node's id: %v, want stale_element", err)
	}
	// A hand-off that never comes: unbound once WaitMS is over.
	r = pagejs.BindRefsResult{}
	p.must(isolatedRealm, pagejs.BindRefs, pagejs.BindRefsArgs{Key: "ffffffffffffffffffffffffffffffff", Max: 500, WaitMS: 50}, &r)
	if r.Bound {
		t.Errorf("bound without a hand-off: %+v", r)
	}
	if err := p.run(isolatedRealm, pagejs.BindRefs, pagejs.BindRefsArgs{Key: "not hex", Max: 500, WaitMS: 50}, &r); !isCode(err, errcode.InvalidArgument) {
		t.Errorf("bad key: %v", err)
	}
}
