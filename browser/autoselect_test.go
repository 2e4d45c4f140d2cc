package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// TestNoSelectionUsesTheActiveTab: with a fresh session for every call (a
// client that runs one server process per call, like the MCP Inspector CLI),
// page tools act on the active tab of the most recent window and say so.
func TestNoSelectionUsesTheActiveTab(t *testing.T) {
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel) // cleanups run last-in first-out: after the tab is closed
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	chrome := func(script pagejs.Script, args any, out any) {
		t.Helper()
		if err := chromeScript(ctx, c, script, args, out); err != nil {
			t.Fatal(err)
		}
	}
	// A second tab, in the foreground: it is the active one.
	var opened pagejs.TabResult
	chrome(pagejs.TabOpen, pagejs.TabOpenArgs{URL: pages.URL + "/other.html"}, &opened)
	t.Cleanup(func() {
		var closed pagejs.TabResult
		chrome(pagejs.TabClose, pagejs.TabArgs{BrowserID: opened.BrowserID}, &closed)
	})
	id := browser.TabID(opened.BrowserID)
	deadline := time.Now().Add(20 * time.Second)
	// Firefox may take a moment to make the new tab the active one (under
	// load): until then a fresh session uses the old one, where the text
	// never shows.
	for {
		res, e := call(t, newSession(t), "wait_for", map[string]any{"text": "The other page.", "timeout_ms": 2000})
		if e == nil && strings.Contains(res.Text, id) {
			break
		}
		if e != nil && e.Code != errcode.WaitTimeout {
			t.Fatalf("wait_for: %v", e)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new foreground tab %s is not the one used: %s %v", id, res.Text, e)
		}
		time.Sleep(100 * time.Millisecond)
	}

	res := must(t, newSession(t), "snapshot_page", map[string]any{})
	for _, want := range []string{"No tab was selected", "active tab", id, "select_tab", `Page: "Other page"`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("snapshot without select_tab lacks %q:\n%s", want, res.Text)
		}
	}
	auto, _ := res.Structured.(map[string]any)["auto_selected_tab"].(map[string]any)
	if auto["tab_id"] != id || auto["auto"] != true {
		t.Errorf("auto_selected_tab = %v", auto)
	}
	// One process per call: navigate, then read back, each in a new session.
	must(t, newSession(t), "navigate", map[string]any{"url": pages.URL + "/form.html", "wait": "complete"})
	st := must(t, newSession(t), "snapshot_page", map[string]any{})
	if !strings.Contains(st.Text, id) || !strings.Contains(st.Text, `button "Go"`) {
		t.Errorf("the navigation did not happen in the active tab:\n%s", st.Text)
	}
	// Once selected, no note: the session keeps its tab.
	s := newSession(t)
	must(t, s, "snapshot_page", map[string]any{})
	if again := must(t, s, "snapshot_page", map[string]any{}); strings.Contains(again.Text, "No tab was selected") {
		t.Errorf("second call of a session repeats the note:\n%s", again.Text)
	}
	// Tools that need no tab never select one.
	s = newSession(t)
	must(t, s, "list_tabs", map[string]any{})
	if st := must(t, s, "browser_status", map[string]any{}).Structured.(map[string]any); st["selected_tab"] != nil {
		t.Errorf("browser_status after list_tabs has a selected tab: %v", st["selected_tab"])
	}
}
