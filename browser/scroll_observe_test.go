package browser_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

var virtualLibs = []string{"@tanstack/virtual-core@3.19.11"}

// rowLine is a snapshot line of the virtualized list's rows.
var rowLine = regexp.MustCompile(`(?m)^\[(e\d+)\] button "Row (\d+)"$`)

// TestScrollObserves: scroll is an action like the others: it waits until
// the page is quiet (not a fixed time) and says what changed since the last
// view, with refs that work. On a list virtualized by @tanstack/virtual-core
// (from npm) the rows scrolled into range appeared and those scrolled out
// are gone (their refs stale); on an infinite feed, the posts its fetch
// brought once the end came into view appeared, and a button a throttled
// scroll handler shows (on a timer) too. A URL the page changes as it is
// scrolled (a table of contents that follows the reading position) is
// said, and refs work on.
func TestScrollObserves(t *testing.T) {
	srv := vendorServer(t, virtualLibs, func(mux *http.ServeMux) {
		mux.HandleFunc("/api/feed", func(w http.ResponseWriter, r *http.Request) {
			page, _ := strconv.Atoi(r.URL.Query().Get("page"))
			time.Sleep(80 * time.Millisecond)
			posts := make([]int, 10)
			for i := range posts {
				posts[i] = (page-1)*10 + i + 1
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			_ = json.NewEncoder(w).Encode(posts)
		})
	})
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/scroll-observe.html", "wait": "complete"})
	waitText(t, s, "ready")
	snap := snapshot(t, s)
	row0 := ref(t, snap, "button", "Row 0")
	if strings.Contains(snap, `"Row 40"`) || !strings.Contains(snap, `link "Post 10"`) || strings.Contains(snap, `"Post 11"`) {
		t.Fatalf("the page did not start with the first rows and one page of posts:\n%s", snap)
	}

	// The page, one page down: the feed's end stays out of view (the
	// headless window is 682 px high: the sentinel stays ≈170 px below it);
	// a scroll handler throttled to 100 ms shows a button (nothing else
	// changes: the wheel's point, the middle of the view, is below the
	// list), and the page keeps its URL in step.
	res := must(t, s, "scroll", map[string]any{"direction": "down"})
	for _, want := range []string{"appeared:\n[", `button "Back to top"`, "The URL changed since your last view", `#reading"`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("scroll one page down: the answer lacks %q:\n%s", want, res.Text)
		}
	}
	if st := res.Structured.(map[string]any); st["navigated"] != false || changes(t, res)["appeared"] != 1 {
		t.Errorf("scroll one page down: navigated %v (a same-document URL change made by the page is no route of the agent's), or not one element appeared:\n%s", st["navigated"], res.Text)
	}

	// The infinite feed: its end comes into view, the next page is fetched
	// (80 ms) and appended; the scroll waits for it.
	res = must(t, s, "scroll", map[string]any{"to": "bottom"})
	for _, want := range []string{`link "Post 11" → /scroll-observe.html#post-11`, `link "Post 20" → /scroll-observe.html#post-20`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("scroll to the bottom: the answer lacks %q:\n%s", want, res.Text)
		}
	}
	post := ref(t, res.Text, "link", "Post 15")

	// Back to the top in one jump: the answer waits for the throttled
	// handler, which hides the button 100 ms after the scroll.
	res = must(t, s, "scroll", map[string]any{"to": "top"})
	if !strings.Contains(res.Text, "gone:\n- [") || !strings.Contains(res.Text, `button "Back to top"`) || changes(t, res)["gone"] != 1 {
		t.Errorf("scroll to the top: want the button gone:\n%s", res.Text)
	}

	// The virtualized list, scrolled through its container by a row's ref.
	res = must(t, s, "scroll", map[string]any{"element": row0, "direction": "down", "pages": 2})
	c := changes(t, res)
	appeared, _ := c["appeared"].(int)
	gone, _ := c["gone"].(int)
	if appeared == 0 || gone == 0 || !strings.Contains(res.Text, "- ["+row0+`] button "Row 0"`) {
		t.Fatalf("scrolling the list: want rows appeared and Row 0 gone (%d appeared, %d gone):\n%s", appeared, gone, res.Text)
	}
	newRow, newIndex := "", 0
	for _, m := range rowLine.FindAllStringSubmatch(res.Text[strings.Index(res.Text, "appeared:"):], -1) {
		if n, _ := strconv.Atoi(m[2]); n > newIndex {
			newRow, newIndex = m[1], n
		}
	}
	if newIndex < 10 {
		t.Fatalf("no row scrolled into range is listed as appeared:\n%s", res.Text)
	}
	// Right after, with the pointer left on a row (hover), the page one page
	// down: the wheel goes to the page, not to the list under the pointer.
	must(t, s, "hover", map[string]any{"element": newRow})
	res = must(t, s, "scroll", map[string]any{"direction": "down"})
	if st := res.Structured.(map[string]any); st["how"] != "wheel" || strings.Contains(res.Text, `button "Row `) {
		t.Errorf("scroll the page right after the list: want the page wheeled and the list left alone:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": newRow, "observe": false})
	waitText(t, s, "clicked Row "+strconv.Itoa(newIndex))
	_, e := call(t, s, "click", map[string]any{"element": row0})
	wantCode(t, e, errcode.StaleElement)

	res = must(t, s, "scroll", map[string]any{"direction": "down", "observe": false})
	if st := res.Structured.(map[string]any); st["changes"] != nil || strings.Contains(res.Text, "untrusted-page-content") {
		t.Errorf("observe false: the answer still says what changed:\n%s", res.Text)
	}
	res = must(t, s, "scroll", map[string]any{"element": post})
	if st := res.Structured.(map[string]any); st["in_view"] != true || changes(t, res)["known"] != true {
		t.Errorf("scroll a post into view: %s", res.Text)
	}
}
