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
// it. The closed drop-down keeps its items laid out but clipped to nothing: they
// are not listed (one such list per select would crowd every answer). Nothing is
// submitted.
func TestChosenSelect(t *testing.T) {
	s, snap := openVendored(t, []string{"jquery@3.7.1", "chosen-js@1.8.7"}, "/chosen.html")
	office := ref(t, snap, "a", "Choose an office")
	res := must(t, s, "click", map[string]any{"element": office})
	paris := ref(t, res.Text, "li", "Paris")
	ref(t, res.Text, "li", "Berlin")
	res = must(t, s, "click", map[string]any{"element": paris})
	if !strings.Contains(res.Text, "["+office+`] a "Paris"`) || !strings.Contains(res.Text, `- [`+paris+`] li "Paris"`) {
		t.Errorf("Paris picked: want the select's link to read it and the closed drop-down's items gone:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"office":"par"}`) {
		t.Errorf("the form's state: want Paris, nothing submitted:\n%s", text)
	}
}
