package browser_test

import (
	"strings"
	"testing"
)

// TestIntlTelInputPhone: the phone field of an application form made with
// intl-tel-input 29 (from npm at test set-up), driven from the answers: the
// country button opens the list, typing into its search filters the list
// 100 ms after the last key (a debounced handler: the page changes nothing
// until its timer runs), and the answer to that typing already shows the
// filtered list, since the settle after a text entry waits for the timers the
// typing set (pagejs/js/settle.js), with France, which no answer showed
// before, listed as such. Then France is picked and the number filled;
// nothing is submitted.
func TestIntlTelInputPhone(t *testing.T) {
	s, snap := openVendored(t, []string{"intl-tel-input@29.5.1"}, "/intl-phone.html")
	country := ref(t, snap, "button", "Change country for phone number, currently selected Germany (+49)")
	res := must(t, s, "click", map[string]any{"element": country})
	if c := changes(t, res); count(c, "appeared") < 200 {
		t.Fatalf("the country list opened: %v, want its ≈245 options appeared:\n%s", c, res.Text)
	}
	res = must(t, s, "type_text", map[string]any{"element": ref(t, res.Text, "combobox", "Search"), "text": "fran"})
	if c := changes(t, res); count(c, "gone") < 200 {
		t.Fatalf("typed into the country search: %v, want the filter (100 ms after the last key) seen: ≈240 options gone:\n%s", c, res.Text)
	}
	// France was never shown (the answer that opened the list was cut at its
	// bound) and stayed as it was: the answer lists it now that it fits.
	if !strings.Contains(res.Text, "not shown before (as they were):\n[") {
		t.Errorf("typed into the country search: want the one option left listed as not shown before:\n%s", res.Text)
	}
	france := ref(t, res.Text, "option", "France (+33)")
	if snap := snapshot(t, s); strings.Count(snap, `] option "`) != 1 || !strings.Contains(snap, "["+france+`] option "France (+33)"`) {
		t.Errorf("the filtered list: want France alone, as %s:\n%s", france, snap)
	}
	res = must(t, s, "click", map[string]any{"element": france})
	if !strings.Contains(res.Text, `button "Change country for phone number, currently selected France (+33)" collapsed`) {
		t.Errorf("France picked: want the country button to say so:\n%s", res.Text)
	}
	must(t, s, "fill", map[string]any{"element": ref(t, snap, "textbox", "Mobile phone"), "value": "612345678"})
	if text := pageText(t, s); !strings.Contains(text, `state {"number":"+33612345678","country":"fr"}`) {
		t.Errorf("the form's state: want France's number, nothing submitted:\n%s", text)
	}
}

// count is a count of changes (0 when absent).
func count(c map[string]any, k string) int {
	n, _ := c[k].(int)
	return n
}
