package browser_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestJQueryUI: a form built on jQuery UI, driven from the answers alone. The
// autocomplete's suggestions (list items) come after its 300 ms delay, which a
// longer wait gets. The datepicker's days are links; picking one fades the calendar out
// for about 200 ms with a style change every frame (jQuery's animation), which
// the answer waits for, however late the frames come, so its days are gone in it (or, when a loaded machine
// drew its last frames past the default cap, the answer says the page was
// still busy, and a wait_for has them gone). The select menu, a
// combobox with no name of its own (the label names the hidden <select>), is
// told by the label beside it (near=). The modal dialog covers the page with an
// overlay and hides nothing from assistive technology: the page is inert while
// it is open, and clicks behind it are refused.
func TestJQueryUI(t *testing.T) {
	s, snap := openVendored(t, []string{"jquery@3.7.1", "jquery-ui@1.14.2"}, "/jqueryui.html", logOnFailure(t))
	city, start, withdraw := ref(t, snap, "textbox", "City"), ref(t, snap, "textbox", "Start date"), ref(t, snap, "button", "Withdraw")
	m := regexp.MustCompile(`\[(e\d+)\] combobox value="Junior" collapsed near="Level"\n`).FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("the select menu: want it told by its label:\n%s", snap)
	}
	level := m[1]

	// (The suggestions come 300 ms after the last key: a wait that outlasts it.)
	res := must(t, s, "type_text", map[string]any{"element": city, "text": "Ber", "wait_after_ms": 1000})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "li", "Bern")})
	if !strings.Contains(res.Text, "["+city+`] textbox "City" value="Bern"`) || !strings.Contains(res.Text, `] li "Bern"`) {
		t.Errorf("a suggestion picked: want the field to hold it and the suggestions gone:\n%s", res.Text)
	}

	// The fade's frames (a style change each) come late on a loaded machine,
	// more than the settle's 30 ms apart: the wait still ends only after a frame
	// that changed nothing (settle.js, frameDriven).
	res = must(t, s, "click", map[string]any{"element": start})
	day := ref(t, res.Text, "link", "15")
	res = must(t, s, "click", map[string]any{"element": day})
	if !strings.Contains(res.Text, "["+start+`] textbox "Start date" value="2027-01-15"`) {
		t.Errorf("a day picked: want the date in the field:\n%s", res.Text)
	}
	gone := "- [" + day + `] link "15"`
	if !strings.Contains(res.Text, gone) && strings.Contains(res.Text, "The page was still busy when the wait ended") {
		// The fade ends about 230 ms after the click, quiet included: on a
		// loaded machine its last frames come past the default cap, and the
		// answer says so; an agent then waits for the calendar to go.
		t.Logf("the fade outlasted the default cap; waiting for it as told")
		res = must(t, s, "wait_for", map[string]any{"text": "January 2027", "state": "absent", "timeout_ms": 3000})
	}
	if !strings.Contains(res.Text, gone) {
		t.Fatalf("a day picked: want the calendar's days gone (it fades out), in the answer or, when it said the page was still busy, in the wait for it:\n%s", res.Text)
	}

	res = must(t, s, "click", map[string]any{"element": level})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Senior")})
	if !strings.Contains(res.Text, "["+level+`] combobox "Senior" collapsed`) {
		t.Errorf("a level picked: want the select menu to show it:\n%s", res.Text)
	}

	res = must(t, s, "click", map[string]any{"element": withdraw})
	if c := changes(t, res); c["inert"] != 4 {
		t.Errorf("the modal dialog open: want the page's four elements inert:\n%s", res.Text)
	}
	keep := ref(t, res.Text, "button", "Keep it")
	if _, e := call(t, s, "click", map[string]any{"element": city}); e == nil || !strings.Contains(e.Message, "inert") {
		t.Errorf("a click behind the dialog: %v, want it refused as inert", e)
	}
	res = must(t, s, "click", map[string]any{"element": keep})
	if !strings.Contains(res.Text, "No element is inert any more") {
		t.Errorf("the dialog answered: want the page usable again:\n%s", res.Text)
	}
	waitText(t, s, `state {"city":"Bern","start":"2027-01-15","level":"Senior","withdrawn":"kept"}`)
	if strings.Contains(pageText(t, s), "SUBMITTED") {
		t.Error("the form was submitted")
	}
}
