package pagejs_test

import (
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxBackgroundTab: trusted actions work on a tab that is not the selected one
// (measured: nsITextInputProcessor and the pres shell reach a background tab).
func TestFirefoxBackgroundTab(t *testing.T) {
	a := open(t, "/forms.html")
	s := a.snapshot(isolatedRealm)
	open(t, "/labels.html") // now selected; a is in the background
	user := find(t, s, "textbox", "User")
	trusted := find(t, s, "button", "Trusted only")
	var res pagejs.ActionResult
	a.must(isolatedRealm, pagejs.TypeText, pagejs.TypeTextArgs{Sel: user.Sel, FP: user.FP, Text: "bg", FirstChunk: true}, &res)
	if got := a.js(`document.getElementById("user").value`); got != "bg" || !res.Trusted {
		t.Errorf("typeText in a background tab: %q %+v", got, res)
	}
	a.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: trusted.Sel, FP: trusted.FP}, &res)
	if got := a.js(`document.getElementById("accepted").textContent`); got != "1" {
		t.Errorf("trusted click in a background tab: accepted=%q", got)
	}
	a.must(isolatedRealm, pagejs.PressKey, pagejs.PressKeyArgs{Sel: user.Sel, FP: &user.FP, Key: "Tab"}, &res)
	if got := a.js(`document.activeElement.id`); got != "pass" {
		t.Errorf("Tab in a background tab: focus on %q", got)
	}
}
