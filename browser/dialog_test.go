package browser_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// TestClickThatOpensADialogWorked: the click happened, so it is reported as
// done, with the dialog and how to answer it; the next page tool, which
// the dialog blocks, is the one that reports dialog_open.
func TestClickThatOpensADialogWorked(t *testing.T) {
	s := newSession(t)
	open(t, s, "dialog.html")
	snap := snapshot(t, s)
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Alert")})
	for _, want := range []string{"Clicked e", "opened an alert dialog", `"Session expires soon"`, "handle_dialog", `"accept"`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("click result lacks %q: %s", want, res.Text)
		}
	}
	d, _ := res.Structured.(map[string]any)["dialog"].(map[string]any)
	if txt, _ := d["text"].(browser.Page); d["type"] != "alert" || txt.Raw() != "Session expires soon" {
		t.Errorf("structured dialog = %v", res.Structured)
	}
	_, e := call(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Confirm")})
	wantCode(t, e, errcode.DialogOpen)
	if !strings.Contains(e.Message, "shows an alert dialog") || e.Retryable() {
		t.Errorf("dialog_open for a later call: %q, retryable %v", e.Message, e.Retryable())
	}
	must(t, s, "handle_dialog", map[string]any{"action": "accept"})
	waitText(t, s, "alert closed")

	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Confirm")})
	if !strings.Contains(res.Text, "opened a confirm dialog") || !strings.Contains(res.Text, `"dismiss" for Cancel`) {
		t.Errorf("confirm click result: %s", res.Text)
	}
	must(t, s, "handle_dialog", map[string]any{"action": "dismiss"})
	waitText(t, s, "confirm=false")
}

func TestDialogName(t *testing.T) {
	for typ, want := range map[string]string{"alert": "an alert", "confirm": "a confirm", "prompt": "a prompt", "": "a"} {
		if got := browser.DialogName(typ); got != want {
			t.Errorf("DialogName(%q) = %q, want %q", typ, got, want)
		}
	}
}

// TestWaitForUnderADialog: a dialog the page opens by itself (from a timer,
// not during one of the server's actions) ends a wait_for with dialog_open,
// whether it was up before the wait began or opened during it; the wait
// does not run to its timeout.
func TestWaitForUnderADialog(t *testing.T) {
	s := newSession(t)
	for _, tc := range []struct {
		name  string
		delay int
		pause time.Duration
	}{
		{"up before the wait", 50, 500 * time.Millisecond},
		{"opened during the wait", 400, 0},
	} {
		open(t, s, "dialog.html#"+strconv.Itoa(tc.delay))
		snap := snapshot(t, s)
		must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Later"), "wait_after_ms": 0, "observe": false})
		time.Sleep(tc.pause)
		start := time.Now()
		_, e := call(t, s, "wait_for", map[string]any{"text": "never on this page", "timeout_ms": 8000})
		wantCode(t, e, errcode.DialogOpen)
		if took := time.Since(start); took > 3*time.Second || !strings.Contains(e.Text(), "Saved a while ago") {
			t.Errorf("%s: dialog_open after %v: %s", tc.name, took, e.Text())
		}
		must(t, s, "handle_dialog", map[string]any{"action": "accept"})
		waitText(t, s, "later closed")
	}
}
