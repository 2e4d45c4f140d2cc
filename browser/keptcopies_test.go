package browser_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestIsolatedKeptCopies: once a script has been sent whole to a content process's
// console, the session calls the copies that console keeps (a click then sends no
// script whole); a copy the session wrongly believes kept (as after a restarted
// debugger server) costs one short evaluation that runs nothing, then the script is
// sent whole and acts once.
func TestIsolatedKeptCopies(t *testing.T) {
	s := newSession(t)
	open(t, s, "form.html")
	snap := snapshot(t, s)
	goRef := ref(t, snap, "button", "Go")
	whole := func() int { return s.WholeSent("") }
	must(t, s, "click", map[string]any{"element": goRef})
	n := whole()
	if n == 0 {
		t.Fatal("no isolated script sent whole: the test does not run in the isolated realm")
	}
	res := must(t, s, "click", map[string]any{"element": goRef})
	if res.Structured.(map[string]any)["trusted"] != true {
		t.Errorf("second click not trusted: %s", res.Text)
	}
	if m := whole(); m != n {
		t.Errorf("the second click sent %d scripts whole, want 0", m-n)
	}
	waitText(t, s, "go clicked trusted=true")
	if !s.ForgetKeptCopy(pagejs.Hover) { // never sent: the console keeps no copy
		t.Fatal("no isolated realm, or hover already kept")
	}
	n = whole()
	must(t, s, "hover", map[string]any{"element": goRef})
	if m := whole(); m != n+1 {
		t.Errorf("hover with a copy believed kept sent %d scripts whole, want 1", m-n)
	}
	must(t, s, "hover", map[string]any{"element": goRef})
	if m := whole(); m != n+1 {
		t.Errorf("the second hover sent %d scripts whole, want 0", m-n-1)
	}
	if c := strings.Count(pageText(t, s), "go clicked"); c != 2 {
		t.Errorf("%d clicks reached the button, want 2", c)
	}
}
