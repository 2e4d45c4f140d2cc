package browser_test

import (
	"strings"
	"testing"
)

// TestFlatpickrStartDate: a start date picked in flatpickr 4.6 (from npm at test
// set-up), from the answers alone. The field is read-only, so fill is refused; a
// click opens the calendar, whose days (spans with a tabindex, their date as
// aria-label and the pointer cursor, no role) are listed as clickable by their dates,
// their box (flatpickr listens on it) not; the month
// is changed in its select, and a day of the new month clicked. Nothing is
// submitted.
func TestFlatpickrStartDate(t *testing.T) {
	s, snap := openVendored(t, []string{"flatpickr@4.6.13"}, "/date-vanilla.html")
	field := ref(t, snap, "textbox", "Earliest start date")
	if _, e := call(t, s, "fill", map[string]any{"element": field, "value": "2027-04-02"}); e == nil {
		t.Fatal("fill on flatpickr's read-only field: want it refused")
	}
	res := must(t, s, "click", map[string]any{"element": field})
	month := ref(t, res.Text, "combobox", "Month")
	ref(t, res.Text, "clickable", "March 10, 2027")
	if strings.Contains(res.Text, `"Sun"`) || strings.Contains(res.Text, `clickable "28 1 2`) || !strings.Contains(res.Text, `spinbutton "Year" value="2027"`) {
		t.Errorf("the calendar opened: want its days and its year, not its weekday headings nor the box of its days:\n%s", res.Text)
	}
	res = must(t, s, "select_option", map[string]any{"element": month, "options": []string{"April"}})
	if !strings.Contains(res.Text, `combobox "Month" value="April"`) {
		t.Errorf("April chosen: want the month select to show it:\n%s", res.Text)
	}
	res = must(t, s, "click", map[string]any{"element": ref(t, res.Text, "clickable", "April 2, 2027")})
	if !strings.Contains(res.Text, `textbox "Earliest start date" value="2027-04-02" readonly`) {
		t.Errorf("April 2 clicked: want the field to hold it:\n%s", res.Text)
	}
	if text := pageText(t, s); !strings.Contains(text, `state {"start":"2027-04-02"}`) {
		t.Errorf("the form's state: want the date, nothing submitted:\n%s", text)
	}
}
