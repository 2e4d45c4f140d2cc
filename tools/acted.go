package tools

import (
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/confirm"
)

// acted is the structured result the element actions share. Trusted comes
// from the engine: browser.ExecInfo.Trusted, never the page script's own word.
type acted struct {
	Element   string        `json:"element,omitempty"`
	Trusted   bool          `json:"trusted"`
	URL       *browser.Page `json:"url,omitempty"`
	Navigated *bool         `json:"navigated,omitempty"`
	observed
}

// checked is how an action's ref was checked (browser/binding.go), and the origin
// of the frame it is in.
type checked struct {
	RefCheck    string        `json:"ref_check,omitempty"`
	FrameOrigin *browser.Page `json:"frame_origin,omitempty"`
}

// opened is the dialog an action opened (click, press_key).
type opened struct {
	Dialog *dialogOut `json:"dialog,omitempty"`
}

// observed is what changed after an action or a wait (browser/observe.go).
type observed struct {
	Changes map[string]any `json:"changes,omitempty"`
}

// dialogOut is a dialog an action opened.
type dialogOut struct {
	Type string       `json:"type"`
	Text browser.Page `json:"text"`
}

// actedOn starts the result of an action on element: whether its input was
// trusted and where the page is now.
func actedOn(element string, trusted bool, urlNow string, navigated bool) acted {
	u := browser.PageURL(urlNow)
	return acted{Element: element, Trusted: trusted, URL: &u, Navigated: &navigated}
}

// checkedRef says how the action's ref was checked and, in a frame, the
// frame's origin.
func checkedRef(l *browser.Locator, info browser.ExecInfo) checked {
	c := checked{RefCheck: l.CheckedBy(info)}
	if origin, ok := l.InFrame(); ok {
		o := browser.PageURL(origin)
		c.FrameOrigin = &o
	}
	return c
}

// refNote is the sentence an action result adds when its ref was not
// checked against the node itself.
func refNote(l *browser.Locator, info browser.ExecInfo) string {
	if l == nil || l.CheckedBy(info) == "node" {
		return ""
	}
	return " The ref was checked by selector and fingerprint only (no node binding here), so an identical element that replaced the original would pass."
}

// frameFields is what an action result shows, inside markers, about the
// frame its element is in (nothing for the top document).
func frameFields(l *browser.Locator) []browser.PageField {
	if l == nil {
		return nil
	}
	if origin, ok := l.InFrame(); ok {
		return []browser.PageField{{Label: "Frame origin", Value: origin, Max: 200}}
	}
	return nil
}

// addObs ends an answer with what an observation saw: its text after the
// answer's, its summary as the changes field.
func addObs(o *browser.Observation, sd *said, ob *observed) {
	sd.text += o.Text()
	if ch := o.Changes(); ch != nil {
		ob.Changes = ch
	}
}

// intents is the intent argument of click, press_key and fill (the field
// each declares as intentField): a category of consequential action the
// caller declares, which arms the lock where the page's own words and
// fields did not. It can only add.
func intents(intent *string) []confirm.Category {
	if intent == nil {
		return nil
	}
	return []confirm.Category{confirm.Category(*intent)}
}

// confirmedNote is what an answer adds when the lock was armed and the
// user allowed the action (browser.Op.Guard). It is text only: tools/list
// has a size budget, and the sentence is what the model reads.
func confirmedNote(op *browser.Op) string {
	if !op.Confirmed() {
		return ""
	}
	return " " + confirmedSentence(op)
}

// confirmedSentence says where the user allowed the Op's action.
func confirmedSentence(op *browser.Op) string {
	if op.ConfirmedVia() == browser.ConfirmedInClient {
		return ConfirmedInClientText
	}
	return ConfirmedText
}

// ConfirmedText is the sentence an answer carries when the user allowed it
// in the window; ConfirmedInClientText when they allowed it in the MCP
// client (FIREFOX_MCP_CONFIRM=elicit).
const (
	ConfirmedText         = "The user confirmed this action in the confirmation window before it ran."
	ConfirmedInClientText = "The user confirmed this action in your MCP client (an elicitation request) before it ran."
)
