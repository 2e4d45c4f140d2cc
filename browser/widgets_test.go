package browser_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

var widgetLibs = []string{"react@18.3.1", "react-dom@18.3.1", "react-datepicker@9.1.0", "downshift@9.4.0", "react-dropzone@20.1.4", "sweetalert2@11.26.25"}

// TestWidgetLibraries: a job application's second step built from
// react-datepicker, downshift, react-dropzone and SweetAlert2, driven from the
// answers alone. The calendar's days are listed by the names it gives them
// and a month is paged; a skill is typed and its option picked; the résumé
// goes to react-dropzone's hidden file input; SweetAlert2's confirmation makes
// the page inert (it hides the rest of the page from assistive technology)
// and is answered with its cancel button. The hidden file input stays listed,
// inert, while the confirmation is open: a file input is never taken for a
// form's stand-in.
func TestWidgetLibraries(t *testing.T) {
	files := &memFiles{files: map[string][]byte{"/u/cv.pdf": []byte("%PDF-1.4 cv")}, handles: map[uint32][]byte{}}
	s, snap := openBundled(t, "widgets-apply", widgetLibs, func(o *browser.Options) { o.Files = files })
	start, skill, withdraw := ref(t, snap, "textbox", "Earliest start"), ref(t, snap, "combobox", "Main skill"), ref(t, snap, "button", "Withdraw application")
	resume := ref(t, snap, "file", "file upload")

	res := must(t, s, "click", map[string]any{"element": start})
	ref(t, res.Text, "gridcell", "Choose Friday, January 15th, 2027")
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Next Month")})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "gridcell", "Choose Monday, February 15th, 2027")})
	if !strings.Contains(res.Text, "["+start+`] textbox "Earliest start" value="2027-02-15"`) || strings.Contains(res.Text, "appeared:") {
		t.Errorf("a day picked: want the field to show it and the calendar gone:\n%s", res.Text)
	}

	res = must(t, s, "type_text", map[string]any{"element": skill, "text": "Ru"})
	if !strings.Contains(res.Text, "["+skill+`] combobox "Main skill" value="Ru" expanded`) {
		t.Errorf("typed into the combobox: want it expanded:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Rust")})
	if !strings.Contains(res.Text, "["+skill+`] combobox "Main skill" value="Rust" collapsed`) {
		t.Errorf("an option picked: want the combobox to show it:\n%s", res.Text)
	}

	must(t, s, "upload_files", map[string]any{"element": resume, "paths": []string{"/u/cv.pdf"}})
	waitText(t, s, `"files":["cv.pdf 11"]`)

	res = must(t, s, "click", map[string]any{"element": withdraw})
	if c := changes(t, res); c["inert"] != 7 || c["gone"] != 0 {
		t.Errorf("the confirmation open: want the page's seven elements inert (its heading and drop zone too), its file input among them, and none gone:\n%s", res.Text)
	}
	keep := ref(t, res.Text, "button", "Keep it")
	ref(t, res.Text, "button", "Yes, withdraw")
	if _, e := call(t, s, "click", map[string]any{"element": withdraw}); e == nil || !strings.Contains(e.Message, "inert") {
		t.Errorf("a click behind the confirmation: %v, want it refused as inert", e)
	}
	res = must(t, s, "click", map[string]any{"element": keep})
	if !strings.Contains(res.Text, "No element is inert any more") {
		t.Errorf("the confirmation answered: want the page usable again:\n%s", res.Text)
	}
	waitText(t, s, `state {"start":"2027-02-15","skill":"Rust","files":["cv.pdf 11"],"withdrawn":"kept"}`)
}
