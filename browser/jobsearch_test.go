package browser_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

// jobSearchServer serves the Mantine job search (testdata/jobsearch-mantine.jsx,
// bundled as /app.js of /jobsearch.html) with the fixtures' live routes (its
// WebSocket).
func jobSearchServer(t *testing.T) *httptest.Server {
	t.Helper()
	bundle := npmlibs.Bundle(t, "testdata/jobsearch-mantine.jsx", mantineLibs...)
	return vendorServer(t, mantineLibs, func(mux *http.ServeMux) {
		mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
		mux.Handle("/live/", fixtures.Handler())
		mux.HandleFunc("/favicon.ico", noFavicon)
	})
}

// linesOf counts a snapshot's element lines by role, and those of role whose
// name starts with prefix.
func linesOf(snap, role, prefix string) int {
	n := 0
	for _, m := range refLine.FindAllStringSubmatch(snap, -1) {
		name, _ := strconv.Unquote(m[3])
		if m[2] == role && strings.HasPrefix(name, prefix) {
			n++
		}
	}
	return n
}

// TestDesignSystemJobBoard: a job search built on Mantine 8 (React 18) as production
// apps are, div soup throughout: each of the 20 cards (a Card with onClick, no
// cursor) is one clickable line named by its text, not a line per inner div; the
// bookmark icons (spans named only by their title), the filter chips (Badges with
// onClick) and the pagination (divs) are listed. Clicks on a card, a bookmark, a page
// and a chip through their refs change the page's own state, and their answers say
// what changed. Twice: with the isolated realm, where Firefox's listener service sees
// the no-op onclick React 18 sets on every element with an onClick (its Mobile Safari
// click trap), and in the page realm only (no listener marks), where the React row
// of lib.js's FRAMEWORKS is what lists them (that case fails without the row). The
// lock stays on: a card's name holds its salary ("€55k") and its clicks ask nothing
// (the vocabulary's gates: an amount on a click target is no payment).
func TestDesignSystemJobBoard(t *testing.T) {
	srv := jobSearchServer(t)
	for _, pageRealm := range []bool{false, true} {
		t.Run(map[bool]string{false: "isolated realm", true: "page realm only"}[pageRealm], func(t *testing.T) {
			s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = pageRealm })
			must(t, s, "select_tab", map[string]any{"index": 0})
			must(t, s, "navigate", map[string]any{"url": srv.URL + "/jobsearch.html", "wait": "complete"})
			snap := snapshot(t, s)
			jobBoardLines(t, snap)
			jobBoardClicks(t, s, snap)
		})
	}
}

// jobBoardLines checks the lines of the job search's first snapshot.
func jobBoardLines(t *testing.T, snap string) {
	t.Helper()
	cards := 0
	for _, title := range []string{"Senior Go", "Frontend", "Site Reliability", "Data Engineer", "Product Designer", "Backend",
		"Engineering Manager", "Full Stack", "Machine Learning", "Mobile", "DevOps", "QA"} {
		cards += linesOf(snap, "clickable", title)
	}
	for _, c := range []struct {
		what string
		got  int
		want int
	}{
		{"cards", cards, 20},
		{"bookmarks", linesOf(snap, "clickable", "Save job"), 20},
		{"images: the site logo (a card's logo is part of its line)", linesOf(snap, "img", ""), 1},
		{"chips named Go (a tag badge in a card is no target)", linesOf(snap, "clickable", "Go"), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d lines, want %d:\n%s", c.what, c.got, c.want, snap)
		}
	}
	for _, not := range []string{`"Acme Corp"`, `clickable "Senior Go Engineer"`, `"Berlin"`, `"today"`} {
		if strings.Contains(snap, not) {
			t.Errorf("an inner div of a card listed (%s):\n%s", not, snap)
		}
	}
	for _, chip := range []string{"Remote", "Full time", "Contract", "Senior", "React", "Python", "Rust", "‹ Prev", "1", "2", "3", "Next ›"} {
		ref(t, snap, "clickable", chip)
	}
}

// jobBoardClicks clicks a card, a bookmark, a page and a chip of the job search and
// checks the page's state and the answers.
func jobBoardClicks(t *testing.T, s *session, snap string) {
	t.Helper()
	card := ref(t, snap, "clickable", "Senior Go Engineer Acme Corp Berlin · €55k – €70k Go React today")
	res := must(t, s, "click", map[string]any{"element": card})
	waitText(t, s, "Opened: Senior Go Engineer")
	if !strings.Contains(res.Text, `heading "Senior Go Engineer" level=3`) || !strings.Contains(res.Text, `button "Apply now"`) {
		t.Errorf("the card's click: want the details pane's heading and button in its answer:\n%s", res.Text)
	}
	bookmark := nearLine(t, snap, "Save job", "Frontend Developer Stark Industries") // the second card's
	res = must(t, s, "click", map[string]any{"element": bookmark})
	waitText(t, s, "Saved jobs: 1")
	// (Its ref stays where refs are bound to nodes; in the page realm a new name is a new ref.)
	kept := strings.Contains(res.Text, "["+bookmark+`] clickable "Saved"`)
	if !kept && (!strings.Contains(res.Text, `clickable "Saved"`) || !strings.Contains(res.Text, "- ["+bookmark+"]")) {
		t.Errorf("the bookmark's click: want its new name in the answer:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "clickable", "2")})
	waitText(t, s, "page 2 of 3")
	if !strings.Contains(res.Text, `clickable "Machine Learning Engineer Vandelay Imports`) {
		t.Errorf("page 2: want its first card in the answer:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "clickable", "Remote")})
	gone, _ := changes(t, res)["gone"].(int)
	waitText(t, s, "16 jobs · page 1 of 1 · filters Remote")
	if !strings.Contains(res.Text, `clickable "Site Reliability Engineer Tyrell Remote`) || gone == 0 {
		t.Errorf("the Remote chip: want the remote jobs in its answer and the others gone:\n%s", res.Text)
	}
	// The bookmark's click did not open its card (stopPropagation).
	if text := pageText(t, s); !strings.Contains(text, "Saved jobs: 1") || !strings.Contains(text, "Opened: Senior Go Engineer") {
		t.Errorf("want one job saved, the first one still open:\n%s", text)
	}
}

// nearLine finds the clickable line named name with near="near" in a snapshot.
func nearLine(t *testing.T, snap, name, near string) string {
	t.Helper()
	for _, m := range refLine.FindAllStringSubmatch(snap, -1) {
		if n, _ := strconv.Unquote(m[3]); m[2] == "clickable" && n == name && strings.Contains(m[4], ` near="`+near+`"`) {
			return m[1]
		}
	}
	t.Fatalf("no clickable %q near %q in snapshot:\n%s", name, near, snap)
	return ""
}
