package browser_test

import (
	"strings"
	"testing"
)

var ariaLibs = []string{"react@18.3.1", "react-dom@18.3.1", "react-aria-components@1.22.1"}

// TestReactAriaApplication: a job application built with React Aria Components
// (React 18, from npm at test set-up, bundled by esbuild): its menu, its modal
// dialog, a text field, its select, a combobox whose suggestions come as one
// types, two date fields typed into segment by segment (one without a delay, one
// with), and a checkbox are driven from the answers alone, as an agent would,
// and nothing is submitted. Names are those browsers compute: React Aria labels
// a button or a date segment by itself and its field's label ("month, Start date").
func TestReactAriaApplication(t *testing.T) {
	s, sort, apply := openApp(t, "aria-apply", ariaLibs)
	sortsBySalary(t, s, sort)
	view := dialogOpens(t, s, apply, sort, [][2]string{{"textbox", "Mobile phone number"}, {"button", "Select an item Country"},
		{"combobox", "City"}, {"button", "Show cities City"}, {"spinbutton", "month, Start date"}, {"spinbutton", "year, Available until"},
		{"checkbox", "I agree to be contacted"}, {"button", "Cancel"}, {"button", "Submit application"}})
	// The <select> and the date inputs React Aria keeps for forms and autofill, hidden
	// and out of the tab order, are not listed.
	if strings.Count(view, "] combobox") != 1 || strings.Contains(view, "] date") {
		t.Errorf("the dialog lists React Aria's hidden stand-ins:\n%s", view)
	}
	phone := fills(t, s, view, "Mobile phone number", "+49 30 1234567")

	res := must(t, s, "click", map[string]any{"element": ref(t, view, "button", "Select an item Country")})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "France")})
	if !strings.Contains(res.Text, `button "France Country" collapsed`) {
		t.Errorf("an option picked: want the select's button to show it:\n%s", res.Text)
	}
	res = must(t, s, "type_text", map[string]any{"element": ref(t, view, "combobox", "City"), "text": "Ber"})
	bern := ref(t, res.Text, "option", "Bern")
	if strings.Contains(res.Text, `option "Madrid"`) {
		t.Errorf("typing Ber: Madrid suggested:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": bern})
	if !strings.Contains(res.Text, `combobox "City" value="Bern" collapsed`) {
		t.Errorf("a suggestion picked: want the field's value:\n%s", res.Text)
	}

	// A date segment moves the focus on when it is full: the typing goes on in the next
	// one, which needs the page to have had its turn between two keys (React renders
	// in a microtask), and, typing with a delay (a call per key), needs the focus left
	// where the page put it.
	res = must(t, s, "type_text", map[string]any{"element": ref(t, view, "spinbutton", "month, Start date"), "text": "06152027"})
	for _, want := range []string{`spinbutton "month, Start date" value="6 – June"`, `spinbutton "day, Start date" value="15"`, `spinbutton "year, Start date" value="2027"`} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("the start date typed: want %s:\n%s", want, res.Text)
		}
	}
	res = must(t, s, "type_text", map[string]any{"element": ref(t, view, "spinbutton", "month, Available until"), "text": "12312028", "delay_ms": 5})
	if !strings.Contains(res.Text, `spinbutton "year, Available until" value="2028"`) {
		t.Errorf("the end date typed with a delay: want its year:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, view, "checkbox", "I agree to be contacted")})
	if !strings.Contains(res.Text, `checkbox "I agree to be contacted" checked`) {
		t.Errorf("the checkbox: want it checked:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, view, "button", "Cancel")})
	if c := changes(t, res); c["inert"] != 0 || !strings.Contains(res.Text, "- ["+phone+"]") {
		t.Errorf("the dialog closed: want its fields gone and nothing inert:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"phone":"+49 30 1234567","country":"fr","city":"Bern","agree":true,"start":"2027-06-15","until":"2028-12-31","submitted":0}`) {
		t.Errorf("the form's state: want the values given and no submission:\n%s", text)
	}
}
