package browser_test

import (
	"strings"
	"testing"

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
