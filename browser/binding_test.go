package browser_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// The page counts clicks per button node (serials Apple#1, Banana#2, …, new
// serials for every re-rendered node) and logs them.

func TestRefIsBoundToItsNode(t *testing.T) {
	t.Run("page-realm walk", func(t *testing.T) { testRefIsBoundToItsNode(t, newSession(t)) })
	// The walk through the isolated realm (the fallback for a page that breaks the
	// page-realm walk) hands its elements over the same way.
	t.Run("isolated walk", func(t *testing.T) {
		testRefIsBoundToItsNode(t, newSession(t, func(o *browser.Options) { o.ReadInIsolatedRealm = true }))
	})
}

func testRefIsBoundToItsNode(t *testing.T, s *session) {
	open(t, s, "rerender.html")
	snap := snapshot(t, s)
	apple, banana, cherry := ref(t, snap, "button", "Like Apple"), ref(t, snap, "button", "Like Banana"), ref(t, snap, "button", "Like Cherry")
	other, one := ref(t, snap, "button", "Other"), ref(t, snap, "button", "Re-render Banana")

	res := must(t, s, "click", map[string]any{"element": apple, "wait_after_ms": 0})
	if res.Structured.(map[string]any)["ref_check"] != "node" {
		t.Fatalf("ref_check = %v, want node", res.Structured.(map[string]any)["ref_check"])
	}
	waitText(t, s, "Apple#1=1")

	// Another part re-rendered (Banana's node replaced): Apple's and Cherry's
	// nodes survived, their refs still work; Banana's is stale, although an
	// identical button now sits at the same place.
	must(t, s, "click", map[string]any{"element": one, "wait_after_ms": 0})
	waitText(t, s, "renders 2")
	must(t, s, "click", map[string]any{"element": cherry, "wait_after_ms": 0})
	waitText(t, s, "Cherry#3=1")
	_, e := call(t, s, "click", map[string]any{"element": banana})
	wantCode(t, e, errcode.StaleElement)

	// A new snapshot: surviving nodes keep their refs, the new node gets a new one.
	snap = snapshot(t, s)
	if got := ref(t, snap, "button", "Like Apple"); got != apple {
		t.Errorf("Apple's surviving node got ref %s, want %s", got, apple)
	}
	banana2 := ref(t, snap, "button", "Like Banana")
	if banana2 == banana {
		t.Fatalf("the replacement node got the old ref %s", banana)
	}
	must(t, s, "click", map[string]any{"element": banana2, "wait_after_ms": 0})
	waitText(t, s, "Banana#4=1")

	// The whole list re-rendered between two tool calls.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Re-render list"), "wait_after_ms": 0})
	waitText(t, s, "renders 3")
	for _, r := range []string{apple, banana2, cherry} {
		_, e := call(t, s, "click", map[string]any{"element": r})
		wantCode(t, e, errcode.StaleElement)
	}
	must(t, s, "click", map[string]any{"element": other, "wait_after_ms": 0})
	waitText(t, s, "Other=1")

	// Re-rendered by a timer, after the snapshot, with no tool call between.
	snap = snapshot(t, s)
	apple3 := ref(t, snap, "button", "Like Apple")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Re-render list soon"), "wait_after_ms": 0})
	waitText(t, s, "renders 4")
	_, e = call(t, s, "click", map[string]any{"element": apple3})
	wantCode(t, e, errcode.StaleElement)

	txt := pageText(t, s)
	for _, bad := range []string{"Banana#2=", "Apple#5=", "Apple#8=", "Cherry#7=", "Apple#1=2", "Cherry#3=2"} {
		if strings.Contains(txt, bad) {
			t.Errorf("a stale ref clicked a node (%s):\n%s", bad, txt)
		}
	}
}

// Without the isolated realm there is no binding: the ref is checked by
// selector and fingerprint, and the result says so (the look-alike is hit,
// which is what the binding prevents).
func TestUnboundRefSaysSo(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	open(t, s, "rerender.html")
	snap := snapshot(t, s)
	apple := ref(t, snap, "button", "Like Apple")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Re-render list"), "wait_after_ms": 0})
	waitText(t, s, "renders 2")
	res := must(t, s, "click", map[string]any{"element": apple, "wait_after_ms": 0})
	if res.Structured.(map[string]any)["ref_check"] != "selector+fingerprint" || !strings.Contains(res.Text, "selector and fingerprint only") {
		t.Fatalf("unbound click result does not say so: %v %s", res.Structured, res.Text)
	}
	waitText(t, s, "Apple#4=1")
}

// TestEveryActionChecksItsNode: the pointer, key and scroll tools check a
// ref's node as click does, so none of them acts on an identical node that
// replaced the one the snapshot listed.
func TestEveryActionChecksItsNode(t *testing.T) {
	s := newSession(t)
	open(t, s, "rerender.html")
	snap := snapshot(t, s)
	apple, cherry := ref(t, snap, "button", "Like Apple"), ref(t, snap, "button", "Like Cherry")
	must(t, s, "hover", map[string]any{"element": apple}) // bound and alive: works
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Re-render list"), "wait_after_ms": 0})
	waitText(t, s, "renders 2")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"hover", map[string]any{"element": apple}},
		{"drag", map[string]any{"element": apple, "to": cherry}},
		{"scroll", map[string]any{"element": apple}},
		{"press_key", map[string]any{"key": "Enter", "element": apple}},
	} {
		_, e := call(t, s, c.tool, c.args)
		if e == nil || e.Code != errcode.StaleElement {
			t.Errorf("%s on a replaced node: %v, want stale_element", c.tool, e)
		}
	}
	if txt := pageText(t, s); strings.Contains(txt, "Apple#4=") || strings.Contains(txt, "Apple#1=") {
		t.Errorf("an action reached a node through a stale ref:\n%s", txt)
	}
}

