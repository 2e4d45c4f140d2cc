package browser_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

var spaLibs = []string{"react@18.3.1", "react-dom@18.3.1", "react-router@7.18.7"}

// spaServer serves the webmail of testdata/spa-mail.jsx (bundled with
// spaLibs) as an application's server does: /app.js, and the app's page for
// every other path (a route loaded directly works too).
func spaServer(t *testing.T) *httptest.Server {
	t.Helper()
	bundle := npmlibs.Bundle(t, "testdata/spa-mail.jsx", spaLibs...)
	page, err := os.ReadFile("testdata/app.html")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// sameDocURL checks an action's answer for a URL changed in the same
// document: no navigation, the new URL said (marked) with refs still
// working, and a delta rather than a listing of the page.
func sameDocURL(t *testing.T, step string, res tools.Result, url string) {
	t.Helper()
	st, _ := res.Structured.(map[string]any)
	if st["navigated"] != false || strings.Contains(res.Text, "stale") || strings.Contains(res.Text, "every element with a new ref") {
		t.Errorf("%s: want no navigation, refs kept:\n%s", step, res.Text)
	}
	c := changes(t, res)
	if c["url_changed"] != true || !strings.Contains(res.Text, "in the same document (refs still work):\n<<<untrusted-page-content ") ||
		!strings.Contains(res.Text, url+`"`) {
		t.Errorf("%s: want the URL change to %s said, marked:\n%s", step, url, res.Text)
	}
	if c["renewed"] == true || c["first_view"] == true {
		t.Errorf("%s: want a delta, not a listing of the page:\n%s", step, res.Text)
	}
}

// TestSPARouterKeepsRefs: a webmail built with React Router 7 (from npm)
// moves between its routes with history.pushState, filters with
// replaceState and jumps to its help with a fragment link: the document
// stays, and so do the refs of everything that stays (the header's links,
// its search field and its value, Compose). Each answer says the URL
// changed and what changed, not the whole page again; wait_for waits for a
// URL by glob while the app changes it on a timer. The generation never
// moves.
func TestSPARouterKeepsRefs(t *testing.T) {
	srv := spaServer(t)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	res := must(t, s, "navigate", map[string]any{"url": srv.URL + "/", "wait": "complete"})
	gen := res.Structured.(map[string]any)["generation"]
	inbox, settings := ref(t, res.Text, "link", "Inbox"), ref(t, res.Text, "link", "Settings")
	search, compose := ref(t, res.Text, "textbox", "Search mail"), ref(t, res.Text, "button", "Compose")
	must(t, s, "fill", map[string]any{"element": search, "value": "ada"})

	// pushState: the Settings route.
	res = must(t, s, "click", map[string]any{"element": settings})
	sameDocURL(t, "settings", res, "/settings")
	ref(t, res.Text, "checkbox", "Email notifications")
	if !strings.Contains(res.Text, `gone:`) || !strings.Contains(res.Text, `link "Ada: Analytical engine notes"`) {
		t.Errorf("settings: want the inbox's messages gone:\n%s", res.Text)
	}
	// The header's refs work on.
	must(t, s, "click", map[string]any{"element": compose})
	res = must(t, s, "fill", map[string]any{"element": search, "value": "ada lovelace"})
	if !strings.Contains(res.Text, "["+search+`] textbox "Search mail" value="ada lovelace"`) {
		t.Errorf("the search field through its first ref:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": inbox})
	sameDocURL(t, "inbox", res, srv.URL+"/")

	// replaceState: the inbox's filter.
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Unread only")})
	sameDocURL(t, "filter", res, "/?filter=unread")
	if !strings.Contains(res.Text, `button "Show all"`) || !strings.Contains(res.Text, `- [`) {
		t.Errorf("filter: want the button's new name and Grace's message gone:\n%s", res.Text)
	}

	// A hash change.
	snap := snapshot(t, s)
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Keyboard shortcuts")})
	sameDocURL(t, "hash", res, "/?filter=unread#help")

	// A URL the app changes 300 ms after the click: wait_for a URL by glob.
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "link", "Ada: Analytical engine notes")})
	sameDocURL(t, "message", res, "/messages/1")
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Archive"), "wait_after_ms": 0})
	res = must(t, s, "wait_for", map[string]any{"url": "**/?archived=*", "timeout_ms": 5000})
	if !strings.Contains(res.Text, `Condition met`) || !strings.Contains(res.Text, `URL matching "**/?archived=*"`) ||
		changes(t, res)["url_changed"] != true {
		t.Errorf("wait_for url: want it met and the URL change said:\n%s", res.Text)
	}
	if _, e := call(t, s, "wait_for", map[string]any{"url": "**/settings", "timeout_ms": 200}); e == nil || e.Code != "wait_timeout" {
		t.Errorf("wait_for a URL the page does not have: %v, want wait_timeout", e)
	}
	must(t, s, "click", map[string]any{"element": compose})
	if txt := pageText(t, s); !strings.Contains(txt, "drafts 2") || !strings.Contains(txt, "Alan: Morphogenesis draft") {
		t.Errorf("after the routes: want Compose through its first ref, and the inbox:\n%s", txt)
	}
	res = must(t, s, "navigate", map[string]any{"url": srv.URL + "/?archived=1#help", "wait": "complete"})
	if g := res.Structured.(map[string]any)["generation"]; g != gen {
		t.Errorf("navigate to another fragment: generation %v, want %v (the same document)", g, gen)
	}
	must(t, s, "click", map[string]any{"element": compose})
	// Without the observation, the answer still says the URL changed.
	res = must(t, s, "click", map[string]any{"element": settings, "observe": false})
	if !strings.Contains(res.Text, "The URL changed, in the same document (refs still work):\n<<<untrusted-page-content ") || !strings.Contains(res.Text, `/settings"`) {
		t.Errorf("observe false: want the URL change said:\n%s", res.Text)
	}
}

// BenchmarkPushStateClick: a click on the 3,000-element page whose
// application records the section it opened in the URL (pushState): one
// element changes. Reports the answer's characters (chars) beside the
// median; the figure asked is at most 600.
func BenchmarkPushStateClick(b *testing.B) {
	page := strings.Replace(fixtures.LargeHTML(), "</body>", `<script>document.getElementById("app").addEventListener("click", (e) => {`+
		` const t = e.target.closest("button"); if (t) history.pushState(null, "", "?open=" + encodeURIComponent(t.textContent) + "&at=" + Date.now()); });</script></body>`, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	defer srv.Close()
	s := benchSession(b, "default")
	must(b, s, "select_tab", map[string]any{"index": 0})
	must(b, s, "navigate", map[string]any{"url": srv.URL + "/large.html", "wait": "complete", "observe": false})
	snap := must(b, s, "snapshot_page", map[string]any{"max_elements": 5000}).Text
	btn := ref(b, snap, "button", "Action 1501")
	var chars []float64
	benchutil.Run(b, nil, func() {
		res := must(b, s, "click", map[string]any{"element": btn})
		chars = append(chars, float64(len(res.Text)))
	})
	b.ReportMetric(medianOf(chars), "chars")
}

// medianOf is the median of xs.
func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
