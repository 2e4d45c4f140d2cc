package browser_test

import (
	"strings"
	"testing"
)

var headlessLibs = []string{"react@18.3.1", "react-dom@18.3.1", "@headlessui/react@2.2.10"}

// TestHeadlessUIApplication: a job application built on Headless UI 2, as
// Tailwind UI builds one (React 18, from npm at test set-up, bundled by
// esbuild): its menu, disclosure, modal dialog (the page made inert), field,
// listbox, combobox and switch are driven from the answers alone, as an agent
// would, and nothing is submitted. Headless UI's focus trap puts an empty,
// zero-height button at each end of the dialog, which nobody can see or click:
// they are not listed. Its listbox button names itself after its label, so its
// name holds what it shows: "Country France".
func TestHeadlessUIApplication(t *testing.T) {
	s, sort, apply := openApp(t, "headless-apply", headlessLibs)
	sortsBySalary(t, s, sort) // (Headless UI's menu is modal: the page's other four elements are inert)

	res := must(t, s, "click", map[string]any{"element": ref(t, snapshot(t, s), "button", "About the team")})
	if !strings.Contains(res.Text, `button "About the team" expanded`) {
		t.Errorf("the disclosure: want it expanded:\n%s", res.Text)
	}
	ref(t, res.Text, "link", "Meet the team")

	res = must(t, s, "click", map[string]any{"element": apply})
	view := res.Text
	if c := changes(t, res); c["inert"] != 6 || c["appeared"] != 7 {
		t.Errorf("the open dialog: want its title and six elements and the page's six inert (no focus sentinels):\n%s", res.Text)
	}
	if _, e := call(t, s, "click", map[string]any{"element": sort}); e == nil || !strings.Contains(e.Message, "inert") {
		t.Errorf("a click behind the dialog: %v, want it refused as inert", e)
	}
	phone := fills(t, s, view, "Mobile phone number", "+1 555 0100")

	country := ref(t, view, "button", "Country Select a country")
	res = must(t, s, "click", map[string]any{"element": country})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "France")})
	if !strings.Contains(res.Text, "["+country+`] button "Country France" collapsed`) || strings.Contains(res.Text, "appeared:") {
		t.Errorf("an option picked: want the button to show it and the options gone:\n%s", res.Text)
	}
	city := ref(t, view, "combobox", "City")
	res = must(t, s, "type_text", map[string]any{"element": city, "text": "Ber"})
	ref(t, res.Text, "option", "Berlin")
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Bern")})
	if !strings.Contains(res.Text, "["+city+`] combobox "City" value="Bern" collapsed`) {
		t.Errorf("a city picked: want the field to show it:\n%s", res.Text)
	}
	remote := ref(t, view, "switch", "Remote only")
	res = must(t, s, "click", map[string]any{"element": remote})
	if !strings.Contains(res.Text, "["+remote+`] switch "Remote only" checked`) {
		t.Errorf("the switch: want it on:\n%s", res.Text)
	}
	res = must(t, s, "press_key", map[string]any{"key": "Escape"})
	closes(t, s, res, "- ["+phone+`] textbox "Mobile phone number"`, map[string]any{"text": "Submit application", "state": "absent"})
	if text := pageText(t, s); !strings.Contains(text, `state {"phone":"+1 555 0100","country":"France","city":"Bern","remote":true,"submitted":0}`) {
		t.Errorf("the form's state: want the values given and no submission:\n%s", text)
	}
}
