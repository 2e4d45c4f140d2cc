package pagejs_test

import (
	"reflect"
	"slices"
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

// A resident's {same} answer hands the binding the elements of the result it names:
// the pin is not part of what "the same" means (every walk has a fresh one), the ids
// are those of the earlier binding, also when a walk without a pin came in between
// (then the hand-off is of that walk's elements, not of the last one bound) or the
// last hand-off was never taken; and the ids still act on their nodes.
func TestBindRefsKeptSame(t *testing.T) {
	p := open(t, "/labels.html")
	actor := p.resident(pagejs.Snapshot)
	keys := []string{"00000000000000000000000000000001", "00000000000000000000000000000002",
		"00000000000000000000000000000003", "00000000000000000000000000000004", "00000000000000000000000000000005",
		"00000000000000000000000000000006"}
	var held pagejs.SnapshotResult
	snap := func(pin string) (same bool) {
		t.Helper()
		var r pagejs.SnapshotResult
		if err := p.call(actor, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 500, Pin: pin, Have: held.Seq}, &r); err != nil {
			t.Fatal(err)
		}
		if r.Same != 0 {
			if r.Same != held.Seq {
				t.Fatalf("same %d, holding %d", r.Same, held.Seq)
			}
			return true
		}
		if r.Base != 0 {
			if err := r.ApplyPatch(&held); err != nil {
				t.Fatal(err)
			}
		}
		held = r
		return false
	}
	bind := func(key string) []int {
		t.Helper()
		var r pagejs.BindRefsResult
		p.must(isolatedRealm, pagejs.BindRefs, pagejs.BindRefsArgs{Key: key, Max: 500, WaitMS: 2000}, &r)
		ids, ok := r.IDs(len(held.Elements))
		if !ok {
			t.Fatalf("not bound: %+v", r)
		}
		return ids
	}
	snap(keys[0])
	first := bind(keys[0])
	if !snap(keys[1]) {
		t.Fatal("an unchanged page with a new pin was walked again")
	}
	if again := bind(keys[1]); !reflect.DeepEqual(again, first) {
		t.Fatalf("ids after {same}: %v, want %v", again, first)
	}
	// A walk without a pin (a new element), then {same} with one.
	p.js(`document.body.prepend(Object.assign(document.createElement("button"), {textContent: "Late"}))`)
	if snap("") {
		t.Fatal("a changed page answered {same}")
	}
	if !snap(keys[2]) {
		t.Fatal("unchanged since the walk without a pin, but walked again")
	}
	ids := bind(keys[2])
	late := -1
	for i := range held.Elements {
		if held.Elements[i].Name == "Late" {
			late = i
		}
	}
	if late != 0 || len(ids) != len(first)+1 || !reflect.DeepEqual(ids[1:], first) || slices.Contains(first, ids[0]) {
		t.Fatalf("ids after a walk without a pin: %v (first %v, Late at %d)", ids, first, late)
	}
	var ar pagejs.ActionResult
	b := held.Elements[late]
	p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP, Ref: ids[late]}, &ar)
	if err := p.run(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP, Ref: ids[1]}, &ar); !isCode(err, errcode.StaleElement) {
		t.Errorf("a click with another node's id after {same}: %v, want stale_element", err)
	}
	// A hand-off never taken: the next {same} hands the elements over again. (The
	// clicks moved focus and the pointer: a walk first.)
	snap(keys[3])
	ids = bind(keys[3])
	if !snap(keys[4]) || !snap(keys[5]) {
		t.Fatal("an unchanged page was walked again")
	}
	if again := bind(keys[5]); !reflect.DeepEqual(again, ids) {
		t.Fatalf("ids after an untaken hand-off: %v, want %v", again, ids)
	}
}
