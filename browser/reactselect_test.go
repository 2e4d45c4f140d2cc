package browser_test

import (
	"strings"
	"testing"
)

var reactSelectLibs = []string{"react@18.3.1", "react-dom@18.3.1", "react-select@5.10.2"}

// TestReactSelectApplication: a form built with react-select 5 (React 18, from
// npm at test set-up, bundled by esbuild), driven from the answers alone, as an
// agent would. react-select keeps its text field empty for typing and shows the
// chosen option beside it, so the field's line must say what it shows: no value
// while only the placeholder shows, the option picked once one is. A multiple
// select's choices are its chips, whose remove buttons name them.
func TestReactSelectApplication(t *testing.T) {
	s, view := openBundled(t, "reactselect-apply", reactSelectLibs, notAboutTheLock(`a chip's button is "Remove Rust"; the test is about react-select`))
	city := ref(t, view, "combobox", "Location")
	if !strings.Contains(view, "["+city+`] combobox "Location" collapsed`) {
		t.Errorf("nothing chosen: want no value (the placeholder is none):\n%s", view)
	}
	pick := func(option, want string) {
		t.Helper()
		res := must(t, s, "click", map[string]any{"element": city})
		res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", option)})
		if !strings.Contains(res.Text, "["+city+`] combobox "Location" value="`+want+`" collapsed`) || strings.Contains(res.Text, "appeared:") {
			t.Errorf("%s picked: want the field to show it and the options gone:\n%s", option, res.Text)
		}
	}
	pick("Paris", "Paris")
	pick("London", "London") // (React changes the shown text in place)

	skills := ref(t, view, "combobox", "Skills")
	res := must(t, s, "type_text", map[string]any{"element": skills, "text": "Ru"})
	ref(t, res.Text, "option", "Rust")
	res = must(t, s, "press_key", map[string]any{"element": skills, "key": "Enter"})
	remove := ref(t, res.Text, "button", "Remove Rust")
	if !strings.Contains(res.Text, "["+skills+`] combobox "Skills" collapsed`) {
		t.Errorf("a skill chosen: want the chip's button and no value on the field (its chips hold the values):\n%s", res.Text)
	}
	tags := ref(t, view, "combobox", "Tags")
	res = must(t, s, "type_text", map[string]any{"element": tags, "text": "remote-ok"})
	ref(t, res.Text, "option", `Create "remote-ok"`)
	res = must(t, s, "press_key", map[string]any{"element": tags, "key": "Enter"})
	ref(t, res.Text, "button", "Remove remote-ok")
	res = must(t, s, "click", map[string]any{"element": remove})
	if !strings.Contains(res.Text, "- ["+remove+`] button "Remove Rust"`) {
		t.Errorf("the chip's remove button: want the chip gone:\n%s", res.Text)
	}
	fills(t, s, view, "Full name", "Ada Lovelace")
	if text := pageText(t, s); !strings.Contains(text, `state {"name":"Ada Lovelace","city":"london","skills":[],"tags":["remote-ok"]}`) {
		t.Errorf("the form's state: want the values given:\n%s", text)
	}
}
