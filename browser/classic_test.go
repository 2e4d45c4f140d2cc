package browser_test

import (
	"strings"
	"testing"
)

// TestSelect2Application: an application form whose selects Select2 (jQuery 3,
// from npm at test set-up) replaced with its own widgets, driven from the
// answers alone: the single select opened, searched and picked from, the
// multiple one picked from by a click and by typing and Enter. The original
// selects (hidden, aria-hidden, out of the tab order) are not listed; nothing
// is submitted.
func TestSelect2Application(t *testing.T) {
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	srv := vendorServer(t, []string{"jquery@3.7.1", "select2@4.1.0"}, nil)
	snap := must(t, s, "navigate", map[string]any{"url": srv.URL + "/select2.html", "wait": "complete"}).Text
	if strings.Contains(snap, `combobox "Location"`) || strings.Contains(snap, `listbox "Skills"`) {
		t.Errorf("the original selects are listed:\n%s", snap)
	}
	city := ref(t, snap, "combobox", "Choose a city")
	res := must(t, s, "click", map[string]any{"element": city})
	if !strings.Contains(res.Text, "["+city+`] combobox "Choose a city" expanded`) {
		t.Errorf("the select opened: want it expanded:\n%s", res.Text)
	}
	berlin := ref(t, res.Text, "option", "Berlin")
	res = must(t, s, "type_text", map[string]any{"element": ref(t, res.Text, "searchbox", "Search"), "text": "Par"})
	paris := ref(t, res.Text, "option", "Paris")
	if !strings.Contains(res.Text, "- ["+berlin+`] option "Berlin"`) {
		t.Errorf("the search: want Berlin gone:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": paris})
	if !strings.Contains(res.Text, "["+city+`] combobox "Paris" collapsed`) {
		t.Errorf("Paris picked: want the widget to show it:\n%s", res.Text)
	}
	// The multiple one: its search field opens it.
	search := ref(t, snap, "searchbox", "Search")
	res = must(t, s, "click", map[string]any{"element": search})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Go")})
	ref(t, res.Text, "button", "Remove item")
	must(t, s, "type_text", map[string]any{"element": search, "text": "Ru"})
	res = must(t, s, "press_key", map[string]any{"key": "Enter"})
	if c := changes(t, res); c["appeared"] == 0 {
		t.Errorf("Enter on the suggestion: want the new item's remove button:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"loc":"par","skills":["go","rust"]}`) {
		t.Errorf("the form's state: want Paris, Go and Rust, nothing submitted:\n%s", text)
	}
}

// TestAlpineJobs: a jobs page built with Alpine.js 3 and its focus plugin (from
// npm at test set-up): an x-model search, a filter menu that fades in and out,
// and a quick-apply modal whose x-trap.inert hides the rest of the page
// (aria-hidden, the page's own button too): those are inert, not gone, while
// it is open.
func TestAlpineJobs(t *testing.T) {
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	srv := vendorServer(t, []string{"alpinejs@3.17.5", "@alpinejs/focus@3.17.5"}, nil)
	snap := must(t, s, "navigate", map[string]any{"url": srv.URL + "/alpine.html", "wait": "complete"}).Text
	search, filters, quick := ref(t, snap, "textbox", "Search"), ref(t, snap, "button", "Filters"), ref(t, snap, "button", "Quick apply")
	must(t, s, "fill", map[string]any{"element": search, "value": "golang"})
	res := must(t, s, "click", map[string]any{"element": filters})
	remote := ref(t, res.Text, "checkbox", "Remote only")
	done := ref(t, res.Text, "button", "Done")
	must(t, s, "click", map[string]any{"element": remote})
	// The menu fades out for 150 ms, then is hidden: waited for.
	res = must(t, s, "click", map[string]any{"element": done})
	if !strings.Contains(res.Text, "- ["+remote+`] checkbox "Remote only" checked`) {
		t.Errorf("Done: want the menu's elements gone:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": quick})
	phone := ref(t, res.Text, "textbox", "Phone")
	// (x-trap.inert hides the page from a 15 ms timer and a tick after the modal shows: on
	// a loaded machine that can come after the settle, and then the next reading says so.)
	c := changes(t, res)
	if c["gone"] != 0 {
		t.Errorf("the modal opened: %v, want none of the page's elements gone:\n%s", c, res.Text)
	}
	if c["inert"] != 3 {
		if snap := snapshot(t, s); c["inert"] != nil || !strings.Contains(snap, "3 elements are inert") {
			t.Errorf("the modal opened: %v, want the page's three elements inert:\n%s\nthen:\n%s", c, res.Text, snap)
		}
	}
	if _, e := call(t, s, "click", map[string]any{"element": filters}); e == nil || !strings.Contains(e.Message, "inert") {
		t.Errorf("a click behind the modal: %v, want it refused as inert", e)
	}
	must(t, s, "fill", map[string]any{"element": phone, "value": "+33 1 23 45 67 89"})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Close"), "wait_after_ms": 1000})
	closes(t, s, res, "- ["+phone+`] textbox "Phone"`, map[string]any{"text": "Send", "state": "absent"}) // (a 200 ms fade)
	if text := pageText(t, s); !strings.Contains(text, `state {"q":"golang","remote":true,"phone":"+33 1 23 45 67 89","sent":0}`) {
		t.Errorf("the page's state:\n%s", text)
	}
}
