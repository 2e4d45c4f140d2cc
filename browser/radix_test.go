package browser_test

import (
	"strings"
	"testing"
)

var radixLibs = []string{"react@18.3.1", "react-dom@18.3.1", "@radix-ui/react-dialog@1.3.1", "@radix-ui/react-select@2.4.1",
	"@radix-ui/react-checkbox@1.4.1", "@radix-ui/react-toast@1.3.1", "@radix-ui/react-label@2.1.17", "@radix-ui/react-dropdown-menu@2.2.1"}

// TestRadixApplication: a job application built on Radix UI primitives, as
// shadcn/ui builds one (React 18, from npm at test set-up, bundled by esbuild):
// its dropdown menu, its modal dialog, a labelled field, its select (opened on
// pointerdown, an option taken on pointerup), its checkbox and a toast are
// driven from the answers alone, as an agent would, and nothing is submitted.
// The app's header holds a status line (aria-live), so Radix leaves the header
// shown and hides its other children while the dialog is open.
func TestRadixApplication(t *testing.T) {
	s, sort, apply := openApp(t, "radix-apply", radixLibs)
	sortsBySalary(t, s, sort) // (Radix's menu is modal too: it hides the page as the dialog does)

	// The dialog: Radix hides the page with aria-hidden, but for the header's status
	// line and what holds it, whose other children it hides.
	view := dialogOpens(t, s, apply, sort, [][2]string{{"textbox", "Mobile phone number"}, {"checkbox", "I agree to be contacted"},
		{"button", "Save draft"}, {"button", "Cancel"}, {"button", "Submit application"}})
	phone := fills(t, s, view, "Mobile phone number", "+49 30 1234567")

	// The select shows its value as its content: the line says what it shows.
	if !strings.Contains(view, `combobox "Country" value="Select a country" collapsed`) {
		t.Errorf("the select: want its placeholder as its value:\n%s", view)
	}
	country := ref(t, view, "combobox", "Country")
	res := must(t, s, "click", map[string]any{"element": country})
	france := ref(t, res.Text, "option", "France")
	// Radix takes the release of the press that opened the select for a click on an
	// option only when it lands more than 10 px from that press: the page must read
	// where each click landed.
	res = must(t, s, "click", map[string]any{"element": france})
	if !strings.Contains(res.Text, "["+country+`] combobox "Country" value="France" collapsed`) || !strings.Contains(res.Text, "- ["+france+`] option "France"`) {
		t.Errorf("an option picked: want the select to show it and its options gone:\n%s", res.Text)
	}
	agree := ref(t, view, "checkbox", "I agree to be contacted")
	res = must(t, s, "click", map[string]any{"element": agree})
	if !strings.Contains(res.Text, "["+agree+`] checkbox "I agree to be contacted" checked`) {
		t.Errorf("the checkbox: want it checked:\n%s", res.Text)
	}
	// The toast comes in the app's region, which the dialog keeps hidden (and Radix
	// keeps the pointer out of): it (a focusable list item) and its button are inert
	// until the dialog closes.
	res = must(t, s, "click", map[string]any{"element": ref(t, view, "button", "Save draft")})
	undo := ref(t, res.Text, "button", "Undo")
	if c := changes(t, res); c["inert"] != 6 {
		t.Errorf("the toast over the dialog: want it (a focusable list item) and its button inert too:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, view, "button", "Cancel")})
	if c := changes(t, res); c["inert"] != 0 || !strings.Contains(res.Text, "- ["+phone+"]") {
		t.Errorf("the dialog closed: want its fields gone and nothing inert:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": undo})
	if !strings.Contains(res.Text, "- ["+undo+`] button "Undo"`) {
		t.Errorf("the toast's Undo: want the toast gone:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"phone":"+49 30 1234567","country":"fr","agree":true,"submitted":0}`) {
		t.Errorf("the form's state: want the values given and no submission:\n%s", text)
	}
}
