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
	search := ref(t, snap, "button", "Search")
	_, e := call(t, s, "click", map[string]any{"element": search})
	wantCode(t, e, errcode.ElementNotInteractable)
	if !strings.Contains(e.Message, "covers it") {
		t.Errorf("under the overlay: %s", e.Message)
	}
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Accept")})
	must(t, s, "click", map[string]any{"element": search})
	must(t, s, "click", map[string]any{"element": ref(t, snap, "checkbox", "Newsletter")})

	// Behind a modal dialog: clicks and typing are refused until it closes.
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Open dialog")})
	snap = snapshot(t, s)
	_, e = call(t, s, "click", map[string]any{"element": search})
	wantCode(t, e, errcode.ElementNotInteractable)
	if !strings.Contains(e.Message, "inert") {
		t.Errorf("behind the modal dialog: %s", e.Message)
	}
	_, e = call(t, s, "fill", map[string]any{"element": ref(t, snap, "textbox", "Name"), "value": "Ada"})
	wantCode(t, e, errcode.ElementNotInteractable)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "button", "Close")})
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
	if !strings.Contains(log, "search clicked newsletter true top clicked") {
		t.Errorf("the page's log: want the search, the newsletter box and the top button, in that order:\n%s", log)
	}
	if snap := snapshot(t, s); !strings.Contains(snap, `textbox "Name" value="Ada"`) {
		t.Errorf("the name after the dialog closed:\n%s", snap)
	}
	if strings.Count(log, "search clicked") != 1 {
		t.Errorf("the page saw a click it should not have:\n%s", log)
	}
}
