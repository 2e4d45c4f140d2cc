package browser_test

import (
	"regexp"
	"strconv"
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
// into the field lists the matching options, Enter picks the first. Its chips'
// remove buttons all read button "Remove": each line says the chip's text as its
// near text, and the one near "Go" removes Go. (Tom Select filters 300 ms after
// the last input, past the default settle cap: the fill passes a longer
// wait_after_ms, which the settle holds for that timer.) Nothing is submitted.
func TestVanillaSelects(t *testing.T) {
	s, snap := openVendored(t, []string{"tom-select@2.6.2", "choices.js@11.2.4"}, "/selects-vanilla.html",
		notAboutTheLock(`a chip's button is "Remove"; the test is about Tom Select and Choices.js`))
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
	// A second chip: the two chips' remove buttons are told apart by their near text.
	res = must(t, s, "fill", map[string]any{"element": ref(t, snap, "combobox", "Skills"), "value": "go", "wait_after_ms": 1000})
	ref(t, res.Text, "option", "Go")
	must(t, s, "press_key", map[string]any{"key": "Enter"})
	if text := pageText(t, s); !strings.Contains(text, `"skills":["rust","go"]`) {
		t.Fatalf("the form's state: want Rust and Go:\n%s", text)
	}
	snap = snapshot(t, s)
	rust, goRef := nearRef(t, snap, "button", "Remove", "Rust"), nearRef(t, snap, "button", "Remove", "Go")
	res = must(t, s, "click", map[string]any{"element": goRef})
	if !strings.Contains(res.Text, "- ["+goRef+"] button \"Remove\" near=\"Go\"") || strings.Contains(res.Text, "["+rust+"] button") {
		t.Errorf("Go's chip removed: want its button gone, Rust's unchanged:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"skills":["rust"],"contract":"fixed"}`) {
		t.Errorf("the form's state: want Rust and Fixed term, nothing submitted:\n%s", text)
	}
}

// nearRef is the ref of the element with role, name and near text near in a
// snapshot or an answer.
func nearRef(t testing.TB, text, role, name, near string) string {
	t.Helper()
	re := regexp.MustCompile(`\[(e\d+)\] ` + regexp.QuoteMeta(role+" "+strconv.Quote(name)) + `.* near=` + regexp.QuoteMeta(strconv.Quote(near)) + `$`)
	for _, l := range strings.Split(text, "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no %s %q near %q in:\n%s", role, name, near, text)
	return ""
}
