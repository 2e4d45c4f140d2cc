package browser_test

import (
	"strings"
	"testing"
)

// TestVanillaSelects: two vanilla select widgets (from npm at test set-up) driven
// from the answers. Choices.js 11's single select keeps the <select> it replaces
// under its widget, with the hidden attribute but rendered, transparent, taking no
// pointer and out of the tab order: a stand-in, not listed (it read combobox
// "Contract" beside the widget's listbox "Contract"); its widget opens, and the
// option clicked shows as the one selected. Tom Select 2.6's multiple select keeps
// its original clipped away for assistive technology: listed, unnamed (its label
// now names Tom Select's field), it shows the skills chosen as its value; typing
// into the field lists the matching options, Enter picks the first. Nothing is
// submitted.
func TestVanillaSelects(t *testing.T) {
	s, snap := openVendored(t, []string{"tom-select@2.6.2", "choices.js@11.2.4"}, "/selects-vanilla.html")
	if strings.Contains(snap, `combobox "Contract"`) {
		t.Errorf("Choices.js's hidden <select> is listed:\n%s", snap)
	}
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "listbox", "Contract")})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Fixed term")})
	if !strings.Contains(res.Text, `option "Fixed term" selected`) || !strings.Contains(res.Text, `listbox "Contract" collapsed`) {
		t.Errorf("Fixed term picked: want the widget closed, showing it:\n%s", res.Text)
	}
	res = must(t, s, "type_text", map[string]any{"element": ref(t, snap, "combobox", "Skills"), "text": "ru"})
	ref(t, res.Text, "option", "Rust")
	res = must(t, s, "press_key", map[string]any{"key": "Enter"})
	if !strings.Contains(res.Text, `listbox value="Rust" multiple`) {
		t.Errorf("Enter on Rust: want the original select to show it chosen:\n%s", res.Text)
	}
	ref(t, res.Text, "button", "Remove")
	if text := pageText(t, s); !strings.Contains(text, `state {"skills":["rust"],"contract":"fixed"}`) {
		t.Errorf("the form's state: want Rust and Fixed term, nothing submitted:\n%s", text)
	}
}
