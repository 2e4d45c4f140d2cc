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

// TestAntDesignTableRows: an Ant Design 6 table whose rows each have an Edit and
// a Delete button (the latter behind a Popconfirm), as admin pages have them.
// Each button's line says whose row it is (its near text: the row's cells, not
// the other button's label), so the agent deletes the row it means; the
// confirmation's buttons appear in the click's answer, and the answer to
// confirming says which row's buttons went. The deleted row's refs are stale.
func TestAntDesignTableRows(t *testing.T) {
	s, view := openBundled(t, "antd-table", antdLibs, notAboutTheLock("it deletes a row; the test is about the names of look-alike row buttons"))
	rows := map[string]string{"acme": "Acme Robotics Senior Go Engineer Interv…", "globex": "Globex Staff Rust Engineer Applied", "initech": "Initech Platform Engineer Offer"}
	for _, name := range []string{"Edit", "Delete"} {
		for _, near := range rows {
			nearRef(t, view, "button", name, near)
		}
	}
	must(t, s, "click", map[string]any{"element": nearRef(t, view, "button", "Edit", rows["initech"])})
	del := nearRef(t, view, "button", "Delete", rows["globex"])
	edit := nearRef(t, view, "button", "Edit", rows["globex"])
	res := must(t, s, "click", map[string]any{"element": del})
	if !strings.Contains(res.Text, "appeared:") || !strings.Contains(res.Text, `button "Keep"`) {
		t.Fatalf("the Popconfirm: want its buttons in the click's answer:\n%s", res.Text)
	}
	// (the confirmation's Delete: the one that appeared)
	confirm := ref(t, res.Text[strings.Index(res.Text, "appeared:"):], "button", "Delete")
	res = must(t, s, "click", map[string]any{"element": confirm})
	for _, gone := range []string{"- [" + del + `] button "Delete" near="` + rows["globex"] + `"`, "- [" + edit + `] button "Edit" near="` + rows["globex"] + `"`} {
		if !strings.Contains(res.Text, gone) {
			t.Errorf("confirmed: want %q among what went:\n%s", gone, res.Text)
		}
	}
	if strings.Contains(res.Text, rows["acme"]) || strings.Contains(res.Text, rows["initech"]) {
		t.Errorf("confirmed: the other rows changed nothing:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"rows":["Acme Robotics","Initech"],"editing":"Initech"}`) {
		t.Errorf("the table's state: want Globex deleted and Initech's Edit clicked:\n%s", text)
	}
	if _, e := call(t, s, "click", map[string]any{"element": edit}); e == nil || e.Code != "stale_element" {
		t.Errorf("a click on the deleted row's Edit: want stale_element, got %v", e)
	}
}
