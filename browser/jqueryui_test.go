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
// the answer waits for, so its days are gone in it. The select menu, a
// combobox with no name of its own (the label names the hidden <select>), is
// told by the label beside it (near=). The modal dialog covers the page with an
// overlay and hides nothing from assistive technology: the page is inert while
// it is open, and clicks behind it are refused.
func TestJQueryUI(t *testing.T) {
	s, snap := openVendored(t, []string{"jquery@3.7.1", "jquery-ui@1.14.2"}, "/jqueryui.html")
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

	res = must(t, s, "click", map[string]any{"element": start})
	day := ref(t, res.Text, "link", "15")
	res = must(t, s, "click", map[string]any{"element": day})
	if !strings.Contains(res.Text, "["+start+`] textbox "Start date" value="2027-01-15"`) || !strings.Contains(res.Text, "- ["+day+`] link "15"`) {
		t.Errorf("a day picked: want the date in the field and the calendar's days gone (it fades out):\n%s", res.Text)
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
