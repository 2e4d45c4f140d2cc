package browser

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// testView is a bound view of n buttons named prefix 1…n (node ids from
// id0), in window win.
func testView(prefix string, n, id0 int, win int64) *pageView {
	r := &pagejs.SnapshotResult{Total: n}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("%s %d", prefix, i)
		r.Elements = append(r.Elements, pagejs.Element{Tag: "button", Role: "button", Name: name,
			Sel: pagejs.Sel{fmt.Sprintf("#%s-%d", strings.ReplaceAll(prefix, " ", "-"), i)}, FP: pagejs.Fingerprint{Tag: "button", Role: "button", Name: name}})
	}
	w := newWalkInfo(r)
	w.window = win
	for i := range n {
		w.ids = append(w.ids, id0+i)
	}
	return newView(1, r, w, false)
}

func testRef(i int) string { return fmt.Sprintf("e%d", i) }

// TestRenderDeltaBounds: the lines of a delta's parts share one bound (30
// element lines), a section whose share is spent writes no title, a frame's
// lines come under its line and end with the frame's end line, and the
// count of those left out is said once.
func TestRenderDeltaBounds(t *testing.T) {
	oldTop, nvTop := testView("Top", 20, 0, 1), testView("Top", 20, 0, 1)
	grown := testView("Top", 45, 0, 1) // 25 appeared
	top := docDelta{d: diffViews(oldTop, grown, nil), old: oldTop, nv: grown, ref: testRef}
	if len(top.d.appeared) != 25 || len(top.d.changed)+len(top.d.gone) != 0 {
		t.Fatalf("diff: %d appeared, %d changed, %d gone", len(top.d.appeared), len(top.d.changed), len(top.d.gone))
	}
	oldF, nvF := testView("Frame", 3, 100, 2), testView("Frame", 10, 100, 2) // 7 appeared
	frame := docDelta{frame: `--- frame "Form" origin="https://x.example" ---`, d: diffViews(oldF, nvF, nil), old: oldF, nv: nvF, ref: testRef}
	obs := renderDelta([]docDelta{top, frame}, observeOpts{})
	if obs.st["appeared"] != 32 || obs.st["shown"] != 30 || obs.st["frames"] != 1 {
		t.Errorf("counts: %v", obs.st)
	}
	if !strings.Contains(obs.text, "Changes since your last view: 32 appeared, 0 changed, 0 gone.") ||
		!strings.Contains(obs.text, "--- frame \"Form\" origin=\"https://x.example\" ---\nappeared:\n[e3] button \"Frame 4\"\n") ||
		!strings.Contains(obs.text, "[e7] button \"Frame 8\"\n--- end of frame ---\n<<<end") ||
		!strings.HasSuffix(obs.text, "[2 more not shown; call snapshot_page to see the whole page]") {
		t.Errorf("two parts over the bound:\n%s", obs.text)
	}
	// Past the bound a section writes nothing, its title neither; a frame
	// with nothing shown writes no frame line.
	grown = testView("Top", 60, 0, 1)
	top = docDelta{d: diffViews(nvTop, grown, nil), old: nvTop, nv: grown, ref: testRef}
	gone := docDelta{frame: `--- frame "Gone" ---`, old: oldF, nv: &pageView{res: &pagejs.SnapshotResult{}, info: &walkInfo{}, complete: true},
		d: delta{gone: oldF.info.keys}, goneFrame: true}
	obs = renderDelta([]docDelta{top, gone}, observeOpts{})
	if strings.Contains(obs.text, "gone:") || strings.Contains(obs.text, `--- frame "Gone"`) || strings.Contains(obs.text, "end of frame") ||
		!strings.Contains(obs.text, "1 frame is no longer shown: its elements are gone.") || !strings.Contains(obs.text, "[13 more not shown;") {
		t.Errorf("a gone frame past the bound:\n%s", obs.text)
	}
	// What changed in a frame comes before what went away at the top.
	shrunk := testView("Top", 10, 0, 1) // 30 of 40 gone
	was := testView("Top", 40, 0, 1)
	top = docDelta{d: diffViews(was, shrunk, nil), old: was, nv: shrunk, ref: testRef, issued: func(int) (string, bool) { return "", false }}
	fOld, fNew := testView("Frame", 3, 100, 2), testView("Frame", 3, 100, 2)
	fNew.res.Elements[1].Name = "Frame 2, renamed"
	frame = docDelta{frame: `--- frame "Form" ---`, d: diffViews(fOld, fNew, nil), old: fOld, nv: fNew, ref: testRef}
	obs = renderDelta([]docDelta{top, frame}, observeOpts{})
	if !strings.Contains(obs.text, "--- frame \"Form\" ---\nchanged:\n[e1] button \"Frame 2, renamed\"\n--- end of frame ---") ||
		strings.Count(obs.text, "\n- button \"Top ") != 29 || !strings.Contains(obs.text, "[1 more not shown;") {
		t.Errorf("a frame's change past the top's gone lines:\n%s", obs.text)
	}
	// A renewed view: appeared first, then as before, within the bound.
	nv := testView("Top", 22, 0, 1)
	r := renewed(diffViews(oldTop, nv, nil), nv)
	obs = renderDelta([]docDelta{{d: r, old: oldTop, nv: nv, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "appeared:\n[e20] button \"Top 21\"\n[e21] button \"Top 22\"\nas before:\n[e0] button \"Top 1\"\n") ||
		obs.st["renewed"] != true || obs.st["shown"] != 22 || strings.Contains(obs.text, "more not shown") {
		t.Errorf("renewed:\n%s\n%v", obs.text, obs.st)
	}
}

// TestDeltaReordered: elements that are in both views, unchanged, in another
// place in the page's order are listed as moved, with the element now before
// them: the fewest such (an item dragged from first to third is the one moved;
// an insertion or a removal moves nothing). One that changed is listed as
// changed only.
func TestDeltaReordered(t *testing.T) {
	order := func(v *pageView, at ...int) *pageView { // v's elements in this order (old indexes)
		r := &pagejs.SnapshotResult{Total: len(at)}
		w := &walkInfo{window: v.info.window, index: map[string]int{}}
		for _, j := range at {
			r.Elements = append(r.Elements, v.res.Elements[j])
			w.sums, w.keys, w.bodies = append(w.sums, v.info.sums[j]), append(w.keys, v.info.keys[j]), append(w.bodies, "")
			w.ids = append(w.ids, v.info.ids[j])
			w.index[v.info.keys[j]] = len(w.keys) - 1
		}
		return newView(1, r, w, false)
	}
	old := testView("Skill", 4, 0, 1)
	for _, c := range []struct {
		name  string
		at    []int
		moved []int // new indexes
	}{
		{"dragged first to third", []int{1, 2, 0, 3}, []int{2}},
		{"last to first", []int{3, 0, 1, 2}, []int{0}},
		{"two swapped", []int{1, 0, 2, 3}, []int{0}},
		{"reversed", []int{3, 2, 1, 0}, []int{0, 1, 2}},
		{"one removed", []int{0, 2, 3}, nil},
		{"the same order", []int{0, 1, 2, 3}, nil},
	} {
		nv := order(old, c.at...)
		d := diffViews(old, nv, nil)
		if !slices.Equal(d.reordered, c.moved) {
			t.Errorf("%s: moved %v, want %v", c.name, d.reordered, c.moved)
		}
	}
	nv := order(old, 1, 2, 0, 3)
	obs := renderDelta([]docDelta{{d: diffViews(old, nv, nil), old: old, nv: nv, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "Changes since your last view: 0 appeared, 0 changed, 0 gone, 1 moved in the page's order.") ||
		!strings.Contains(obs.text, "moved:\n[e2] button \"Skill 1\" (now after [e1])\n") || obs.st["reordered"] != 1 {
		t.Errorf("an item dragged:\n%s\n%v", obs.text, obs.st)
	}
	nv = order(old, 3, 0, 1, 2)
	obs = renderDelta([]docDelta{{d: diffViews(old, nv, nil), old: old, nv: nv, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "[e0] button \"Skill 4\" (now first)") {
		t.Errorf("an item moved to the top:\n%s", obs.text)
	}
	nv = order(old, 1, 2, 0, 3)
	nv.res.Elements[2].Name = "Skill 1, renamed"
	if d := diffViews(old, nv, nil); len(d.reordered) != 0 || !slices.Equal(d.changed, []int{2}) {
		t.Errorf("moved and renamed: changed %v, moved %v; want it changed only", d.changed, d.reordered)
	}
	// Two swapped, the one pressed changed: the other one did not move.
	nv = order(old, 1, 0, 2, 3)
	nv.res.Elements[1].Name = "Skill 1, pressed"
	if d := diffViews(old, nv, nil); len(d.reordered) != 0 || !slices.Equal(d.changed, []int{1}) {
		t.Errorf("swapped, one changed: changed %v, moved %v; want the changed one only", d.changed, d.reordered)
	}
}

// TestDeltaPastACutView: after a view cut short (snapshot_page with a small
// max_elements), the elements past its end are not compared, nor listed as
// appeared; one that appeared within its reach is.
func TestDeltaPastACutView(t *testing.T) {
	full := testView("Field", 27, 0, 1)
	cut := testView("Field", 27, 0, 1)
	cut.res.Elements, cut.info.keys, cut.info.ids = cut.res.Elements[:5], cut.info.keys[:5], cut.info.ids[:5]
	cut.complete = false
	d := diffViews(cut, full, nil)
	if len(d.appeared) != 0 || d.unseen != 22 {
		t.Errorf("after a view of 5 of 27: %d appeared, %d not compared; want 0 and 22", len(d.appeared), d.unseen)
	}
	full.res.Elements[0].Name = "Field 1, filled"
	full.info.bodies[0] = "" // (made by the diff above)
	obs := renderDelta([]docDelta{{d: diffViews(cut, full, nil), old: cut, nv: full, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "Changes since your last view: 0 appeared, 1 changed, 0 gone. Your last view was cut short (max_elements): the 22 elements after its end were not compared") ||
		obs.st["not_compared"] != 22 || strings.Contains(obs.text, "appeared:") {
		t.Errorf("a change after a cut view:\n%s\n%v", obs.text, obs.st)
	}
	full.res.Elements[0].Name = "Field 1"
	full.info.bodies[0] = ""
	obs = renderDelta([]docDelta{{d: diffViews(cut, full, nil), old: cut, nv: full, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "No change to the actionable elements since your last view, as the page reports them (only the 5 your last view had, of 27, were compared).") {
		t.Errorf("no change after a cut view:\n%s", obs.text)
	}
	// A field inserted after the third: within the cut view's reach, it appeared.
	grown := testView("Field", 28, 0, 1)
	grown.res.Elements = append(append([]pagejs.Element{}, full.res.Elements[:3]...), append([]pagejs.Element{{Tag: "input", Role: "textbox", Name: "New", Sel: pagejs.Sel{"#new"}}}, full.res.Elements[3:]...)...)
	w := newWalkInfo(grown.res)
	w.window, w.ids = 1, append(append(append([]int{}, 0, 1, 2), 999), full.info.ids[3:]...)
	grown.info = w
	if d := diffViews(cut, grown, nil); !slices.Equal(d.appeared, []int{3}) || d.unseen != 22 {
		t.Errorf("a field inserted within the cut view's reach: appeared %v, %d not compared; want [3] and 22", d.appeared, d.unseen)
	}
}

// testDoc is a read document of window win (a frame's when frame is set)
// with buttons named prefix 1…n and, after them, frame elements whose
// browsing contexts are frames.
func testDoc(prefix string, n int, win int64, frame bool, frames ...int64) *docSnap {
	v := testView(prefix, n, int(win)*1000, win)
	d := &docSnap{t: rdp.Target{InnerWindowID: win, BrowsingContextID: win, Frame: frame}, r: *v.res, b: binding{ids: v.info.ids, frames: map[int]int64{}}}
	for k, id := range frames {
		d.r.Elements = append(d.r.Elements, pagejs.Element{Tag: "iframe", Sel: pagejs.Sel{fmt.Sprintf("#f%d", k)}, FP: pagejs.Fingerprint{Tag: "iframe"}})
		d.r.Total++
		d.b.ids = append(d.b.ids, int(win)*1000+n+k)
		d.b.frames[n+k] = id
	}
	return d
}

// TestViewKeepsUnreadFrames: a frame of the last view that a read could not
// tell about (its document unread, a frame inside one, or frames the read
// could not place) stays in the view and is not gone; one its parent's
// document no longer shows is gone.
func TestViewKeepsUnreadFrames(t *testing.T) {
	s := New(Options{})
	sel := &selection{}
	read := func(top *docSnap, docs ...*docSnap) *viewRead {
		m := map[int64]*docSnap{}
		for _, d := range docs {
			m[d.t.BrowsingContextID] = d
		}
		vr := &viewRead{top: top}
		vr.frames, vr.unread = visibleFrames(top, m)
		return vr
	}
	top := testDoc("Top", 2, 1, false, 10, 20) // frames A (10, holding C: 30) and B (20)
	a, b, c := testDoc("A", 1, 10, true, 30), testDoc("B", 1, 20, true), testDoc("C", 1, 30, true)
	ids := func(v *pageView) (out []int64) {
		for _, f := range v.frames {
			out = append(out, f.id)
		}
		return out
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, nv, gone := s.viewLocked(sel, 1, read(top, a, b, c)); !slices.Equal(ids(nv), []int64{10, 30, 20}) || gone != nil {
		t.Fatalf("first view: frames %v, gone %d", ids(nv), len(gone))
	}
	failed := testDoc("A", 1, 10, true, 30)
	failed.err = errors.New("unreadable")
	if _, nv, gone := s.viewLocked(sel, 1, read(top, failed, b, c)); len(gone) != 0 || !slices.Contains(ids(nv), 10) || !slices.Contains(ids(nv), 30) {
		t.Errorf("A unread: frames %v, %d gone; want A and C kept", ids(nv), len(gone))
	}
	unbound := testDoc("Top", 2, 1, false)
	unbound.b = binding{} // (the top's refs could not be bound: its frames not placed)
	if _, nv, gone := s.viewLocked(sel, 1, read(unbound)); len(gone) != 0 || len(nv.frames) != 3 {
		t.Errorf("top unbound: frames %v, %d gone; want all kept", ids(nv), len(gone))
	}
	unplaced := testDoc("Top", 2, 1, false, 10, 20)
	unplaced.b.frames = map[int]int64{} // (the top's binding did not say which frames its elements are)
	if _, nv, gone := s.viewLocked(sel, 1, read(unplaced, a, b, c)); len(gone) != 0 || len(nv.frames) != 3 {
		t.Errorf("frames not placed: frames %v, %d gone; want all kept", ids(nv), len(gone))
	}
	if _, nv, gone := s.viewLocked(sel, 1, read(top, testDoc("A", 1, 10, true), b)); len(gone) != 1 || gone[0].id != 30 || slices.Contains(ids(nv), 30) {
		t.Errorf("C no longer in A: frames %v, gone %v; want C gone", ids(nv), gone)
	}
}

// TestDeltaUnshown: elements no answer showed before, still there and as they
// were, are listed after what appeared and before what went away when they are
// at most unshownLines and all fit; more of them, or too little room, lists none
// and counts nothing.
func TestDeltaUnshown(t *testing.T) {
	old := testView("Item", 40, 0, 1)
	list := func(nv *pageView, unshown []int) Observation {
		d := diffViews(old, nv, nil)
		d.unshown = unshown
		return renderDelta([]docDelta{{d: d, old: old, nv: nv, ref: testRef}}, observeOpts{})
	}
	// A filter: items 2–40 gone (39 lines, over the bound), item 1 left, never shown.
	left := testView("Item", 1, 0, 1)
	obs := list(left, []int{0})
	if obs.st["not_shown_before"] != 1 || !strings.Contains(obs.text, "not shown before (as they were):\n[e0] button \"Item 1\"\ngone:\n- button \"Item 2\"") {
		t.Errorf("one unshown element before 39 gone ones: %v\n%s", obs.st, obs.text)
	}
	// Eleven unshown: none listed, none counted.
	eleven := testView("Item", 11, 0, 1)
	var idx []int
	for i := range 11 {
		idx = append(idx, i)
	}
	obs = list(eleven, idx)
	if _, ok := obs.st["not_shown_before"]; ok || strings.Contains(obs.text, "not shown before") {
		t.Errorf("eleven unshown elements: want none listed: %v\n%s", obs.st, obs.text)
	}
	// Ten, but 25 appeared take the room but five: none listed either.
	grown := testView("Item", 65, 0, 1)
	obs = list(grown, idx[:10])
	if strings.Contains(obs.text, "not shown before") || !strings.Contains(obs.text, "appeared:") {
		t.Errorf("ten unshown elements with room for five: want none listed:\n%s", obs.text)
	}
	// Nothing else changed: the unshown ones are the answer's only lines.
	same := testView("Item", 40, 0, 1)
	same.info = newWalkInfo(same.res) // (another walk of the same page)
	same.info.window, same.info.ids = 1, old.info.ids
	obs = list(same, []int{3, 4})
	if obs.st["not_shown_before"] != 2 || !strings.Contains(obs.text, "No change to the actionable elements since your last view") ||
		!strings.Contains(obs.text, "not shown before (as they were):\n[e3] button \"Item 4\"\n[e4] button \"Item 5\"\n") {
		t.Errorf("no change but two unshown elements: %v\n%s", obs.st, obs.text)
	}
}

// TestDeltaNear: a look-alike's line shows its near text; one going away
// leaves the other unchanged (its near text is not part of what is
// compared), and the gone line says which one went.
func TestDeltaNear(t *testing.T) {
	view := func(nears ...string) *pageView {
		r := &pagejs.SnapshotResult{Total: len(nears)}
		for i, n := range nears {
			r.Elements = append(r.Elements, pagejs.Element{Tag: "button", Role: "button", Name: "Remove",
				Sel: pagejs.Sel{fmt.Sprintf("#chip-%s>button", n)}, FP: pagejs.Fingerprint{Tag: "button", Role: "button", Name: "Remove"}})
			if len(nears) > 1 {
				r.NearAt, r.Near = append(r.NearAt, i), append(r.Near, n)
			}
		}
		w := newWalkInfo(r)
		w.window = 1
		for _, n := range nears {
			w.ids = append(w.ids, map[string]int{"Rust": 10, "Go": 11, "Zig": 12}[n])
		}
		return newView(1, r, w, false)
	}
	old := view("Rust", "Go")
	if got := old.info.line("e1", 1, &old.res.Elements[1]); got != `[e1] button "Remove" near="Go"` {
		t.Errorf("look-alike's line: %s", got)
	}
	nv := view("Rust")
	d := diffViews(old, nv, nil)
	if len(d.changed) != 0 || len(d.gone) != 1 {
		t.Fatalf("one of two look-alikes gone: %d changed, %d gone", len(d.changed), len(d.gone))
	}
	obs := renderDelta([]docDelta{{d: d, old: old, nv: nv, ref: testRef, issued: func(j int) (string, bool) { return testRef(j), true }}}, observeOpts{})
	if !strings.Contains(obs.text, `- [e1] button "Remove" near="Go"`) || strings.Contains(obs.text, "changed:") {
		t.Errorf("delta:\n%s", obs.text)
	}
	// A list keyed by position: Rust removed, the first chip now reads Go and
	// the second is gone. The first is changed (it stands by other text).
	rewritten := view("Rust", "Go")
	rewritten.info.ids = []int{10, 13}
	rewritten = newView(1, rewritten.res, rewritten.info, false)
	rewritten.info.near = []string{"Go", "Zig"}
	d = diffViews(old, rewritten, nil)
	if len(d.changed) != 1 || d.changed[0] != 0 || len(d.gone) != 1 {
		t.Errorf("a look-alike now by other text: changed %v, %d gone; want the first changed", d.changed, len(d.gone))
	}
	grown := view("Rust", "Go", "Zig")
	obs = renderDelta([]docDelta{{d: diffViews(old, grown, nil), old: old, nv: grown, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "appeared:\n[e2] button \"Remove\" near=\"Zig\"") || strings.Contains(obs.text, "changed:") {
		t.Errorf("delta after a third look-alike:\n%s", obs.text)
	}
}
