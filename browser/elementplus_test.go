package browser_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestElementPlusApplication: a job application built with Vue 3 and Element Plus 2
// (their browser builds, from npm at test set-up), filled from the answers alone. Its
// selects lay their placeholder, or the chosen option, over the field (a click there
// is the select's, not covered), and keep the chosen options in their closed popups
// (the field reads them as its value); its switch and checkbox are inputs with no area
// beside the box that shows them (listed, and clicked through that box); its radio
// buttons lie under their labels. The dialog that asks before sending is cancelled:
// nothing is sent.
func TestElementPlusApplication(t *testing.T) {
	s, snap := openVendored(t, []string{"vue@3.5.45", "element-plus@2.14.8"}, "/element-plus.html",
		notAboutTheLock(`it ends on "Send application"; the test is about Element Plus widgets`))
	city := ref(t, snap, "combobox", "City")
	res := must(t, s, "click", map[string]any{"element": city})
	berlin, paris := ref(t, res.Text, "option", "Berlin"), ref(t, res.Text, "option", "Paris")
	res = must(t, s, "type_text", map[string]any{"element": city, "text": "par"})
	if !strings.Contains(res.Text, `- [`+berlin+`] option "Berlin"`) || strings.Contains(res.Text, `- [`+paris+`]`) {
		t.Errorf("typing par: want Berlin gone, Paris kept:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": paris})
	if snap := snapshot(t, s); !strings.Contains(snap, "["+city+`] combobox "City" value="Paris" collapsed`) {
		t.Errorf("Paris chosen: want the field to read it:\n%s", snap)
	}
	skills := ref(t, snap, "combobox", "Skills")
	res = must(t, s, "click", map[string]any{"element": skills}) // under its placeholder
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Go")})
	must(t, s, "click", map[string]any{"element": ref(t, snapshot(t, s), "option", "Rust")})
	res = must(t, s, "press_key", map[string]any{"key": "Escape"})
	if !strings.Contains(res.Text, "["+skills+`] combobox "Skills" value="Go, Rust" collapsed`) {
		t.Errorf("Go and Rust chosen: want the field to read them:\n%s", res.Text)
	}
	date := ref(t, snap, "combobox", "Start date")
	must(t, s, "fill", map[string]any{"element": date, "value": "2027-04-02"})
	must(t, s, "press_key", map[string]any{"key": "Enter"})
	clicksCheck(t, s, snap, [][2]string{{"switch", "Remote"}, {"radio", "Part time"}, {"checkbox", "I agree to the privacy policy"}})
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Send application")})
	if !strings.Contains(res.Text, "elements are inert") {
		t.Errorf("the dialog that asks before sending: want the page behind it inert:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "button", "Cancel")})
	must(t, s, "wait_for", map[string]any{"text": "Send your application?", "state": "absent", "timeout_ms": 3000})
	text := pageText(t, s)
	want := `state {"city":"Paris","skills":["Go","Rust"],"start":"2027-04-02","remote":true,"contract":"part","agree":true,"sent":false}`
	if !strings.Contains(text, want) {
		t.Errorf("the form's state: want %s:\n%s", want, text)
	}
}

// clicksCheck clicks each control (role, name) of snap and wants its answer to say
// it is checked.
func clicksCheck(t *testing.T, s *session, snap string, controls [][2]string) {
	t.Helper()
	for _, c := range controls {
		e := ref(t, snap, c[0], c[1])
		want := "[" + e + "] " + c[0] + " " + strconv.Quote(c[1]) + " checked"
		if res := must(t, s, "click", map[string]any{"element": e}); !strings.Contains(res.Text, want) {
			t.Errorf("click on %s %q: want %s in the answer:\n%s", c[0], c[1], want, res.Text)
		}
	}
}
