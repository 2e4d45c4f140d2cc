package browser_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

var appLibs = []string{"react@18.3.1", "react-dom@18.3.1", "preact@10.29.8"}

// observeAppsServer serves testdata/observe-apps.html, the libraries and
// /api/slow?ms=N&what=W, which answers after N ms with three results named
// after W.
func observeAppsServer(t *testing.T) *httptest.Server {
	t.Helper()
	return vendorServer(t, appLibs, func(mux *http.ServeMux) {
		mux.HandleFunc("/api/slow", func(w http.ResponseWriter, r *http.Request) {
			ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
			time.Sleep(time.Duration(min(max(ms, 0), 2000)) * time.Millisecond)
			what := r.URL.Query().Get("what")
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			_ = json.NewEncoder(w).Encode([]string{what + " Alpha", what + " Beta", what + " Gamma"})
		})
	})
}

// TestObserveFrameworkApps: act and observe on an application rendered by
// React 18 and by Preact 10 (from npm): every answer says what the
// framework rendered in response, with refs that work, taken from that
// answer alone: a controlled field's new value, results a request brings,
// a disclosure, a checkbox; results rendered again as new nodes that look
// the same leave the old refs stale; a request longer than the settle cap
// is reported as busy, and wait_for then lists what appeared; a URL the page
// changes by itself later is said, refs working on; so is a click that
// changes the app's route (pushState in its handler), with what changed (an
// effect's late render included): the document and its refs stay.
func TestObserveFrameworkApps(t *testing.T) {
	srv := observeAppsServer(t)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	for _, lib := range []string{"react", "preact"} {
		t.Run(lib, func(t *testing.T) {
			observeApp(t, s, srv.URL+"/observe-apps.html?lib="+lib)
		})
	}
}

