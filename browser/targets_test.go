package browser_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/benchutil"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

// Targets without a role (pagejs lib.js targetOf) on pages built as production
// pages are, with real frameworks from npm: each page shows its own state, which
// the tests read after acting on the new refs.

var reactLibs = []string{"react@18.3.1", "react-dom@18.3.1"}

// openBundledPage is openBundled for a page of testdata other than app.html.
func openBundledPage(t *testing.T, name, page string, libs []string) (*session, string) {
	t.Helper()
	bundle := npmlibs.Bundle(t, "testdata/"+name+".jsx", libs...)
	srv := vendorServer(t, libs, func(mux *http.ServeMux) {
		mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	})
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	return s, must(t, s, "navigate", map[string]any{"url": srv.URL + page, "wait": "complete"}).Text
}

// TestReactDivSoup: a React 18 job board of divs and spans with onClick (React
// listens at its root: no node has a listener), cards with cursor: pointer, chips
// and a star icon without, the icon named only by its title. Each target is one
// line (a card is named by its title and company, its two divs have none); clicks
// on them work and their answers say what changed.
func TestReactDivSoup(t *testing.T) {
	s, _ := openBundledPage(t, "jobboard-react", "/jobboard.html", reactLibs)
	snap := snapshot(t, s)
	card := ref(t, snap, "clickable", "Senior Go Engineer Acme Corp ☆")
	remote := ref(t, snap, "clickable", "Remote")
	star := ref(t, snap, "clickable", "Save job") // (its title: the first card's)
	for _, not := range []string{`clickable "Senior Go Engineer"`, `"Acme Corp"`, "All Remote"} {
		if strings.Contains(snap, not) {
			t.Errorf("an inner div or the root listed (%s):\n%s", not, snap)
		}
	}
	res := must(t, s, "click", map[string]any{"element": star})
	waitText(t, s, "saved 1")
	if !strings.Contains(res.Text, "["+star+`] clickable "Unsave job"`) {
		t.Errorf("the star's click: want its new name in the answer:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": remote})
	waitText(t, s, "filter Remote")
	if strings.Contains(res.Text, "No change") {
		t.Errorf("the chip's click: want its change:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": card})
	apply := ref(t, res.Text, "clickable", "Apply now")
	must(t, s, "click", map[string]any{"element": apply})
	waitText(t, s, "applied Senior Go Engineer")
}

// targetLibs are the libraries of the framework pages below (one npm install).
var targetLibs = []string{"vue@3.5.45", "jquery@3.7.1", "alpinejs@3.17.5", "sortablejs@1.15.7", "chart.js@4.6.1"}

// TestListenerTargets: the click listeners Vue 3 (@click), jQuery (.on('click'))
// and Alpine (@click) attach to plain nodes make them targets, each read by
// Firefox's event-listener service in the isolated realm; a click on each works.
func TestListenerTargets(t *testing.T) {
	srv := vendorServer(t, targetLibs, nil)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	for _, c := range []struct {
		page, target, state string
	}{
		{"/vue-board.html", "Product Designer Hooli", "open Product Designer"},
		{"/vue-board.html", "Salary", "picked Salary"},
		{"/jquery-board.html", "Rust", "chosen Rust"},
		{"/alpine-board.html", "Add a reference", "references 1"},
	} {
		snap := must(t, s, "navigate", map[string]any{"url": srv.URL + c.page, "wait": "complete"}).Text
		if !strings.Contains(snap, "clickable") {
			snap = snapshot(t, s)
		}
		must(t, s, "click", map[string]any{"element": ref(t, snap, "clickable", c.target)})
		waitText(t, s, c.state)
	}
}

// TestSortablePlainItems: the plain <li> items of a SortableJS list with no handle
// are draggable and its lists drop targets, the empty one too: drag reorders a
// list and moves an item onto the empty list.
func TestSortablePlainItems(t *testing.T) {
	srv := vendorServer(t, targetLibs, nil)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/sortable-plain.html", "wait": "complete"})
	snap := snapshot(t, s)
	write, ship := ref(t, snap, "li", "Write tests"), ref(t, snap, "li", "Ship it")
	if !strings.Contains(snap, "["+write+`] li "Write tests" draggable`) {
		t.Errorf("want the item draggable:\n%s", snap)
	}
	must(t, s, "drag", map[string]any{"element": write, "to": ship})
	waitText(t, s, "todo Fix bug,Ship it,Write tests")
	done := ""
	for _, m := range refLine.FindAllStringSubmatch(snapshot(t, s), -1) {
		if m[2] == "ul" && strings.Contains(m[4], "drop target") && strings.Contains(m[4], "Done") {
			done = m[1]
		}
	}
	if done == "" {
		t.Fatalf("no empty list as a drop target:\n%s", snapshot(t, s))
	}
	must(t, s, "drag", map[string]any{"element": ref(t, snap, "li", "Fix bug"), "to": done})
	waitText(t, s, "done Fix bug")
}

// TestChartCanvas: a Chart.js canvas named by its aria-label gets a ref, and a
// screenshot of that element shows the chart's bars.
func TestChartCanvas(t *testing.T) {
	srv := vendorServer(t, targetLibs, nil)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/chart.html", "wait": "complete"})
	waitText(t, s, "chart drawn")
	snap := snapshot(t, s)
	if !strings.Contains(snap, `heading "Quarterly revenue" level=1`) {
		t.Errorf("want the heading with its level:\n%s", snap)
	}
	img, _ := shotImage(t, s, map[string]any{"element": ref(t, snap, "img", "Revenue by quarter")})
	b := img.Bounds()
	red := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 150 && g>>8 < 80 && bl>>8 < 80 {
				red++
			}
		}
	}
	if b.Dx() < 300 || red < b.Dx()*b.Dy()/20 {
		t.Errorf("the canvas's screenshot: %v, %d red pixels: want the chart's bars", b, red)
	}
}

