package tools

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

func TestParseKey(t *testing.T) {
	good := map[string]string{
		"Enter": "Enter", "space": "Space", "F12": "F12", "pageDown": "PageDown", "Insert": "Insert",
		"k": "k", "K": "K", "+": "+", "é": "é",
		"Control+k": "Control+k", "ctrl+K": "Control+K", "Shift+Tab": "Shift+Tab", "Shift+a": "Shift+A",
		"Alt+ArrowDown": "Alt+ArrowDown", "Meta+Enter": "Meta+Enter", "Cmd+Shift+p": "Shift+Meta+P",
		"Shift+Control+z": "Control+Shift+Z", "Control++": "Control++", " ": "Space", "Shift+ ": "Shift+Space",
	}
	for in, want := range good {
		c, err := parseKey(in)
		if err != nil || c.String() != want {
			t.Errorf("parseKey(%q) = %v, %v; want %s", in, c, err, want)
		}
	}
	bad := map[string]string{
		"":               "empty",
		"F13":            "not an allowed key",
		"Hyper+k":        "not a modifier",
		"Control+":       "not an allowed key",
		"Control":        "only modifiers",
		"Shift+Shift+a":  "twice",
		"ab":             "not an allowed key",
		"\n":             "not an allowed key",
		"Control+w":      "close the tab",
		"Meta+q":         "quit",
		"Control+t":      "open a tab",
		"Control+Tab":    "switch tabs",
		"Alt+F4":         "close the window",
		"Control+PageUp": "switch tabs",
	}
	for in, want := range bad {
		_, err := parseKey(in)
		e, ok := browser.AsError(err)
		if !ok || e.Code != errcode.InvalidArguments || !strings.Contains(e.Message, want) {
			t.Errorf("parseKey(%q) = %v, want invalid_arguments mentioning %q", in, err, want)
		}
	}
}
