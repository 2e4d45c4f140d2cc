package tools

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// keyCombo is a parsed press_key argument: zero or more modifiers and one
// key, each from an allowlist. Only these typed values reach the page
// script, which maps them to event fields from its own table.
type keyCombo struct {
	Mods []string // canonical modifier names, in modOrder
	Key  string   // a namedKeys entry or one printable character
}

// modOrder lists the modifiers in the order they are pressed.
var modOrder = []string{"Control", "Alt", "Shift", "Meta"}

var modAliases = map[string]string{
	"control": "Control", "ctrl": "Control",
	"alt": "Alt", "option": "Alt",
	"shift": "Shift",
	"meta":  "Meta", "cmd": "Meta", "command": "Meta",
}

// namedKeys are the keys press_key knows by name (the page script's table).
var namedKeys = pagejs.PressKeys

// keyGrammar is what the errors and the tool description say is allowed.
const keyGrammar = "a key name (Enter, Tab, Escape, Space, Backspace, Delete, Insert, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, F1–F12) or one printable character, optionally after modifiers joined with + (Control, Alt, Shift, Meta; e.g. Control+k, Shift+Tab)"

// parseKey parses s against the allowlist grammar
//
//	combo    = *(modifier "+") key
//	modifier = "Control" | "Ctrl" | "Alt" | "Option" | "Shift" | "Meta" | "Cmd" | "Command"
//	key      = named key | one printable character | " " (Space)
//
// Names match case-insensitively; a character is kept as given, except
// that Shift with a lower-case letter gives the upper-case one, as the
// keyboard would. Combinations that Firefox itself acts on (closing,
// opening or switching tabs and windows, quitting) are refused: they could
// lose the user's work.
func parseKey(s string) (keyCombo, error) {
	if s == "" {
		return keyCombo{}, browser.Errorf(errcode.InvalidArguments, "key is empty; give %s", keyGrammar)
	}
	var parts []string
	switch {
	case s == "+":
		parts = []string{"+"}
	case strings.HasSuffix(s, "++"):
		parts = append(strings.Split(strings.TrimSuffix(s, "++"), "+"), "+")
	default:
		parts = strings.Split(s, "+")
	}
	var c keyCombo
	for _, p := range parts[:len(parts)-1] {
		m, ok := modAliases[strings.ToLower(p)]
		if !ok {
			return keyCombo{}, browser.Errorf(errcode.InvalidArguments, "%q is not a modifier (Control, Alt, Shift, Meta); key must be %s", browser.Truncate(p, 20), keyGrammar)
		}
		if slices.Contains(c.Mods, m) {
			return keyCombo{}, browser.Errorf(errcode.InvalidArguments, "modifier %s is given twice", m)
		}
		c.Mods = append(c.Mods, m)
	}
	slices.SortFunc(c.Mods, func(a, b string) int { return slices.Index(modOrder, a) - slices.Index(modOrder, b) })
	last := parts[len(parts)-1]
	if i := slices.IndexFunc(namedKeys, func(k string) bool { return strings.EqualFold(k, last) }); i >= 0 {
		c.Key = namedKeys[i]
	} else if last == " " {
		c.Key = "Space" // (as the space bar gives it; Playwright takes " " too)
	} else if r, n := utf8.DecodeRuneInString(last); n == len(last) && r != utf8.RuneError && unicode.IsPrint(r) && r != ' ' {
		c.Key = last
		if c.has("Shift") && unicode.IsLower(r) {
			c.Key = string(unicode.ToUpper(r))
		}
	} else {
		if _, isMod := modAliases[strings.ToLower(last)]; isMod {
			return keyCombo{}, browser.Errorf(errcode.InvalidArguments, "%q is only modifiers; add the key to press, e.g. Control+k", browser.Truncate(s, 40))
		}
		return keyCombo{}, browser.Errorf(errcode.InvalidArguments, "%q is not an allowed key; give %s", browser.Truncate(last, 20), keyGrammar)
	}
	if why := c.reserved(); why != "" {
		return keyCombo{}, browser.Errorf(errcode.InvalidArguments, "%s is refused: Firefox would %s, which could lose the user's work", c, why)
	}
	return c, nil
}

func (c keyCombo) has(mod string) bool { return slices.Contains(c.Mods, mod) }

// reserved says what Firefox does with a browser shortcut, or "" when c is
// none of those this tool refuses.
func (c keyCombo) reserved() string {
	accel := c.has("Control") || c.has("Meta")
	k := strings.ToLower(c.Key)
	switch {
	case accel && (k == "w" || k == "f4"):
		return "close the tab or window"
	case accel && k == "q":
		return "quit"
	case accel && (k == "t" || k == "n"):
		return "open a tab or window"
	case accel && (k == "tab" || k == "pageup" || k == "pagedown"):
		return "switch tabs"
	case c.has("Alt") && k == "f4":
		return "close the window"
	case accel && c.has("Shift") && k == "delete":
		return "open the clear-history dialog"
	}
	return ""
}

func (c keyCombo) String() string {
	return strings.Join(append(slices.Clone(c.Mods), c.Key), "+")
}
