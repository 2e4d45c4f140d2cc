package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// TestFocusUndoneWhenServerKilled: the focus-manager test mode the server
// turns on for a window that is not in front (SECURITY.md) is turned off by
// Firefox itself when the server process is killed (SIGKILL: no clean-up of
// its own), and never reaches prefs.js. Its own Firefox: the test opens a
// second window, which would disturb the shared one.
func TestFocusUndoneWhenServerKilled(t *testing.T) {
	ctx := testCtx(t)
	ff, err := headless.Start(ctx, headless.Options{URL: fx.URL + "/focus.html"})
	headless.SkipOrFail(t, err)
	defer ff.Stop()
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pc, err := c.ParentProcessConsole(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(src string) string { // constant test expressions, parent process
		out, err := c.EvaluateString(ctx, pc, src, rdp.EvalOptions{Await: true})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return out
	}
	const state = `(() => "user=" + Services.prefs.prefHasUserValue("focusmanager.testmode") + " value=" + Services.prefs.getBoolPref("focusmanager.testmode", false))()`
	waitState := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for got := eval(state); got != want; got = eval(state) {
			if time.Now().After(deadline) {
				t.Fatalf("focusmanager.testmode: %s, want %s", got, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	eval(`(() => { OpenBrowserWindow(); return "opened"; })()`)
	deadline := time.Now().Add(10 * time.Second)
	// (The new window shows about:blank or, in some runs, about:home: its page is not
	// what tells it is in front.)
	for eval(`(() => { const ws = [...Services.wm.getEnumerator("navigator:browser")]; return String(ws.length === 2 && Services.focus.activeWindow === ws[1]); })()`) != "true" {
		if time.Now().After(deadline) {
			t.Fatalf("the second window never became active: %s", eval(`(() => { const a = Services.focus.activeWindow; const ws = [...Services.wm.getEnumerator("navigator:browser")]; return "windows=" + ws.length + " active=" + (a ? ws.indexOf(a) + " " + a.document.readyState + " " + (a.gBrowser ? a.gBrowser.selectedBrowser.currentURI.spec : "-") : "none"); })()`))
		}
		time.Sleep(50 * time.Millisecond)
	}

	s := startServerOn(t, ctx, ff, binary)
	s.must(t, ctx, "select_tab", map[string]any{"index": 0})
	snap, _ := s.must(t, ctx, "snapshot_page", map[string]any{})
	s.must(t, ctx, "fill", map[string]any{"element": ref(t, snap, "textbox", "Email"), "value": "nope"})
	s.must(t, ctx, "press_key", map[string]any{"key": "Tab"})
	if _, _, e := s.call(t, ctx, "wait_for", map[string]any{"text": "invalid email", "timeout_ms": 5000}); e != nil {
		t.Fatalf("no on-blur validation: %s\n%s", e.Message, s.pageText(t, ctx))
	}
	waitState("user=false value=true")

	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
	waitState("user=false value=false")
	eval(`(() => { Services.prefs.savePrefFile(null); return "saved"; })()`)
	b, err := os.ReadFile(filepath.Join(ff.ProfileDir, "prefs.js"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "focusmanager") {
		t.Errorf("prefs.js holds the focus-manager preference:\n%s", b)
	}
}
