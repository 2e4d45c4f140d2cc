package browser

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestPatchedInfo: the walk info of a patched result, carried over from the
// result it patches for the rows it took, is what it would be made from
// scratch, whichever bodies were made before.
func TestPatchedInfo(t *testing.T) {
	el := func(name string) pagejs.Element {
		return pagejs.Element{Tag: "button", Role: "button", Name: name, Sel: pagejs.Sel{"#" + name}, FP: pagejs.Fingerprint{Tag: "button", Role: "button", Name: name}}
	}
	base := pagejs.SnapshotResult{Seq: 4, Total: 6}
	for i := range 6 {
		base.Elements = append(base.Elements, el("b"+strconv.Itoa(i)))
	}
	old := newWalkInfo(&base)
	old.body(1, &base.Elements[1])
	old.body(4, &base.Elements[4])
	cases := []struct {
		name  string
		runs  []int
		fresh []pagejs.Element
	}{
		{"one changed", []int{0, 2, 1, 3, 3, 0}, []pagejs.Element{el("new")}},
		{"appended", []int{0, 6, 2}, []pagejs.Element{el("x"), el("y")}},
		{"removed and moved", []int{4, 2, 0, 0, 1, 1}, []pagejs.Element{el("b1")}},
		{"all fresh", []int{0, 0, 2}, []pagejs.Element{el("p"), el("b4")}},
		{"duplicate keys", []int{1, 1, 0, 1, 1, 1}, []pagejs.Element{el("b1")}},
	}
	for _, c := range cases {
		r := pagejs.SnapshotResult{Seq: 5, Base: 4, Runs: c.runs, Elements: c.fresh, Total: 10}
		if err := r.ApplyPatch(&base); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, want := patchedInfo(old, c.runs, &r), newWalkInfo(&r)
		if !reflect.DeepEqual(got.sums, want.sums) || !reflect.DeepEqual(got.keys, want.keys) || !reflect.DeepEqual(got.index, want.index) {
			t.Errorf("%s: patched info differs from a fresh one", c.name)
		}
		for i := range r.Elements {
			if b, w := got.body(i, &r.Elements[i]), elementBody(&r.Elements[i]); b != w {
				t.Errorf("%s: body %d = %q, want %q", c.name, i, b, w)
			}
		}
	}
}

// TestRefEpoch: the ref table's epoch moves with every change of what it
// holds and only then (a rendering of the kept result stands while it holds).
func TestRefEpoch(t *testing.T) {
	var refs refTable
	refs.reset()
	loc := func(name string, node int) *Locator {
		fp := pagejs.Fingerprint{Tag: "button", Name: name}
		return &Locator{generation: 1, browserID: 7, sel: pagejs.Sel{"#b"}, fp: fp, sum: fp.Sum(), node: node, window: 3}
	}
	e := refs.epoch
	step := func(what string, moved bool, f func()) {
		t.Helper()
		f()
		if (refs.epoch != e) != moved {
			t.Errorf("%s: epoch %d after %d, want moved=%v", what, refs.epoch, e, moved)
		}
		e = refs.epoch
	}
	step("new node ref", true, func() { refs.addNode(loc("A", 1)) })
	step("same locator again", false, func() { refs.addNode(loc("A", 1)) })
	step("the node's locator changed", true, func() { refs.addNode(loc("B", 1)) })
	step("new unbound ref", true, func() { refs.add(loc("C", 0)) })
	step("unbound ref found again", false, func() { refs.add(loc("C", 0)) })
	step("reset", true, refs.reset)
}