// observeApp runs TestObserveFrameworkApps's steps on one app.
func observeApp(t *testing.T, s *session, url string) {
	// want checks an answer's counts and that it holds each line.
	want := func(step string, res tools.Result, appeared, changed, gone int, lines ...string) {
		t.Helper()
		c := changes(t, res)
		if c["appeared"] != appeared || c["changed"] != changed || c["gone"] != gone {
			t.Errorf("%s: %v appeared, %v changed, %v gone; want %d, %d, %d:\n%s", step, c["appeared"], c["changed"], c["gone"], appeared, changed, gone, res.Text)
		}
		for _, l := range lines {
			if !strings.Contains(res.Text, l) {
				t.Errorf("%s: the answer lacks %q:\n%s", step, l, res.Text)
			}
		}
	}
	res := must(t, s, "navigate", map[string]any{"url": url, "wait": "complete"})
	query, search := ref(t, res.Text, "textbox", "Query"), ref(t, res.Text, "button", "Search")
	menu, remote := ref(t, res.Text, "button", "Menu"), ref(t, res.Text, "checkbox", "Remote only")
	refresh, delay := ref(t, res.Text, "button", "Refresh"), ref(t, res.Text, "textbox", "Delay")

	res = must(t, s, "fill", map[string]any{"element": query, "value": "ai"})
	want("fill", res, 0, 1, 0, "changed:\n["+query+`] textbox "Query" value="ai"`)
	// The request (100 ms) and the render are waited for (the cap is raised
	// for slow machines: the wait ends once the page is quiet).
	res = must(t, s, "click", map[string]any{"element": search, "wait_after_ms": 3000})
	want("search", res, 3, 0, 0, "appeared:\n", `button "Open ai Alpha"`, `button "Open ai Gamma"`)
	if strings.Contains(res.Text, "still busy") {
		t.Errorf("search: busy after a 100 ms request:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": menu})
	want("menu", res, 2, 1, 0, "changed:\n["+menu+`] button "Menu" expanded`, `menuitem "Rename"`, `menuitem "Delete"`)
	res = must(t, s, "click", map[string]any{"element": remote})
	want("checkbox", res, 0, 1, 0, "changed:\n["+remote+`] checkbox "Remote only" checked`)
	if txt := pageText(t, s); !strings.Contains(txt, "found 3 for ai, remote") {
		t.Errorf("the app's state after fill and checkbox:\n%s", txt)
	}

	// The same results as new nodes: new refs appeared, the old ones are gone.
	snap := snapshot(t, s)
	alpha := ref(t, snap, "button", "Open ai Alpha")
	res = must(t, s, "click", map[string]any{"element": refresh})
	want("refresh", res, 3, 0, 3, "gone:\n- ["+alpha+`] button "Open ai Alpha"`)
	fresh := ref(t, res.Text, "button", "Open ai Alpha")
	if fresh == alpha {
		t.Fatalf("refresh: the new node kept the old ref %s:\n%s", alpha, res.Text)
	}
	_, e := call(t, s, "click", map[string]any{"element": alpha})
	wantCode(t, e, errcode.StaleElement)
	// A request longer than the settle cap: busy, then wait_for lists what appeared.
	must(t, s, "fill", map[string]any{"element": delay, "value": "600"})
	must(t, s, "fill", map[string]any{"element": query, "value": "ml"})
	res = must(t, s, "click", map[string]any{"element": search})
	if c := changes(t, res); c["settled"] != false || !strings.Contains(res.Text, "(1 request of its own in flight)") {
		t.Errorf("slow search: want the busy note:\n%s", res.Text)
	}
	res = must(t, s, "wait_for", map[string]any{"text": "Open ml Beta", "timeout_ms": 5000})
	want("wait_for", res, 2, 0, 3, "matching:\n[", `button "Open ml Beta"`, "appeared:\n", `button "Open ml Gamma"`,
		"gone:\n- ["+fresh+`] button "Open ai Alpha"`)
	if changes(t, res)["matching"] != 1 {
		t.Errorf("wait_for: %v matching, want 1", changes(t, res)["matching"])
	}
	gamma := ref(t, res.Text, "button", "Open ml Gamma")

	// The page changes its URL by itself, after the action's wait: the next
	// observation says so, in the same generation (refs still work). (On a
	// loaded machine the timer may run before the click's own observation,
	// which then says it.)
	later := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Later route")})
	res = must(t, s, "wait_for", map[string]any{"url_contains": "later=1", "timeout_ms": 5000})
	if said := func(r tools.Result) bool {
		return strings.Contains(r.Text, "The URL changed since your last view, in the same document") && changes(t, r)["url_changed"] == true
	}; !said(res) && !said(later) {
		t.Errorf("a route change after the wait: want it said:\n%s\n%s", later.Text, res.Text)
	}
	must(t, s, "click", map[string]any{"element": menu})

	// A click whose handler changes the URL (the app's route, pushState)
	// keeps the document, and the refs: the answer says the URL changed and
	// what changed (an effect fetched the details, 600 ms: its Apply button
	// appeared), and the earlier refs work on.
	res = must(t, s, "click", map[string]any{"element": gamma, "wait_after_ms": 3000})
	if st, _ := res.Structured.(map[string]any); st["navigated"] != false || strings.Contains(res.Text, "stale") ||
		!strings.Contains(res.Text, "The URL changed since your last view, in the same document (refs still work)") ||
		!strings.Contains(res.Text, "job=ml%20Gamma") {
		t.Errorf("open: want the URL change said, refs kept:\n%s", res.Text)
	}
	if c := changes(t, res); c["renewed"] == true || c["url_changed"] != true {
		t.Errorf("open: want a delta of the same generation (renewed %v, url_changed %v)", c["renewed"], c["url_changed"])
	}
	if !regexp.MustCompile(`appeared:\n(\[e\d+\] heading "ml Gamma" level=2\n)?\[e\d+\] button "Apply to ml Gamma"\n`).MatchString(res.Text) {
		t.Errorf("open: want the Apply button (after the job's heading), as appeared:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": menu})
}
