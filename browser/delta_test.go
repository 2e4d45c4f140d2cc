package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
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
	// A renewed view: appeared first, then as before, within the bound.
	nv := testView("Top", 22, 0, 1)
	r := renewed(diffViews(oldTop, nv, nil), nv)
	obs = renderDelta([]docDelta{{d: r, old: oldTop, nv: nv, ref: testRef}}, observeOpts{})
	if !strings.Contains(obs.text, "appeared:\n[e20] button \"Top 21\"\n[e21] button \"Top 22\"\nas before:\n[e0] button \"Top 1\"\n") ||
		obs.st["renewed"] != true || obs.st["shown"] != 22 || strings.Contains(obs.text, "more not shown") {
		t.Errorf("renewed:\n%s\n%v", obs.text, obs.st)
	}
}
