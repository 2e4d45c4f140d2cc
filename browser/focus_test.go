package browser_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// chromeEval evaluates a constant test expression in the parent process
// through the test's own RDP connection (test code, never the product's).
func chromeEval(t *testing.T, ctx context.Context, c *rdp.Client, src string) string {
	t.Helper()
	pc, err := c.ParentProcessConsole(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.EvaluateString(ctx, pc, src, rdp.EvalOptions{Await: true})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return out
}

const (
	testmodeState = `(() => "user=" + Services.prefs.prefHasUserValue("focusmanager.testmode") +
		" value=" + Services.prefs.getBoolPref("focusmanager.testmode", false))()`
	savePrefs = `(() => { Services.prefs.savePrefFile(null); return "saved"; })()`
)

// prefsJS saves Firefox's preferences and returns prefs.js.
func prefsJS(t *testing.T, ctx context.Context, c *rdp.Client, ff *headless.Firefox) string {
	t.Helper()
	chromeEval(t, ctx, c, savePrefs)
	b, err := os.ReadFile(filepath.Join(ff.ProfileDir, "prefs.js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func waitState(t *testing.T, ctx context.Context, c *rdp.Client, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for got := chromeEval(t, ctx, c, testmodeState); got != want; got = chromeEval(t, ctx, c, testmodeState) {
		if time.Now().After(deadline) {
			t.Fatalf("focusmanager.testmode: %s, want %s", got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestFocusInBackgroundWindow: with the page's window not the active one (a
// second window is in front, as when the user works elsewhere), fill, Tab,
// type_text and click fire trusted focus, blur, focusin and focusout, so on-blur
// validation runs; the preference change behind it never reaches prefs.js and
// is undone by Firefox when the server's connection closes.
func TestFocusInBackgroundWindow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fx := httptest.NewServer(fixtures.Handler())
	defer fx.Close()
	ff, err := headless.Start(ctx, headless.Options{URL: fx.URL + "/focus.html"})
	headless.SkipOrFail(t, err)
	defer ff.Stop()
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	chromeEval(t, ctx, c, `(() => { OpenBrowserWindow(); return "opened"; })()`)
	deadline := time.Now().Add(10 * time.Second)
	for chromeEval(t, ctx, c, `String(Services.focus.activeWindow && Services.focus.activeWindow.gBrowser.selectedBrowser.currentURI.spec)`) != "about:blank" {
		if time.Now().After(deadline) {
			t.Fatal("the second window never became active")
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitState(t, ctx, c, "user=false value=false")

	s := wrap(browser.New(testOptions(ff)))
	must(t, s, "select_tab", map[string]any{"index": 0})
	snap := must(t, s, "snapshot_page", map[string]any{}).Text
	email, name := ref(t, snap, "textbox", "Email"), ref(t, snap, "textbox", "Name")
	must(t, s, "fill", map[string]any{"element": email, "value": "not-an-email"})
	waitState(t, ctx, c, "user=false value=true")
	must(t, s, "press_key", map[string]any{"key": "Tab"})
	must(t, s, "type_text", map[string]any{"element": name, "text": "Ada"})
	must(t, s, "press_key", map[string]any{"key": "Tab"})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Save draft"), "wait_after_ms": 0})
	waitText(t, s, "invalid email")
	want := "focus:email:true;focusin:email:true;blur:email:true;focusout:email:true;" +
		"focus:name:true;focusin:name:true;blur:name:true;focusout:name:true;focus:bio:true;focusin:bio:true;" +
		"blur:bio:true;focusout:bio:true;focus:save:true;focusin:save:true;"
	if got := pageText(t, s); !strings.Contains(got, want) {
		t.Errorf("focus events: %q, want %q", got, want)
	}
	if p := prefsJS(t, ctx, c, ff); strings.Contains(p, "focusmanager") {
		t.Errorf("prefs.js holds the focus-manager preference while the server is connected:\n%s", p)
	}
	s.Close() // the socket closes, as when the server process dies
	waitState(t, ctx, c, "user=false value=false")
	if p := prefsJS(t, ctx, c, ff); strings.Contains(p, "focusmanager") {
		t.Errorf("prefs.js holds the focus-manager preference after the server left:\n%s", p)
	}

	// A user who turned test mode on keeps it: nothing is claimed or undone.
	chromeEval(t, ctx, c, `(() => { Services.prefs.setBoolPref("focusmanager.testmode", true); return "set"; })()`)
	s2 := wrap(browser.New(testOptions(ff)))
	must(t, s2, "select_tab", map[string]any{"index": 0})
	snap = must(t, s2, "snapshot_page", map[string]any{}).Text
	must(t, s2, "fill", map[string]any{"element": ref(t, snap, "textbox", "Email"), "value": "a@b"})
	s2.Close()
	time.Sleep(300 * time.Millisecond)
	waitState(t, ctx, c, "user=true value=true")
	chromeEval(t, ctx, c, `(() => { Services.prefs.clearUserPref("focusmanager.testmode"); return "cleared"; })()`)
}

// TestFocusFromAddressBar: when the window's own interface holds the focus
// (the address bar, where the user last typed), focus moves into the page
// for an action, as a person's click in it would, and focus events fire.
func TestFocusFromAddressBar(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fx := httptest.NewServer(fixtures.Handler())
	defer fx.Close()
	ff, err := headless.Start(ctx, headless.Options{URL: fx.URL + "/focus.html"})
	headless.SkipOrFail(t, err)
	defer ff.Stop()
	c, err := rdp.DialEndpoint(ctx, rdp.Endpoint{Socket: ff.Socket}, rdp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const focused = `(() => String(Services.focus.focusedElement && Services.focus.focusedElement.localName))()`
	chromeEval(t, ctx, c, `(() => { Services.wm.getMostRecentWindow("navigator:browser").gURLBar.focus(); return "ok"; })()`)
	if got := chromeEval(t, ctx, c, focused); got != "input" {
		t.Fatalf("the address bar did not take the focus: %s", got)
	}
	s := wrap(browser.New(testOptions(ff)))
	defer s.Close()
	must(t, s, "select_tab", map[string]any{"index": 0})
	snap := must(t, s, "snapshot_page", map[string]any{}).Text
	must(t, s, "fill", map[string]any{"element": ref(t, snap, "textbox", "Email"), "value": "x"})
	must(t, s, "press_key", map[string]any{"key": "Tab"})
	waitText(t, s, "invalid email")
	if got := pageText(t, s); !strings.Contains(got, "focus:email:true;focusin:email:true;blur:email:true;focusout:email:true;focus:name:true;") {
		t.Errorf("focus events:\n%s", got)
	}
	if got := chromeEval(t, ctx, c, focused); got != "browser" {
		t.Errorf("focus is on %s, want the page's browser", got)
	}
}
