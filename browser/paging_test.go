package browser_test

import (
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
)

var elementRef = regexp.MustCompile(`(?m)^\[(e\d+)\] `)

func refsOf(snap string) []string {
	var out []string
	for _, m := range elementRef.FindAllStringSubmatch(snap, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestSnapshotPaging: on the 3,000-element page every element (and each of its
// 101 headings: fixtures.LargeListed lines) is reachable
// by following the truncation line's exact next call; refs are the same in
// every page and filter of the same page; query filters on role, name and
// link target, ignoring case; links show their target.
func TestSnapshotPaging(t *testing.T) {
	srv := httptest.NewServer(fixtures.Handler())
	defer srv.Close()
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/large.html", "wait": "complete"})

	all := fixtures.LargeListed
	last, lastRefs := all/500, all%500 // the last page's index and its element count
	seen := map[string]bool{}
	var pages []string
	args := map[string]any{}
	next := regexp.MustCompile(`next: snapshot_page (\{.*\})\]`)
	for i := 0; ; i++ {
		res := must(t, s, "snapshot_page", args)
		pages = append(pages, res.Text)
		refs := refsOf(res.Text)
		for _, r := range refs {
			if seen[r] {
				t.Fatalf("page %d repeats %s", i, r)
			}
			seen[r] = true
		}
		m := next.FindStringSubmatch(res.Text)
		if m == nil {
			if i != last || len(refs) != lastRefs || strings.Contains(res.Text, "[truncated") {
				t.Fatalf("page %d: %d refs, no next call:\n%s", i, len(refs), tail(res.Text))
			}
			break
		}
		want := fmt.Sprintf(`{"offset":%d,"max_elements":500}`, 500*(i+1))
		if m[1] != want || len(refs) != 500 {
			t.Fatalf("page %d: next call %s (want %s), %d refs", i, m[1], want, len(refs))
		}
		if !strings.Contains(res.Text, fmt.Sprintf("[truncated: %d–%d of %d shown", 500*i+1, 500*(i+1), all)) {
			t.Errorf("page %d truncation line:\n%s", i, tail(res.Text))
		}
		args = map[string]any{"offset": 500 * (i + 1), "max_elements": 500}
	}
	if len(seen) != fixtures.LargeListed {
		t.Fatalf("%d distinct refs over all pages, want %d", len(seen), fixtures.LargeListed)
	}
	// The same page again: the same refs.
	again := must(t, s, "snapshot_page", map[string]any{"offset": 500}).Text
	if a, b := refsOf(again), refsOf(pages[1]); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("refs of the second page changed: %v… vs %v…", a[:3], b[:3])
	}
	if !strings.Contains(again, fmt.Sprintf("500 elements (501–1000 of %d)", all)) {
		t.Errorf("header of the second page:\n%s", again[:200])
	}
	// Links show where they go; the tracking parameter is left out.
	item := ref(t, pages[2], "link", "Item 1236 details")
	if !strings.Contains(pages[2], "["+item+`] link "Item 1236 details" → /item/1236`+"\n") {
		t.Errorf("link line of %s:\n%s", item, pages[2][:600])
	}
	// A filter finds it with the same ref, ignoring case.
	res := must(t, s, "snapshot_page", map[string]any{"query": "ITEM 1236 DETAILS"})
	if got := refsOf(res.Text); len(got) != 1 || got[0] != item || strings.Contains(res.Text, "[truncated") {
		t.Errorf("query: refs %v, want [%s]:\n%s", got, item, res.Text)
	}
	if st := res.Structured.(map[string]any); st["total_elements"] != 1 || st["all_elements"] != all {
		t.Errorf("query structured: %v", st)
	}
	// Link targets and roles match too; the filtered result pages the same way.
	res = must(t, s, "snapshot_page", map[string]any{"query": "/item/12", "max_elements": 5})
	if got := refsOf(res.Text); len(got) != 5 || !strings.Contains(res.Text, `next: snapshot_page {"offset":5,"max_elements":5,"query":"/item/12"}]`) {
		t.Errorf("query on link targets:\n%s", res.Text)
	}
	res = must(t, s, "snapshot_page", map[string]any{"query": "checkbox", "offset": 499})
	if got := refsOf(res.Text); len(got) != 1 || !strings.Contains(res.Text, "checkbox \"Option 2998\"") {
		t.Errorf("last checkbox:\n%s", res.Text)
	}
	// Past the end: nothing, said plainly.
	res = must(t, s, "snapshot_page", map[string]any{"offset": all})
	if len(refsOf(res.Text)) != 0 || !strings.Contains(res.Text, fmt.Sprintf("0 elements (none from offset %d of %d)", all, all)) {
		t.Errorf("past the end:\n%s", res.Text)
	}
	_, e := call(t, s, "snapshot_page", map[string]any{"query": ""})
	wantCode(t, e, errcode.InvalidArguments)
	_, e = call(t, s, "snapshot_page", map[string]any{"offset": -1})
	wantCode(t, e, errcode.InvalidArguments)
}

func tail(s string) string {
	if len(s) > 400 {
		return "…" + s[len(s)-400:]
	}
	return s
}
