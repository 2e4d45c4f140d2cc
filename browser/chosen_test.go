package browser_test

import (
	"strings"
	"testing"
)

// TestChosenSelect: Chosen 1.8 (jQuery 3, from npm at test set-up) replaces a
// <select> with a link without href and a drop-down of list items: no roles, no
// tabindex, only the pointer cursor says they are to click. Both are listed by
// their text (a "Choose an office", li "Paris"), the link opens the list and a
// click on an item picks it: the link then reads it and the hidden select holds
// it. Nothing is submitted. (The closed drop-down is clipped away, not hidden from
// assistive technology: its items stay listed, and a click on one is refused as
// covered.)
func TestChosenSelect(t *testing.T) {
	s, snap := openVendored(t, []string{"jquery@3.7.1", "chosen-js@1.8.7"}, "/chosen.html")
	office := ref(t, snap, "a", "Choose an office")
	res := must(t, s, "click", map[string]any{"element": office})
	paris := ref(t, res.Text, "li", "Paris")
	ref(t, res.Text, "li", "Berlin")
	res = must(t, s, "click", map[string]any{"element": paris})
	if !strings.Contains(res.Text, "["+office+`] a "Paris"`) {
		t.Errorf("Paris picked: want the select's link to read it:\n%s", res.Text)
	}
	// The closed drop-down's items are still listed; a click on one is refused.
	if _, e := call(t, s, "click", map[string]any{"element": ref(t, snapshot(t, s), "li", "Berlin")}); e == nil {
		t.Error("a click on an item of the closed drop-down: want it refused")
	} else {
		t.Logf("closed drop-down's item: %s: %s", e.Code, e.Message)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"office":"par"}`) {
		t.Errorf("the form's state: want Paris, nothing submitted:\n%s", text)
	}
}
