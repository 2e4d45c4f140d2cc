package browser_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

// svelteReleases build the Svelte job board (npmlibs.BundleSvelte) with two
// Svelte 5 releases that keep a node's delegated handlers differently (lib.js
// FRAMEWORKS): under a symbol of their own since 5.51.1, as __click before.
var svelteReleases = []struct{ name, svelte string }{
	{"symbol", "svelte@5.57.3"},
	{"own props", "svelte@5.51.0"},
}

// openSvelteBoard compiles the Svelte 5 job board (testdata/JobBoard.svelte,
// JobCard.svelte) with the Svelte compiler, serves it with the fixtures' live
// WebSocket and opens it in a new session's tab.
func openSvelteBoard(t *testing.T, svelte string) *session {
	t.Helper()
	svelteLibs := []string{svelte, "esbuild-svelte@0.9.5"}
	bundle := npmlibs.BundleSvelte(t, "testdata/jobboard-svelte.js", svelteLibs...)
	srv := vendorServer(t, svelteLibs, func(mux *http.ServeMux) {
		mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
		mux.Handle("/live/", fixtures.Handler())
	})
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/jobboard-svelte.html", "wait": "complete"})
	waitText(t, s, "showing 4")
	return s
}

// TestSvelteTargets: a Svelte 5 job board whose cards, filter chips, bookmark
// icon and sort menu entries are plain elements with onclick. Svelte delegates
// those events to its mount target and keeps each node's handlers on the node
// (lib.js FRAMEWORKS): no node has a listener, a role, a tabindex or a handler
// attribute, and only the cards show a pointer cursor. Each target is one line
// (a card is named by its title and company, its divs have none; the mount
// target, which listens for the whole app, has none), and clicks on them change
// what the page says of its own state. Built with each of svelteReleases.
func TestSvelteTargets(t *testing.T) {
	for _, r := range svelteReleases {
		t.Run(r.name, func(t *testing.T) { svelteTargets(t, openSvelteBoard(t, r.svelte)) })
	}
}

func svelteTargets(t *testing.T, s *session) {
	snap := snapshot(t, s)
	card := ref(t, snap, "clickable", "Senior Go Engineer Acme Corp")
	icon := ref(t, snap, "clickable", "Save job") // (the first card's)
	remote := ref(t, snap, "clickable", "Remote")
	toggle := ref(t, snap, "clickable", "Sort: Newest")
	if n := strings.Count(snap, `clickable "Save job"`); n != 4 {
		t.Errorf("want one bookmark icon per card (4), got %d:\n%s", n, snap)
	}
	for _, not := range []string{`clickable "Senior Go Engineer"`, `"Acme Corp"`, "jobs.example"} {
		if strings.Contains(snap, not) {
			t.Errorf("a card's inner div or the mount target listed (%s):\n%s", not, snap)
		}
	}
	res := must(t, s, "click", map[string]any{"element": icon})
	waitText(t, s, "saved 1")
	if !strings.Contains(res.Text, "["+icon+`] clickable "Unsave job"`) {
		t.Errorf("the icon's click: want its new name in the answer:\n%s", res.Text)
	}
	if strings.Contains(res.Text, "Apply now") {
		t.Errorf("the icon's click opened its card (the page stops its propagation):\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": remote})
	waitText(t, s, "showing 2 · filter Remote")
	if strings.Contains(res.Text, "No change") {
		t.Errorf("the chip's click: want its change:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": toggle})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "clickable", "Salary")})
	waitText(t, s, "sort Salary")
	if !strings.Contains(res.Text, "["+toggle+`] clickable "Sort: Salary"`) {
		t.Errorf("a menu entry picked: want the toggle's new name in the answer:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": card})
	waitText(t, s, "open Senior Go Engineer")
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "clickable", "Apply now")})
	waitText(t, s, "applied Senior Go Engineer")
}
