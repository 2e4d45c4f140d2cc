package browser_test

import (
	"strings"
	"testing"
)

var mantineLibs = []string{"react@18.3.1", "react-dom@18.3.1", "@mantine/core@8.3.18", "@mantine/hooks@8.3.18", "react-hook-form@7.92.0"}

// TestMantineApplication: a job application built with Mantine 8 and react-hook-form 7
// (React 18, from npm at test set-up, bundled by esbuild), filled from the answers
// alone: a searchable select, a multiple select, a switch, a segmented control, a
// checkbox. Its e-mail field is validated on blur: the answer to the Tab that leaves a
// bad address says the field is invalid and why (the error Mantine names by
// aria-describedby), and the one after a good address that it no longer is. The
// modal that asks before sending is cancelled, and the answer to Cancel mostly says
// it went, though Mantine removes it on a timer: nothing is sent.
func TestMantineApplication(t *testing.T) {
	s, snap := openBundled(t, "mantine-apply", mantineLibs, notAboutTheLock(`it ends on "Send application"; the test is about Mantine widgets`))
	city := ref(t, snap, "textbox", "City")
	res := must(t, s, "click", map[string]any{"element": city})
	paris := ref(t, res.Text, "option", "Paris")
	res = must(t, s, "type_text", map[string]any{"element": city, "text": "par"})
	if !strings.Contains(res.Text, `option "Berlin"`) || strings.Contains(res.Text, "- ["+paris+"]") {
		t.Errorf("typing par: want Berlin gone, Paris kept:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": paris})
	if !strings.Contains(res.Text, "["+city+`] textbox "City" value="Paris"`) {
		t.Errorf("Paris chosen: want the field to read it:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "textbox", "Skills")})
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Go")})
	must(t, s, "click", map[string]any{"element": ref(t, res.Text, "option", "Rust")})
	must(t, s, "press_key", map[string]any{"key": "Escape"})
	clicksCheck(t, s, snap, [][2]string{{"switch", "Remote"}, {"radio", "Part time"}, {"checkbox", "I agree to the privacy policy"}})
	email := ref(t, snap, "textbox", "E-mail")
	must(t, s, "fill", map[string]any{"element": email, "value": "me-at-example"})
	res = must(t, s, "press_key", map[string]any{"key": "Tab"})
	if !strings.Contains(res.Text, "["+email+`] textbox "E-mail" value="me-at-example" invalid error="Not an e-mail address"`) {
		t.Errorf("a bad address left: want the field invalid with its error in the answer:\n%s", res.Text)
	}
	must(t, s, "fill", map[string]any{"element": email, "value": "me@example.com"})
	res = must(t, s, "press_key", map[string]any{"key": "Tab"})
	if !strings.Contains(res.Text, "["+email+`] textbox "E-mail" value="me@example.com"`) || strings.Contains(res.Text, "invalid") {
		t.Errorf("a good address left: want the field valid again in the answer:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Send application")})
	if !strings.Contains(res.Text, "elements are inert") {
		t.Errorf("the modal that asks before sending: want the page behind it inert:\n%s", res.Text)
	}
	// Mantine removes the modal on a timer after Cancel (its exit transition). When
	// React commits the exit after the click's dispatch, the click changed nothing
	// while dispatched, and the answer waits for the timer and says the modal went
	// (it said "No change" before); when React commits it during the dispatch (seen
	// under load), the click changed the page and is not held for its timers: the
	// removal is then the next reading's.
	cancel := ref(t, res.Text, "button", "Cancel")
	res = must(t, s, "click", map[string]any{"element": cancel})
	closes(t, s, res, "- ["+cancel+`] button "Cancel"`, map[string]any{"text": "Send your application?", "state": "absent"})
	want := `state {"city":"Paris","skills":["Go","Rust"],"remote":true,"agree":true,"contract":"part","email":"me@example.com","sent":false}`
	if text := pageText(t, s); !strings.Contains(text, want) {
		t.Errorf("the form's state: want %s:\n%s", want, text)
	}
}
