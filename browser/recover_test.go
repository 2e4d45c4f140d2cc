package browser_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
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
	s := wrap(browser.New(testOptions(ff)))
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
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	chrome := func(script pagejs.Script, args any, out any) {
		t.Helper()
		if err := chromeScript(ctx, c, script, args, out); err != nil {
			t.Fatal(err)
		}
	}
	var opened pagejs.TabResult
	chrome(pagejs.TabOpen, pagejs.TabOpenArgs{URL: pages.URL + "/other.html", Background: true}, &opened)

	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"tab_id": browser.TabID(opened.BrowserID)})
	snapshot(t, s)
	var closed pagejs.TabResult
	chrome(pagejs.TabClose, pagejs.TabArgs{BrowserID: opened.BrowserID}, &closed)
	time.Sleep(300 * time.Millisecond)
	_, e := call(t, s, "snapshot_page", map[string]any{})
	wantCode(t, e, errcode.TabNotFound)
}

// TestRestartMidCall: Firefox is killed and restarted (same profile, same
// port) during a wait_for. The call gets a typed answer within its timeout.
// Browser tab ids start over after a restart, so the old selection's id now
// names some other tab: the session must not drive it, but clear the
// selection and say that Firefox restarted; a new select_tab then works.
func TestRestartMidCall(t *testing.T) {
	firefox.Get(t) // skip or fail as the package does when Firefox is missing
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ff, err := headless.Start(ctx, headless.Options{URL: pages.URL + "/form.html"})
	if err != nil {
		t.Fatal(err)
	}
	defer ff.Stop()
	s := wrap(browser.New(testOptions(ff)))
	defer s.Close()
	sel := must(t, s, "select_tab", map[string]any{"index": 0}).Structured.(map[string]any)["tab_id"]
	snapshot(t, s)

	restarted := make(chan error, 1)
	go func() {
		time.Sleep(500 * time.Millisecond)
		restarted <- ff.Restart(ctx)
	}()
	start := time.Now()
	_, e := callCtx(ctx, t, s, "wait_for", map[string]any{"text": "never there", "timeout_ms": 8000})
	took := time.Since(start)
	if e == nil || (e.Code != errcode.ConnectionLost && e.Code != errcode.NotConnected) {
		t.Fatalf("wait_for across the restart: %v, want connection_lost", e)
	}
	if took > 9*time.Second {
		t.Errorf("wait_for answered after %v, past its 8 s timeout (+1 s)", took)
	}
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	answered := time.Now()
	// Until the new Firefox listens, calls are not_connected; then the
	// selection is gone, and the error says why.
	var got *browser.Error
	for i := 0; i < 40; i++ {
		res, e := call(t, s, "snapshot_page", map[string]any{})
		if e == nil {
			t.Fatalf("snapshot_page after the restart acted on a tab nobody selected:\n%s", res.Text)
		}
		if e.Code == errcode.NoTabSelected {
			got = e
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if got == nil || !strings.Contains(got.Message, "Firefox restarted") {
		t.Fatalf("after the restart: %v, want no_tab_selected saying Firefox restarted", got)
	}
	tabs := tabsOf(t, must(t, s, "list_tabs", map[string]any{}))
	reused := false
	for _, tb := range tabs {
		reused = reused || tb.TabID == sel
	}
	t.Logf("tab id %v before the restart; reused after it: %v", sel, reused)
	st := must(t, s, "browser_status", map[string]any{}).Structured.(map[string]any)
	if st["selected_tab"] != nil || !strings.Contains(fmt.Sprint(st["selection_cleared"]), "restarted") {
		t.Errorf("browser_status after the restart: %v", st)
	}
	must(t, s, "select_tab", map[string]any{"index": 0})
	snapshot(t, s)
	t.Logf("FIGURE %-28s typed answer %-20s after %6d ms; next call on another tab ok after %5d ms",
		"firefox_restart_mid_call", e.Code, took.Milliseconds(), time.Since(answered).Milliseconds())
}

// TestReconnectReselects: a dropped connection to the same Firefox
// reselects the same, ordinary tab.
func TestReconnectReselects(t *testing.T) {
	s := newSession(t)
	open(t, s, "other.html")
	id := must(t, s, "browser_status", map[string]any{}).Structured.(map[string]any)["selected_tab"].(map[string]any)["tab_id"]
	s.DropConnection()
	if !strings.Contains(snapshot(t, s), "Other page") {
		t.Error("snapshot after the reconnect is not of the selected tab")
	}
	if got := must(t, s, "browser_status", map[string]any{}).Structured.(map[string]any)["selected_tab"].(map[string]any)["tab_id"]; got != id {
		t.Errorf("reselected %v, want %v", got, id)
	}
}

// TestReselectDecisions: after a reconnect the previous tab is taken back
// only from the same run of Firefox, and only when it is still listed.
func TestReselectDecisions(t *testing.T) {
	s := newSession(t)
	open(t, s, "other.html")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := s.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	now, err := browser.BrowserInstance(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	tab, inst := s.Selected()
	if inst != now || now.PID == 0 || now.Started == 0 {
		t.Fatalf("instance %+v, session saw %+v", now, inst)
	}
	other := now
	other.Started++ // another run of Firefox (a restart), same tab ids
	for _, c2 := range []struct {
		name      string
		tab       rdp.Tab
		prev, now pagejs.BrowserInstanceResult
		keep      bool
		why       string
	}{
		{"same run", tab, now, now, true, ""},
		{"restarted", tab, now, other, false, "Firefox restarted"},
		{"unknown run", tab, pagejs.BrowserInstanceResult{}, now, false, "could not be checked"},
		{"tab gone", rdp.Tab{BrowserID: 1 << 40}, now, now, false, "was closed"},
	} {
		kept, why := s.Reselect(ctx, c, c2.tab, c2.prev, c2.now)
		if kept != c2.keep || !strings.Contains(why, c2.why) {
			t.Errorf("%s: reselected %v, %q", c2.name, kept, why)
		}
	}
}
