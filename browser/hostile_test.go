package browser

import (
	"strings"
	"testing"
)

// TestHostilePage: a page that replaced every API a page-realm script would
// use (click, querySelector, JSON.stringify, dispatchEvent, event
// constructors, the value and files setters, DataTransfer) with decoys.
// Actions run in the isolated realm, so each reaches the real element once,
// trusted, and the decoy never.
func TestHostilePage(t *testing.T) {
	s := newSession(t)
	open(t, s, "hostile.html")
	snap := snapshot(t, s)
	pay := ref(t, snap, "button", "Pay")
	res := must(t, s, "click", map[string]any{"element": pay, "wait_after_ms": 0})
	if res.Structured.(map[string]any)["trusted"] != true {
		t.Errorf("click not trusted: %s", res.Text)
	}
	waitText(t, s, "real clicked trusted=true")
	must(t, s, "type_text", map[string]any{"element": ref(t, snap, "textbox", "Amount"), "text": "42"})
	waitText(t, s, "field input trusted=true")
	text := pageText(t, s)
	for _, bad := range []string{"DECOY", "intercepted", "PWNED"} {
		if strings.Contains(text, bad) {
			t.Errorf("the page's trap fired (%s):\n%s", bad, text)
		}
	}
	if n := strings.Count(text, "real clicked"); n != 1 {
		t.Errorf("the real button got %d clicks", n)
	}
}
