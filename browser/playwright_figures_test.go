package browser_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/npmlibs"
)

// TestPlaywrightMCPFigures measures the figures docs/snapshot-targets.md
// compares: the characters of the text of navigate's and snapshot_page's
// answers and their refs, against Playwright MCP's browser_navigate and
// browser_snapshot for the same pages (the React div-soup job board, the
// 3,000-element fixture, the 3,000 plain posts of TestPlainDivsListNothing, the
// Mantine job search of TestDesignSystemJobBoard).
// It only reports, and runs only when PLAYWRIGHT_MCP names @playwright/mcp's
// cli.js, installed by hand with a browser it can launch (see the doc; nothing
// is downloaded here); PLAYWRIGHT_MCP_ARGS replaces the script's default flags,
// PLAYWRIGHT_MCP_OUT names a folder to keep every answer's text in.
func TestPlaywrightMCPFigures(t *testing.T) {
	cli := os.Getenv("PLAYWRIGHT_MCP")
	if cli == "" {
		t.Skip("PLAYWRIGHT_MCP (the path of @playwright/mcp's cli.js) is not set")
	}
	bundle := npmlibs.Bundle(t, "testdata/jobboard-react.jsx", reactLibs...)
	board := vendorServer(t, reactLibs, func(mux *http.ServeMux) {
		mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
		mux.HandleFunc("/favicon.ico", noFavicon)
	})
	large := httptest.NewServer(withoutFavicon(fixtures.Handler()))
	t.Cleanup(large.Close)
	posts := httptest.NewServer(withoutFavicon(plainPosts()))
	t.Cleanup(posts.Close)
	search := jobSearchServer(t)
	urls := []string{board.URL + "/jobboard.html", large.URL + "/large.html", posts.URL + "/", search.URL + "/jobsearch.html"}
	names := []string{"jobboard", "large", "posts", "jobsearch"}

	var rows []figure
	for i, u := range urls {
		rows = append(rows, ourFigures(t, names[i], u)...)
	}
	rows = append(rows, playwrightFigures(t, cli, names, urls)...)
	t.Log("page      server      tool               chars   refs")
	for _, r := range rows {
		t.Logf("%-9s %-11s %-17s %7d %6d", r.page, r.server, r.tool, r.chars, r.refs)
		keepAnswer(t, r)
	}
}

// figure is one answer measured: characters (runes) of its text, refs in it.
type figure struct {
	page, server, tool string
	chars, refs        int
	text               string
}

var ourRef = regexp.MustCompile(`(?m)^\[e\d+\]`)

func measured(page, server, tool, text string, refs int) figure {
	return figure{page, server, tool, len([]rune(text)), refs, text}
}

// ourFigures: navigate (wait complete) and snapshot_page with the server's
// default limits (testOptions: FIREFOX_MCP_MAX_ELEMENTS's 500); on the large
// page also snapshot_page listing all of it (max_elements 5000).
func ourFigures(t *testing.T, page, url string) []figure {
	t.Helper()
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	nav := must(t, s, "navigate", map[string]any{"url": url, "wait": "complete"}).Text
	snap := snapshot(t, s)
	out := []figure{
		measured(page, "ours", "navigate", nav, len(ourRef.FindAllString(nav, -1))),
		measured(page, "ours", "snapshot_page", snap, len(ourRef.FindAllString(snap, -1))),
	}
	if page == "large" {
		full := newSession(t, func(o *browser.Options) { o.MaxElements = 5000 })
		must(t, full, "select_tab", map[string]any{"index": 0})
		all := must(t, full, "snapshot_page", map[string]any{"max_elements": 5000}).Text
		out = append(out, measured(page, "ours", "snapshot_page(all)", all, len(ourRef.FindAllString(all, -1))))
	}
	return out
}

// playwrightFigures runs scripts/measure-playwright-mcp.mjs on urls (one
// Playwright MCP, one browser) in a temporary folder (its snapshot files).
func playwrightFigures(t *testing.T, cli string, names, urls []string) []figure {
	t.Helper()
	script, err := filepath.Abs("../scripts/measure-playwright-mcp.mjs")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{script, cli}, urls...)
	if extra := os.Getenv("PLAYWRIGHT_MCP_ARGS"); extra != "" {
		args = append(append(args, "--"), strings.Fields(extra)...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, stderr.String())
	}
	var rows []figure
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r struct {
			URL, Tool, Text string
			Chars, Refs     int
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%v: %q", err, sc.Text())
		}
		page := names[indexOf(urls, r.URL)]
		rows = append(rows, figure{page, "playwright", r.Tool, r.Chars, r.Refs, r.Text})
	}
	if len(rows) != 2*len(urls) {
		t.Fatalf("want %d answers, got %d\n%s", 2*len(urls), len(rows), stderr.String())
	}
	return rows
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// keepAnswer writes r's text to $PLAYWRIGHT_MCP_OUT/<page>-<server>-<tool>.txt.
func keepAnswer(t *testing.T, r figure) {
	dir := os.Getenv("PLAYWRIGHT_MCP_OUT")
	if dir == "" {
		return
	}
	name := fmt.Sprintf("%s-%s-%s.txt", r.page, r.server, strings.NewReplacer("(", "-", ")", "").Replace(r.tool))
	if err := os.WriteFile(filepath.Join(dir, name), []byte(r.text), 0o644); err != nil {
		t.Error(err)
	}
}

// noFavicon answers the browser's favicon request with no content (a 404
// would put a console error in Playwright MCP's answers).
func noFavicon(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

func withoutFavicon(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("/favicon.ico", noFavicon)
	return mux
}
