package browser_test

import (
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// gen reads the generation a result reports.
func gen(t *testing.T, res tools.Result) uint64 {
	t.Helper()
	g, ok := res.Structured.(map[string]any)["generation"].(uint64)
	if !ok {
		t.Fatalf("no generation in %v", res.Structured)
	}
	return g
}

// TestGenerationMovesByOnePerNavigation: the watcher counts one navigation
// several times (will-navigate, the new target, its URL), but the
// generation an agent sees moves by exactly one per navigation, whether the
// navigation came from navigate or from a click on a link.
func TestGenerationMovesByOnePerNavigation(t *testing.T) {
	s := newSession(t)
	g := gen(t, must(t, s, "select_tab", map[string]any{"index": 0}))
	for i, p := range []string{"form.html", "other.html", "form.html"} {
		res := must(t, s, "navigate", map[string]any{"url": pages.URL + "/" + p, "wait": "complete"})
		if got := gen(t, res); got != g+1 {
			t.Fatalf("navigation %d: generation %d → %d, want +1", i+1, g, got)
		}
		if got := gen(t, must(t, s, "snapshot_page", map[string]any{})); got != g+1 {
			t.Fatalf("snapshot after navigation %d: generation %d, want %d", i+1, got, g+1)
		}
		g++
	}
	// A link click: the click's result and the next snapshot are one
	// generation on, however the watcher's counts arrive in between.
	snap := must(t, s, "snapshot_page", map[string]any{}).Text
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Other page"), "wait_after_ms": 100})
	if res.Structured.(map[string]any)["navigated"] != true {
		t.Fatalf("link click did not report the navigation: %s", res.Text)
	}
	waitText(t, s, "The other page.")
	if got := gen(t, must(t, s, "snapshot_page", map[string]any{})); got != g+1 {
		t.Errorf("snapshot after a link click: generation %d, want %d", got, g+1)
	}
}
