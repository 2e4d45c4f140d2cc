package browser_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// TestActionsReachWhatUsersReach: a click reaches only what a user's click
// would. Under a cookie banner's overlay, behind a modal dialog and in an
// inert region the element is not interactable (and the page sees no
// click); the overlay's own button, a custom checkbox whose input sits
// under its label, and a button a sticky header covers when scrolled only
// to the edge are clicked.
func TestActionsReachWhatUsersReach(t *testing.T) {
	s := newSession(t)
	open(t, s, "covered.html")
	snap := snapshot(t, s)
	if !strings.Contains(snap, "1 element is inert: a modal dialog or menu (or an inert region) keeps users from it") {
		t.Errorf("the snapshot does not count the inert region's button:\n%s", snap)
	}
	search := ref(t, snap, "button", "Search")
	_, e := call(t, s, "click", map[string]any{"element": search})
	wantCode(t, e, errcode.ElementNotInteractable)
	if !strings.Contains(e.Message, "covers it") {
		t.Errorf("under the overlay: %s", e.Message)
	}
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Accept")})
	must(t, s, "click", map[string]any{"element": search})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "checkbox", "Newsletter")})
	// An aria-hidden region while a banner says it is modal: not inert.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Decorative")})
	waitText(t, s, "deco clicked")

	// Behind a modal dialog: clicks and typing are refused until it closes.
	// The answers count the elements behind it (still listed, not gone), and
	// say when it closed.
	res := must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Open dialog")})
	if c := changes(t, res); c["gone"] != 0 || c["inert"] == nil || c["inert"].(int) < 5 || !strings.Contains(res.Text, " elements are inert: ") {
		t.Errorf("the modal dialog opened: %v\n%s", c, res.Text)
	}
	snap = snapshot(t, s)
	if !strings.Contains(snap, " elements are inert: ") {
		t.Errorf("the snapshot behind the modal dialog does not say it:\n%s", snap)
	}
	_, e = call(t, s, "click", map[string]any{"element": search})
	wantCode(t, e, errcode.ElementNotInteractable)
	if !strings.Contains(e.Message, "inert") {
		t.Errorf("behind the modal dialog: %s", e.Message)
	}
	_, e = call(t, s, "fill", map[string]any{"element": ref(t, snap, "textbox", "Name"), "value": "Ada"})
	wantCode(t, e, errcode.ElementNotInteractable)
	res = must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Close")})
	if c := changes(t, res); c["inert"] != 1 || c["appeared"] != 0 {
		t.Errorf("the modal dialog closed: %v\n%s", c, res.Text)
	}
	must(t, s, "fill", map[string]any{"element": ref(t, snap, "textbox", "Name"), "value": "Ada"})
	_, e = call(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Inert button")})
	wantCode(t, e, errcode.ElementNotInteractable)
	if !strings.Contains(e.Message, "inert") {
		t.Errorf("in an inert region: %s", e.Message)
	}

	// Scrolled away: brought back only as far as the edge, the sticky header
	// covers the button; the click scrolls it to the middle and reaches it.
	must(t, s, "scroll", map[string]any{"to": "bottom"})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Near the top")})

	log := pageText(t, s)
	if !strings.Contains(log, "search clicked newsletter true deco clicked top clicked") {
		t.Errorf("the page's log: want the search, the newsletter box, the decorative button and the top button, in that order:\n%s", log)
	}
	if snap := snapshot(t, s); !strings.Contains(snap, `textbox "Name" value="Ada"`) {
		t.Errorf("the name after the dialog closed:\n%s", snap)
	}
	if strings.Count(log, "search clicked") != 1 {
		t.Errorf("the page saw a click it should not have:\n%s", log)
	}
}
