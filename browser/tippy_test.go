package browser_test

import (
	"strings"
	"testing"
)

// TestTippyDelayedPopovers: Tippy.js 6 (with Popper 2, from npm at test
// set-up) shows its popovers 120 ms after the click or the hover that asks
// for them, from a timer, and changes nothing before: the click's answer
// lists the menu's items, the hover's the share box's link, as having
// appeared (the settle after an action that changed nothing holds for the
// timers it set), and the items work.
func TestTippyDelayedPopovers(t *testing.T) {
	s, snap := openVendored(t, []string{"tippy.js@6.3.7", "@popperjs/core@2.11.8"}, "/tippy.html")
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Account")})
	if c := changes(t, res); count(c, "appeared") != 2 || !strings.Contains(res.Text, `menuitem "Sign out"`) {
		t.Fatalf("the account menu, shown 120 ms after the click: want its two items appeared:\n%s", res.Text)
	}
	res = must(t, s, "hover", map[string]any{"element": ref(t, snap, "button", "Share")})
	if !strings.Contains(res.Text, `link "Copy link"`) {
		t.Fatalf("the share box, shown 120 ms after the hover: want its link appeared:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "link", "Copy link")})
	if !strings.Contains(res.Text, "#copy") {
		t.Errorf("the share box's link: want the page at #copy:\n%s", res.Text)
	}
}
