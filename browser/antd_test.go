package browser_test

import (
	"strings"
	"testing"
)

var antdLibs = []string{"react@18.3.1", "react-dom@18.3.1", "antd@6.6.8"}

// TestAntDesignApplication: a job application in an Ant Design 6 modal (React
// 18, from npm at test set-up, bundled by esbuild), driven from the answers
// alone, as an agent would, and nothing submitted. Ant Design's select keeps
// its field empty and writes the choice beside it, as a text node: the field's
// line shows it. Its options are picked by keyboard here: the options it marks
// up for assistive technology are the active one and its neighbours, in a box
// of no size, and the ones shown have no role (not listed; see README).
func TestAntDesignApplication(t *testing.T) {
	s, view := openBundled(t, "antd-apply", antdLibs)
	res := must(t, s, "click", map[string]any{"element": ref(t, view, "button", "Easy Apply")})
	dlg := res.Text
	city := ref(t, dlg, "combobox", "Location")
	if !strings.Contains(dlg, "["+city+`] combobox "Location" collapsed readonly`) {
		t.Errorf("nothing chosen: want no value (the placeholder is none):\n%s", dlg)
	}
	res = must(t, s, "click", map[string]any{"element": city})
	ref(t, res.Text, "option", "Berlin")
	for _, key := range []string{"ArrowDown", "ArrowDown"} {
		must(t, s, "press_key", map[string]any{"element": city, "key": key})
	}
	res = must(t, s, "press_key", map[string]any{"element": city, "key": "Enter"})
	if !strings.Contains(res.Text, "["+city+`] combobox "Location" value="Paris" collapsed readonly`) {
		t.Errorf("Paris picked: want the field to show it:\n%s", res.Text)
	}
	skills := ref(t, dlg, "combobox", "Skills")
	res = must(t, s, "type_text", map[string]any{"element": skills, "text": "Ru"})
	ref(t, res.Text, "option", "Rust")
	must(t, s, "press_key", map[string]any{"element": skills, "key": "Enter"})
	// (Its chip shows as the field's value only while the field, laid out after the
	// chips, overlaps it: not asserted.)
	res = must(t, s, "press_key", map[string]any{"element": skills, "key": "Escape"})
	if !strings.Contains(res.Text, "["+skills+`] combobox "Skills"`) || !strings.Contains(res.Text, "collapsed") {
		t.Errorf("Escape: want the skills' list closed:\n%s", res.Text)
	}
	agree := ref(t, dlg, "checkbox", "I agree to be contacted")
	res = must(t, s, "click", map[string]any{"element": agree})
	if !strings.Contains(res.Text, "["+agree+`] checkbox "I agree to be contacted" checked`) {
		t.Errorf("the checkbox: want it checked:\n%s", res.Text)
	}
	phone := fills(t, s, dlg, "Mobile phone number", "+1 555 0100")
	res = must(t, s, "click", map[string]any{"element": ref(t, dlg, "button", "Cancel")})
	// (The modal zooms out for 300 ms: the answer may come before its end.)
	if gone := "- [" + phone + `] textbox "Mobile phone number"`; !strings.Contains(res.Text, gone) {
		res = must(t, s, "wait_for", map[string]any{"text": "Submit application", "state": "absent", "timeout_ms": 3000})
		if !strings.Contains(res.Text, gone) {
			t.Errorf("the modal closed: want its fields gone:\n%s", res.Text)
		}
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"phone":"+1 555 0100","city":"paris","skills":["rust"],"agree":true,"submitted":0}`) {
		t.Errorf("the form's state: want the values given and no submission:\n%s", text)
	}
}