// TestBoundSnapshotKept: a repeat snapshot of an unchanged page is the
// resident's {same} answer (no walk: the kept result's number stays),
// rendered as before (not again, while the ref table is unchanged), with
// its refs still bound to their nodes; after a change, a walk, with new
// refs only for the replaced nodes.
func TestBoundSnapshotKept(t *testing.T) {
	s := newSession(t)
	open(t, s, "rerender.html")
	keptSeq := s.KeptSeq
	// The navigation installed the resident while the page settled, so the
	// first read is normally its walk already; otherwise (an installation
	// still pending: the whole script) snapshots until the resident's walk.
	snap := snapshot(t, s)
	for deadline := time.Now().Add(10 * time.Second); keptSeq() == 0 && time.Now().Before(deadline); {
		snap = snapshot(t, s)
	}
	seq := keptSeq()
	rendered := s.KeptRendering
	lines := rendered()
	for i := 0; i < 4; i++ {
		if i == 2 {
			// The ref table changed (here: as if a locator had been
			// replaced): the kept result is rendered again.
			s.TouchRefs()
		}
		again := snapshot(t, s)
		if !sameLines(snap, again) {
			t.Fatalf("repeat %d differs:\n%s\nwant\n%s", i, again, snap)
		}
		if got := keptSeq(); got != seq || seq == 0 {
			t.Fatalf("repeat %d: kept result %d, want %d (walked again)", i, got, seq)
		}
		if got := rendered(); lines == nil || (got == lines) != (i != 2) {
			t.Fatalf("repeat %d: rendering %p, before %p: want the same one but after the table changed", i, got, lines)
		}
		lines = rendered()
	}
	apple, other := ref(t, snap, "button", "Like Apple"), ref(t, snap, "button", "Other")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Re-render list"), "wait_after_ms": 0, "observe": false})
	waitText(t, s, "renders 2")
	after := snapshot(t, s)
	if keptSeq() == seq {
		t.Fatal("a changed page was not walked")
	}
	if ref(t, after, "button", "Like Apple") == apple || ref(t, after, "button", "Other") != other {
		t.Fatalf("refs after the re-render: Apple %s (was %s), Other %s (was %s)", ref(t, after, "button", "Like Apple"), apple, ref(t, after, "button", "Other"), other)
	}
	_, e := call(t, s, "click", map[string]any{"element": apple})
	wantCode(t, e, errcode.StaleElement)
	res := must(t, s, "click", map[string]any{"element": other, "wait_after_ms": 0, "observe": false})
	if res.Structured.(map[string]any)["ref_check"] != "node" {
		t.Fatalf("ref_check = %v, want node", res.Structured.(map[string]any)["ref_check"])
	}
}

// TestHeldBindingChecked: a repeat snapshot answered {same} reuses the node
// binding held for the kept result instead of waiting for its own, and
// checks it in the background: when the two differ (here the held ids are
// spoiled, as if the isolated realm had lost its ids), an action through the
// reused refs is refused as stale, never sent to another node, and the next
// snapshot waits for its binding again, whose refs work.
func TestHeldBindingChecked(t *testing.T) {
	s := newSession(t)
	open(t, s, "form.html")
	first := snapshot(t, s)
	if again := snapshot(t, s); !sameLines(first, again) || s.HeldBinding() == nil {
		t.Fatalf("no binding held for the kept result (held %v), or the repeat differs:\n%s\nwant\n%s", s.HeldBinding(), again, first)
	}
	if !s.SpoilHeldBinding() {
		t.Fatal("no held binding to spoil")
	}
	spoiled := s.HeldBinding()
	snap := snapshot(t, s)
	button := ref(t, snap, "button", "Go")
	if _, e := call(t, s, "click", map[string]any{"element": button, "observe": false}); e == nil || e.Code != errcode.StaleElement {
		t.Fatalf("click through a spoiled binding: %v, want stale_element", e)
	}
	for deadline := time.Now().Add(5 * time.Second); s.HeldBinding() == spoiled && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if s.HeldBinding() == spoiled {
		t.Fatal("the spoiled binding is still held after its check")
	}
	snap = snapshot(t, s)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Go"), "observe": false})
}

// TestPatchedRenderingReusesLines: after a change, the resident sends a
// patch of its last result (here to wait_for's read, which patches what
// snapshot_page read: the two read with the same arguments), and the next
// rendering takes the lines of the rows the patch kept from the rendering
// before; those lines are the ones made anew from the rows, and the
// replaced node's line has a new ref.
func TestPatchedRenderingReusesLines(t *testing.T) {
	s := newSession(t)
	open(t, s, "rerender.html")
	before := snapshot(t, s)
	banana := ref(t, before, "button", "Like Banana")
	must(t, s, "click", map[string]any{"element": ref(t, before, "button", "Re-render Banana"), "wait_after_ms": 0, "observe": false})
	waitText(t, s, "renders 2")
	reused := s.PriorLines()
	after := snapshot(t, s)
	if s.PriorLines() == reused {
		t.Fatal("the patched rendering took no line from the one before")
	}
	var got []string
	for _, l := range strings.Split(after, "\n") {
		if strings.HasPrefix(l, "[e") {
			got = append(got, l)
		}
	}
	if want := s.RenderKeptAfresh(); !slices.Equal(got, want) {
		t.Fatalf("patched rendering:\n%s\nwant (made anew):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ref(t, after, "button", "Like Banana") == banana || ref(t, after, "button", "Other") != ref(t, before, "button", "Other") {
		t.Fatalf("refs after the patch:\n%s\nbefore:\n%s", after, before)
	}
}
