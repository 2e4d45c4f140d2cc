package browser

import (
	"context"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// TestFirefoxRestartRecovers: Firefox is killed under a selected tab; calls
// fail with a typed, retryable error, and once Firefox is back the session
// reconnects by itself with a new generation.
func TestFirefoxRestartRecovers(t *testing.T) {
	firefox.Get(t) // skip or fail as the package does when Firefox is missing
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ff, err := headless.Start(ctx, headless.Options{URL: pages.URL + "/form.html"})
	if err != nil {
		t.Fatal(err)
	}
	defer ff.Stop()
	s := New(Options{Config: testConfig(ff)})
	defer s.Close()
	must(t, s, "select_tab", map[string]any{"index": 0})
	old := ref(t, snapshot(t, s), "button", "Go")
	gen := must(t, s, "browser_status", map[string]any{}).Structured.(map[string]any)["generation"].(uint64)

	if err := ff.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	// The first call may still see the dead connection: connection_lost.
	// Within a few calls the session has reconnected and reselected the tab.
	var st map[string]any
	for i := 0; i < 20; i++ {
		res, e := call(t, s, "browser_status", map[string]any{})
		if e == nil && res.Structured.(map[string]any)["connected"] == true {
			st = res.Structured.(map[string]any)
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if st == nil {
		t.Fatal("browser_status never recovered after the restart")
	}
	if st["generation"] != nil && st["generation"].(uint64) <= gen {
		t.Errorf("generation %v after reconnect, was %d", st["generation"], gen)
	}
	// Old refs are dead; list_tabs and select_tab work again.
	_, e := call(t, s, "click", map[string]any{"element": old})
	if e == nil {
		t.Fatal("a ref from before the restart still worked")
	}
	must(t, s, "list_tabs", map[string]any{})
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "snapshot_page", map[string]any{})
}

// TestClosedTab: the selected tab is closed in the browser; page tools
// report tab_not_found instead of hanging.
func TestClosedTab(t *testing.T) {
	ff := firefox.Get(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := rdp.Dial(ctx, ff.Addr, rdp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	chrome := func(script pagejs.Script, args any, out any) {
		t.Helper()
		console, err := c.ParentProcessConsole(ctx)
		if err != nil {
			t.Fatal(err)
		}
		src, err := script.Chrome(args)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.EvaluateString(ctx, console, src, rdp.EvalOptions{Await: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := pagejs.Decode(res, out); err != nil {
			t.Fatal(err)
		}
	}
	var opened pagejs.TabResult
	chrome(pagejs.TabOpen, pagejs.TabOpenArgs{URL: pages.URL + "/other.html", Background: true}, &opened)

	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"tab_id": tabID(opened.BrowserID)})
	snapshot(t, s)
	var closed pagejs.TabResult
	chrome(pagejs.TabClose, pagejs.TabArgs{BrowserID: opened.BrowserID}, &closed)
	time.Sleep(300 * time.Millisecond)
	_, e := call(t, s, "snapshot_page", map[string]any{})
	wantCode(t, e, CodeTabNotFound)
}