// TestFrameText: include_all_text has the text of every frame read, cross-origin
// and same-origin, under each frame's line, between the untrusted-content
// markers: the confirmation an embedded application form shows after its
// submit can be read.
func TestFrameText(t *testing.T) {
	s := newSession(t, notAboutTheLock("the frame form's submit is the way to its confirmation text"))
	other := openPortal(t, s)
	waitText(t, s, "apply ready")
	snap := snapshot(t, s)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Submit application")})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Save search")})
	waitText(t, s, "SUBMITTED")
	waitText(t, s, "save clicked")
	text := must(t, s, "snapshot_page", map[string]any{"include_all_text": true}).Text
	at := strings.Index(text, `origin="`+other+`"`)
	sub := strings.LastIndex(text, "SUBMITTED")
	end := strings.LastIndex(text, "<<<end untrusted-page-content")
	if at < 0 || sub < 0 || sub < at || end < sub || !strings.Contains(text[at:sub], "--- page text ---") && !strings.Contains(text[at:], "--- end of frame ---") {
		t.Fatalf("want the form frame's text, with its confirmation, under its line inside the markers:\n%s", text)
	}
	if !strings.Contains(text[strings.Index(text, "--- page text ---"):], "save clicked trusted=true") {
		t.Errorf("want the same-origin frame's text too:\n%s", text)
	}
}

// TestTargetsLikeButtons: what works for a button works for a target without a
// role: a click's answer says what changed on it (a span toggle's text), query
// finds them by their kind, paging pages them, a ref whose node was replaced by an
// identical one is stale, and wait_for lists them.
func TestTargetsLikeButtons(t *testing.T) {
	s := newSession(t)
	openFixture(t, s, "/targets.html")
	snap := snapshot(t, s)
	toggle := ref(t, snap, "clickable", "Dark mode: off")
	res := must(t, s, "click", map[string]any{"element": toggle})
	if !strings.Contains(res.Text, "["+toggle+`] clickable "Dark mode: on"`) {
		t.Errorf("the toggle's click: want its change in the answer:\n%s", res.Text)
	}
	q := must(t, s, "snapshot_page", map[string]any{"query": "clickable", "max_elements": 3})
	if n := strings.Count(q.Text, "] clickable "); n != 3 || !strings.Contains(q.Text, `"query":"clickable","offset":3`) && !strings.Contains(q.Text, "offset") {
		t.Errorf("query clickable, 3 a page: %d lines\n%s", n, q.Text)
	}
	if st := q.Structured.(map[string]any); st["total_elements"].(int) < 7 || st["next_offset"] == nil {
		t.Errorf("query clickable: want at least 7 matches and a next page: %v", st)
	}
	saved := ref(t, snap, "clickable", "Saved searches")
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Refresh list")})
	_, e := call(t, s, "click", map[string]any{"element": saved})
	wantCode(t, e, "stale_element")
	w := must(t, s, "wait_for", map[string]any{"selector": "#tabbed", "timeout_ms": 2000})
	if !strings.Contains(w.Text, `clickable "Dark mode: on"`) {
		t.Errorf("wait_for: want the toggle listed:\n%s", w.Text)
	}
}

// TestPlainDivsListNothing: 3,000 plain text divs with no handler give no line,
// nor does the container that listens for their clicks (delegation).
func TestPlainDivsListNothing(t *testing.T) {
	srv := httptest.NewServer(plainPosts())
	t.Cleanup(srv.Close)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL, "wait": "complete"})
	snap := snapshot(t, s)
	if n := strings.Count(snap, "\n[e"); n != 1 || !strings.Contains(snap, `button "Load more"`) {
		t.Errorf("want the button alone:\n%.2000s", snap)
	}
}

// plainPosts serves a feed of 3,000 plain text posts under a container that
// listens for their clicks (delegation), and a "Load more" button.
func plainPosts() http.Handler {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Feed</title></head><body><button type="button">Load more</button><div id="feed">`)
	for i := range 3000 {
		b.WriteString("<div class=\"post\"><div>Post " + strconv.Itoa(i) + "</div><div>some text of the post</div></div>")
	}
	b.WriteString(`</div><script>document.getElementById("feed").addEventListener("click", () => {});</script></body></html>`)
	page := b.String()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
}

// BenchmarkDivSoupSnapshot prints the size of snapshot_page's answer for the
// React div-soup job board (docs/snapshot-targets.md compares it with Playwright
// MCP's): characters of the whole answer, and its element lines.
func BenchmarkDivSoupSnapshot(b *testing.B) {
	bundle := npmlibs.Bundle(b, "testdata/jobboard-react.jsx", reactLibs...)
	mods := npmlibs.Dir(b, reactLibs...)
	mux := http.NewServeMux()
	mux.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(mods))))
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	s := newSession(b)
	must(b, s, "select_tab", map[string]any{"index": 0})
	must(b, s, "navigate", map[string]any{"url": srv.URL + "/jobboard.html", "wait": "complete"})
	var text string
	benchutil.Run(b, nil, func() { text = must(b, s, "snapshot_page", map[string]any{}).Text })
	b.ReportMetric(float64(len([]rune(text))), "chars")
	benchutil.ReportLines(b, text)
	b.Log(text)
}
