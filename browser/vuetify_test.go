package browser_test

import (
	"strings"
	"testing"
)

// TestVuetifyApplication: a job application built with Vue 3 and Vuetify 4 (their
// browser builds, from npm at test set-up), filled from the answers alone. Vuetify gives
// a select's field box the combobox role of the input inside it: only the input is
// listed; a chip's close button, named only "Close", says the chip's text. Its e-mail rule fails on blur in an alert the field is described by, with
// nothing marked invalid: the Tab's answer gives that error. The dialog that asks before
// sending is cancelled: nothing is sent.
func TestVuetifyApplication(t *testing.T) {
	s, snap := openVendored(t, []string{"vue@3.5.45", "vuetify@4.3.0"}, "/vuetify.html",
		notAboutTheLock("its application form's submit button arms the submission lock; this test is about Vuetify's widgets"))
	if strings.Contains(snap, "combobox collapsed") {
		t.Errorf("a select's field box listed beside its input, unnamed:\n%s", snap)
	}
	city := ref(t, snap, "combobox", "City")
	res := must(t, s, "click", map[string]any{"element": city})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Paris")})
	if !strings.Contains(res.Text, "["+city+`] combobox "City" value="Paris" collapsed`) {
		t.Errorf("Paris chosen: want the field to read it:\n%s", res.Text)
	}
	skills := ref(t, snap, "combobox", "Skills")
	res = must(t, s, "type_text", map[string]any{"element": skills, "text": "ru"})
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Rust")})
	if !strings.Contains(res.Text, `button "Close" near="Rust"`) {
		t.Errorf("Rust chosen: want its chip's close button, named only \"Close\", told by the chip's text:\n%s", res.Text)
	}
	must(t, s, "press_key", map[string]any{"key": "Escape"})
	email := ref(t, snap, "textbox", "E-mail")
	must(t, s, "fill", map[string]any{"element": email, "value": "me-at-example"})
	res = must(t, s, "press_key", map[string]any{"key": "Tab"})
	if !strings.Contains(res.Text, "["+email+`] textbox "E-mail" value="me-at-example" error="Not an e-mail address"`) {
		t.Errorf("a bad address left: want the rule's error in the answer:\n%s", res.Text)
	}
	clicksCheck(t, s, snap, [][2]string{{"checkbox", "Remote"}, {"checkbox", "I agree to the privacy policy"}})
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Send application")})
	if !strings.Contains(res.Text, "elements are inert") {
		t.Errorf("the dialog that asks before sending: want the page behind it inert:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Cancel")})
	must(t, s, "wait_for", map[string]any{"text": "Send your application?", "state": "absent", "timeout_ms": 3000})
	want := `state {"city":"Paris","skills":["Rust"],"email":"me-at-example","remote":true,"agree":true,"sent":false}`
	if text := pageText(t, s); !strings.Contains(text, want) {
		t.Errorf("the form's state: want %s:\n%s", want, text)
	}
}
