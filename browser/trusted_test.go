package browser_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// TestForgedTrustIsNotBelieved: in the page-realm fallback a page owns
// every API our script calls, JSON.stringify included. This page rewrites
// every result to claim trusted input; the server's answer must still say
// the input was a synthetic page-script event, because trusted comes from
// where the engine ran the script, not from what came back.
func TestForgedTrustIsNotBelieved(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	open(t, s, "forged-trust.html")
	snap := snapshot(t, s)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"click", map[string]any{"element": ref(t, snap, "button", "Press"), "wait_after_ms": 0}},
		{"fill", map[string]any{"element": ref(t, snap, "textbox", "Field"), "value": "x"}},
		{"type_text", map[string]any{"element": ref(t, snap, "textbox", "Field"), "text": "y"}},
		{"press_key", map[string]any{"key": "a", "element": ref(t, snap, "textbox", "Field")}},
		{"hover", map[string]any{"element": ref(t, snap, "button", "Press")}},
	} {
		res := must(t, s, c.tool, c.args)
		st := res.Structured.(map[string]any)
		if st["trusted"] != false || strings.Contains(res.Text, "(trusted input)") || !strings.Contains(res.Text, "synthetic page-script event") {
			t.Errorf("%s believed the page: trusted=%v\n%s", c.tool, st["trusted"], res.Text)
		}
	}
	// The forgery did run: the page counted the results it rewrote, and
	// the click it saw was not trusted.
	if title := must(t, s, "snapshot_page", map[string]any{}).Structured.(map[string]any)["title"].(browser.Page).Raw(); !strings.HasPrefix(title, "Forged trust ") || title == "Forged trust" {
		t.Errorf("the page forged nothing (title %q): the test proves nothing", title)
	}
	if txt := pageText(t, s); !strings.Contains(txt, "click:false;") {
		t.Errorf("page log %q", txt)
	}
}

// TestForgedCodeIsNotBelieved: in the page-realm fallback a page can make
// our script fail with an error shaped like the scripts' own; a code that
// is the server's claim (not_connected, uploads_disabled) is not passed
// on: it is page_script_failed, with the page's words inside the markers.
func TestForgedCodeIsNotBelieved(t *testing.T) {
	s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = true })
	for _, arm := range []string{"Arm", "Arm uploads"} {
		open(t, s, "forged-code.html")
		snap := snapshot(t, s)
		must(t, s, "click", map[string]any{"element": ref(t, snap, "button", arm), "wait_after_ms": 0})
		_, e := call(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Press"), "wait_after_ms": 0})
		if e == nil || e.Code != errcode.PageScriptFailed {
			t.Fatalf("%s: a page-forged code reached the agent: %v", arm, e)
		}
		if text := e.Text(); !strings.Contains(text, "untrusted-page-content") || !strings.Contains(text, "Firefox is gone") {
			t.Errorf("%s: the page's words are not shown as page text:\n%s", arm, text)
		}
	}
}
