package browser_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// TestMaterialUIApplication: a job application built with Material UI 5 (React
// 18, from npm at test set-up): its menu, its modal dialog that fades in and
// out, a text field, its select (a listbox in a popover, not a <select>), an
// autocomplete and a checkbox are driven from the answers alone, as an agent
// would, and nothing is submitted.
func TestMaterialUIApplication(t *testing.T) {
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	srv := vendorServer(t, []string{"react@18.3.1", "react-dom@18.3.1", "@mui/material@5.18.0"}, nil)
	snap := must(t, s, "navigate", map[string]any{"url": srv.URL + "/mui-apply.html", "wait": "complete"}).Text
	sort, apply := ref(t, snap, "button", "Sort by: Newest"), ref(t, snap, "button", "Easy Apply")

	// The menu hides the rest of the page from assistive technology (aria-hidden)
	// while its invisible backdrop covers it: what it hides is inert.
	res := must(t, s, "click", map[string]any{"element": sort})
	salary := ref(t, res.Text, "menuitem", "Salary")
	if c := changes(t, res); c["inert"] != 4 {
		t.Errorf("the open menu: want the page's heading, field and two buttons inert:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": salary})
	if !strings.Contains(res.Text, "["+sort+`] button "Sort by: Salary" collapsed`) {
		t.Errorf("a menu item picked: want the button's new name:\n%s", res.Text)
	}
	// Right away, while the menu fades out (≈240 ms, about the default wait's 250 ms)
	// and its backdrop may still cover the page: the click waits for it to go
	// (TestClickWaitsForLeavingCover makes sure of the case).
	view := dialogOpens(t, s, apply, sort, [][2]string{{"textbox", "Phone"}, {"combobox", "Country"}, {"combobox", "City"},
		{"checkbox", "I agree to be contacted"}, {"button", "Cancel"}, {"button", "Submit application"}})
	phone := fills(t, s, view, "Phone", "+49 30 1234567")
	// The select's listbox opens in a popover that hides the dialog too.
	country := ref(t, view, "combobox", "Country")
	res = must(t, s, "click", map[string]any{"element": country})
	france := ref(t, res.Text, "option", "France")
	ref(t, res.Text, "option", "Germany")
	if _, e := call(t, s, "fill", map[string]any{"element": phone, "value": "lost"}); e == nil || !strings.Contains(e.Message, "inert") {
		t.Errorf("a fill in the dialog while the select's listbox is open: %v, want it refused as inert", e)
	}
	res = must(t, s, "click", map[string]any{"element": france})
	if !strings.Contains(res.Text, "["+country+`] combobox "Country France" collapsed`) {
		t.Errorf("an option picked: want the combobox to show it:\n%s", res.Text)
	}
	// The autocomplete's suggestions come as the agent types.
	res = must(t, s, "type_text", map[string]any{"element": ref(t, view, "combobox", "City"), "text": "Ber"})
	bern := ref(t, res.Text, "option", "Bern")
	ref(t, res.Text, "option", "Berlin")
	// (Its suggestions are in a layer of their own beside the dialog, not hidden:
	// the dialog keeps the page inert.)
	if c := changes(t, res); c["inert"] != nil {
		t.Errorf("the suggestions opened: want the inert count unchanged (3):\n%s", res.Text)
	}
	if strings.Contains(res.Text, `option "Madrid"`) {
		t.Errorf("typing Ber: Madrid suggested:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": bern})
	if !strings.Contains(res.Text, `combobox "City" value="Bern" collapsed`) || !strings.Contains(res.Text, "- ["+bern+`] option "Bern"`) {
		t.Errorf("a suggestion picked: want the field's value and the suggestions gone:\n%s", res.Text)
	}
	agree := ref(t, view, "checkbox", "I agree to be contacted")
	res = must(t, s, "click", map[string]any{"element": agree})
	if !strings.Contains(res.Text, "["+agree+`] checkbox "I agree to be contacted" checked`) {
		t.Errorf("the checkbox: want it checked:\n%s", res.Text)
	}
	// Escape closes the dialog: a 195 ms fade, then a timer of the same length removes
	// it. The answer waits for the fade; on a loaded machine the timer can fire later
	// than the settle's quiet window after the fade (seen in CI, and at 7c695aa with two
	// CPU hogs running: a settle cannot know of a page's timer), and then the removal
	// is the next reading's.
	res = must(t, s, "press_key", map[string]any{"key": "Escape"})
	closes(t, s, res, "- ["+phone+`] textbox "Phone"`, map[string]any{"selector": "#phone", "state": "absent"})
	if text := pageText(t, s); !strings.Contains(text, `state {"phone":"+49 30 1234567","country":"fr","city":"Bern","agree":true,"submitted":0}`) {
		t.Errorf("the form's state: want the values given and no submission:\n%s", text)
	}
	got := must(t, s, "snapshot_page", map[string]any{}).Text
	if strings.Contains(got, "Submit application") {
		t.Errorf("after Escape the dialog is still listed:\n%s", got)
	}
	// Closed without waiting: the page stays aria-hidden until the dialog's fade
	// (195 ms) ends; a fill on it right away waits for that.
	res = must(t, s, "click", map[string]any{"element": apply})
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Cancel"), "wait_after_ms": 0, "observe": false})
	search := ref(t, snap, "textbox", "Search jobs")
	res = must(t, s, "fill", map[string]any{"element": search, "value": "go"})
	if !strings.Contains(res.Text, "["+search+`] textbox "Search jobs" value="go"`) {
		t.Errorf("fill on the page as the dialog fades out:\n%s", res.Text)
	}
}

