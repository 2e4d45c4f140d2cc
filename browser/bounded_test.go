package browser_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// answerSize is the bytes an answer takes on the wire: its text and its
// structuredContent as JSON, images as base64.
func answerSize(t *testing.T, res tools.Result, e *browser.Error) int {
	text, st := res.Text, any(res.Structured)
	if e != nil {
		text, st = e.Text(), e.Structured()
	}
	a, _ := json.Marshal(text)
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	n := len(a) + len(b)
	for _, im := range res.Images {
		n += (len(im.Data) + 2) / 3 * 4
	}
	return n
}

// TestAnswersBounded: on a page with a 2 MiB title, ending in characters that escape to
// ten bytes each, a 400,000-character address, long names, values, text, console
// messages and request URLs, every tool's answer stays within its documented bound
// (tools.AnswerBound, docs/limits.md). Prints each tool's largest answer.
func TestAnswersBounded(t *testing.T) {
	s := newSession(t)
	open(t, s, "form.html")
	nt := must(t, s, "new_tab", map[string]any{"url": pages.URL + "/huge.html"})
	id := nt.Structured.(map[string]any)["tab_id"].(string)
	defer call(t, s, "close_tab", map[string]any{"tab_id": id})
	largest := map[string]int{}
	measure := func(tool string, args map[string]any) tools.Result {
		t.Helper()
		res, e := call(t, s, tool, args)
		n := answerSize(t, res, e)
		if e != nil {
			t.Logf("%s: %v", tool, browser.Truncate(e.Text(), 300))
		}
		largest[tool] = max(largest[tool], n)
		if n > tools.AnswerBound(tool) {
			t.Errorf("%s %v: %d bytes, over its bound of %d", tool, args, n, tools.AnswerBound(tool))
		}
		return res
	}
	second := measure("new_tab", map[string]any{"url": pages.URL + "/huge.html", "select": false})
	measure("select_tab", map[string]any{"tab_id": id})
	measure("wait_for", map[string]any{"selector": "body[data-ready]", "timeout_ms": 20000})
	measure("browser_status", map[string]any{})
	measure("list_tabs", map[string]any{})
	snap := measure("snapshot_page", map[string]any{"include_all_text": true})
	measure("console_messages", map[string]any{"limit": 1000})
	measure("network_requests", map[string]any{})
	measure("network_request", map[string]any{"id": "r1"})
	measure("screenshot", map[string]any{})
	b := ref(t, snap.Text, "button", "Go")
	measure("click", map[string]any{"element": b})
	measure("hover", map[string]any{"element": b})
	notes := ref(t, snap.Text, "textbox", "Notes")
	measure("fill", map[string]any{"element": notes, "value": "x"})
	measure("type_text", map[string]any{"element": notes, "text": "ab"})
	measure("fill_form", map[string]any{"fields": []map[string]any{{"element": notes, "value": "y"}}})
	measure("press_key", map[string]any{"key": "Tab"})
	measure("drag", map[string]any{"element": b, "to": notes})
	measure("select_option", map[string]any{"element": b, "options": []string{"x"}})
	measure("upload_files", map[string]any{"element": b, "paths": []string{"/nonexistent/file"}})
	measure("handle_dialog", map[string]any{"action": "accept"})
	measure("list_downloads", map[string]any{})
	measure("scroll", map[string]any{"direction": "down"})
	measure("navigate", map[string]any{"history": "reload", "wait": "complete"})
	measure("wait_for", map[string]any{"selector": "body[data-ready]", "timeout_ms": 20000})
	measure("snapshot_page", map[string]any{"include_all_text": true})
	if st, ok := second.Structured.(map[string]any); ok {
		measure("close_tab", map[string]any{"tab_id": st["tab_id"]})
	}
	for _, tool := range s.tools.Tools() {
		n, ok := largest[tool.Name]
		if !ok {
			t.Errorf("%s: not measured here", tool.Name)
		}
		t.Logf("  %-16s largest answer %9d bytes (bound %d)", tool.Name, n, tools.AnswerBound(tool.Name))
	}
}

// TestTabListSurvivesLongTitles: root's listTabs carries every title whole in one
// reply, so tabs with long titles can make it larger than the connection reads (64
// MiB; here 4 MiB, with five tabs of 1 MiB titles), after which every list_tabs and
// select_tab failed. The list comes from the parent process with bounded titles.
func TestTabListSurvivesLongTitles(t *testing.T) {
	s := newSession(t, func(o *browser.Options) {
		dial := o.Dial
		if dial == nil {
			dial = browser.DialRDP
		}
		o.Dial = func(ctx context.Context, ep rdp.Endpoint, ro rdp.Options) (browser.Connection, error) {
			ro.ReadLimit = 4 << 20
			return dial(ctx, ep, ro)
		}
	})
	open(t, s, "form.html")
	var ids []string
	for range 5 {
		res := must(t, s, "new_tab", map[string]any{"url": pages.URL + "/long-title.html", "select": false})
		ids = append(ids, res.Structured.(map[string]any)["tab_id"].(string))
	}
	defer func() {
		for _, id := range ids {
			call(t, s, "close_tab", map[string]any{"tab_id": id})
		}
	}()
	long := strings.Repeat("T", 1000)
	eventually(t, s, "list_tabs", map[string]any{}, long[:80]) // the titles are set
	for range 2 {
		res := must(t, s, "list_tabs", map[string]any{})
		if n := strings.Count(res.Text, "tab-"); n < 6 {
			t.Fatalf("list_tabs shows %d tabs:\n%s", n, res.Text)
		}
		must(t, s, "select_tab", map[string]any{"tab_id": ids[len(ids)-1]})
	}
}
