package browser_test

import (
	"strings"
	"testing"
)

// TestVueSelect: two vue-select fields driven from the answers alone. Its
// combobox and search field carry its own name, "Search for option" (the
// search field is labelled by the combobox, whose aria-label names it there;
// its text would read "Loading...", the hidden spinner's), so the fields are
// told apart by the labels beside them (near=). A city is picked by clicking
// its option, a skill by typing and Enter; the answers show the options come
// and go and the chip's button that names the skill.
func TestVueSelect(t *testing.T) {
	s, snap := openVendored(t, []string{"vue@2.7.16", "vue-select@3.20.4"}, "/vueselect.html")
	city, skills := nearRef(t, snap, "combobox", "Search for option", "City"), nearRef(t, snap, "combobox", "Search for option", "Skills")
	search := nearRef(t, snap, "searchbox", "Search for option", "Skills")
	if strings.Contains(snap, "Loading") {
		t.Errorf("the search fields are named by the combobox's aria-label, not its text:\n%s", snap)
	}
	res := must(t, s, "click", map[string]any{"element": city})
	if !strings.Contains(res.Text, "["+city+`] combobox "Search for option" expanded`) {
		t.Errorf("the city's combobox clicked: want it expanded:\n%s", res.Text)
	}
	bern := ref(t, res.Text, "option", "Bern")
	res = must(t, s, "click", map[string]any{"element": bern})
	if !strings.Contains(res.Text, "["+city+`] combobox "Search for option" collapsed`) || !strings.Contains(res.Text, "- ["+bern+`] option "Bern"`) {
		t.Errorf("Bern picked: want the options gone and the combobox collapsed:\n%s", res.Text)
	}
	res = must(t, s, "type_text", map[string]any{"element": search, "text": "Ru"})
	if !strings.Contains(res.Text, "["+skills+`] combobox "Search for option" expanded`) {
		t.Errorf("typed into the skills' field: want its combobox expanded:\n%s", res.Text)
	}
	ref(t, res.Text, "option", "Rust")
	res = must(t, s, "press_key", map[string]any{"element": search, "key": "Enter"})
	ref(t, res.Text, "button", "Deselect Rust")
	waitText(t, s, `state {"city":"Bern","skills":["Rust"]}`)
	if text := pageText(t, s); strings.Contains(text, "SUBMITTED") {
		t.Errorf("Enter in the search field submitted the form:\n%s", text)
	}
}