// dialogOpens clicks the button that opens an application's modal dialog and
// checks its answer: it lists the dialog's elements (role, name), counts the
// page's four (a heading, a field, two buttons) inert, and a click on one of them, behind,
// is refused. It returns the answer.
func dialogOpens(t *testing.T, s *session, button, behind string, elements [][2]string) string {
	t.Helper()
	res := must(t, s, "click", map[string]any{"element": button})
	for _, want := range elements {
		ref(t, res.Text, want[0], want[1])
	}
	if c := changes(t, res); c["inert"] != 4 {
		t.Errorf("the open dialog: want the page's heading, field and two buttons inert:\n%s", res.Text)
	}
	if _, e := call(t, s, "click", map[string]any{"element": behind}); e == nil || !strings.Contains(e.Message, "inert") {
		t.Errorf("a click behind the dialog: %v, want it refused as inert", e)
	}
	return res.Text
}

// closes checks the answer res of an action that closed a modal popup: the
// popup's element gone (goneLine) and nothing inert. A library that fades the
// popup out and removes it from a timer of the fade's length (Material UI,
// Alpine's x-transition) can remove it later than the settle's quiet window after
// the fade on a loaded machine (seen in CI; a settle cannot know of a page's
// timer): then the answer must say that nothing changed yet, and a wait_for (args)
// for the popup's end must say it.
func closes(t *testing.T, s *session, res tools.Result, goneLine string, args map[string]any) {
	t.Helper()
	if c := changes(t, res); strings.Contains(res.Text, goneLine) && c["inert"] == 0 {
		return
	}
	if !strings.Contains(res.Text, "No change to the actionable elements") {
		t.Errorf("the popup closed: want its elements gone and nothing inert:\n%s", res.Text)
	}
	t.Logf("the answer came before the popup's removal:\n%s", res.Text)
	inert := changes(t, res)["inert"] // (0 when the library let go of the page before the fade: Alpine)
	args["timeout_ms"] = 3000
	res = must(t, s, "wait_for", args)
	if c := changes(t, res); !(c["inert"] == 0 || (c["inert"] == nil && inert == 0)) || !strings.Contains(res.Text, goneLine) {
		t.Errorf("the popup gone: want its elements gone and nothing inert:\n%s", res.Text)
	}
}

// fills fills the textbox of view with this name and checks that the answer
// shows its new value; it returns the textbox's ref.
func fills(t *testing.T, s *session, view, name, value string) string {
	t.Helper()
	field := ref(t, view, "textbox", name)
	res := must(t, s, "fill", map[string]any{"element": field, "value": value})
	if !strings.Contains(res.Text, "["+field+`] textbox `+strconv.Quote(name)+` value=`+strconv.Quote(value)) {
		t.Errorf("fill: want the field's new value:\n%s", res.Text)
	}
	return field
}

// TestClickWaitsForLeavingCover: a menu's invisible backdrop covers the page
// while the menu fades out (600 ms), then goes. A click on an element under it
// right after the menu closed waits for it and reaches the element; the same
// backdrop while the menu stays open (the page does not move) is refused.
func TestClickWaitsForLeavingCover(t *testing.T) {
	s := newSession(t)
	open(t, s, "fading-cover.html")
	snap := snapshot(t, s)
	openMenu, target := ref(t, snap, "button", "Open menu"), ref(t, snap, "button", "Target")
	must(t, s, "click", map[string]any{"element": openMenu, "observe": false})
	_, e := call(t, s, "click", map[string]any{"element": target})
	if e == nil || !strings.Contains(e.Message, "covers it") {
		t.Fatalf("a click under the open menu's backdrop: %v, want it refused as covered", e)
	}
	closeMenu := ref(t, snapshot(t, s), "menuitem", "Close menu")
	must(t, s, "click", map[string]any{"element": closeMenu, "wait_after_ms": 0, "observe": false})
	must(t, s, "click", map[string]any{"element": target, "observe": false})
	waitText(t, s, "target clicked")
	if text := pageText(t, s); strings.Count(text, "target clicked") != 1 {
		t.Errorf("want one click on the target:\n%s", text)
	}
}
