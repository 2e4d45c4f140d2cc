package browser_test

import (
	"strings"
	"testing"
)

var dndkitLibs = []string{"react@18.3.1", "react-dom@18.3.1", "@dnd-kit/core@6.3.1", "@dnd-kit/sortable@10.0.0", "@dnd-kit/utilities@3.2.2"}

// TestDndKitSortable: a "rank your skills" list built with dnd-kit (React 18,
// from npm at test set-up, bundled by esbuild). Its pointer sensor starts a
// drag once the pointer has moved 5 px from the press and drops where the
// release lands, and its keyboard sensor moves an item with Space and the
// arrow keys. The answers say what moved and where it is now; its items are
// draggable (aria-roledescription "sortable").
func TestDndKitSortable(t *testing.T) {
	s, snap := openBundled(t, "dndkit-apply", dndkitLibs)
	goRef, ts, sql := ref(t, snap, "button", "Skill Go"), ref(t, snap, "button", "Skill TypeScript"), ref(t, snap, "button", "Skill SQL")
	res := must(t, s, "drag", map[string]any{"element": goRef, "to": ts})
	if !strings.Contains(res.Text, "1 moved in the page's order") || !strings.Contains(res.Text, "moved:\n["+goRef+`] button "Skill Go" draggable (now after [`+ts+"])") {
		t.Errorf("Go dragged onto TypeScript: want it moved after TypeScript:\n%s", res.Text)
	}
	waitText(t, s, "order Rust,TypeScript,Go,SQL")
	// By keyboard: Space lifts SQL, ArrowUp moves it above Go, Space drops it.
	for _, key := range []string{" ", "ArrowUp", " "} {
		res = must(t, s, "press_key", map[string]any{"element": sql, "key": key})
	}
	waitText(t, s, "order Rust,TypeScript,SQL,Go")
	if !strings.Contains(res.Text, "moved:\n["+sql+`] button "Skill SQL" draggable (now after [`+ts+"])") {
		t.Errorf("SQL moved up by keyboard: want the move said:\n%s", res.Text)
	}
}
