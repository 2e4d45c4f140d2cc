package doctor

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
)

// TestConfirmCheck: doctor says who answers the lock in each mode, row by
// row, and whether a window can be shown.
func TestConfirmCheck(t *testing.T) {
	window := confirm.Availability{Program: "zenity", Display: "x11 :0"}
	none := confirm.Availability{Problem: "no graphical display"}
	for _, tc := range []struct {
		mode build.ConfirmMode
		a    confirm.Availability
		ok   bool
		says []string
	}{
		{build.ConfirmWindow, window, true, []string{"window: ", "zenity window"}},
		{build.ConfirmWindow, none, false, []string{"no window can be shown"}},
		{build.ConfirmElicit, window, true, []string{"elicit: ", "in the MCP client when it declares elicitation", "else in a zenity window"}},
		{build.ConfirmElicit, none, false, []string{"elicit: ", "in the MCP client when it declares elicitation", "no window can be shown", "confirmation_unavailable"}},
		{build.ConfirmOff, window, false, []string{"OFF"}},
	} {
		c := confirmCheck(tc.mode, tc.a)
		if c.ok != tc.ok {
			t.Errorf("%s %+v: ok %v", tc.mode, tc.a, c.ok)
		}
		for _, s := range tc.says {
			if !strings.Contains(c.detail, s) {
				t.Errorf("%s %+v: %q lacks %q", tc.mode, tc.a, c.detail, s)
			}
		}
	}
}
