package browser_test

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// Shoelace, fetched from npm at test set-up (pinned; internal/npmlibs).
var shoelace = []string{"@shoelace-style/shoelace@2.20.1"}

// shoelaceServer serves testdata with Shoelace under /vendor/.
func shoelaceServer(t *testing.T) *httptest.Server {
	t.Helper()
	return vendorServer(t, shoelace, nil)
}

// Shoelace's controls live in shadow roots; their names come from slotted
// light-DOM text. Trusted clicks, fills and typing reach them; fill on the
// custom select says what to do instead, and clicking through it works.
func TestShoelaceComponents(t *testing.T) {
	srv := shoelaceServer(t)
	s := newSession(t)
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/shoelace.html", "wait": "complete"})
	waitText(t, s, "shoelace ready")
	snap := snapshot(t, s)
	name, terms, apply := ref(t, snap, "textbox", "Full name"), ref(t, snap, "checkbox", "I accept the terms"), ref(t, snap, "button", "Apply now")
	country := ref(t, snap, "combobox", "Country")
	if n := strings.Count(snap, "] textbox"); n != 1 {
		t.Errorf("want only the name field as a textbox (the select's hidden value input is aria-hidden), got %d:\n%s", n, snap)
	}

	res := must(t, s, "click", map[string]any{"element": terms, "wait_after_ms": 0})
	if st := res.Structured.(map[string]any); st["trusted"] != true || st["ref_check"] != "node" {
		t.Errorf("checkbox click: %v", st)
	}
	waitText(t, s, "terms=true")
	must(t, s, "click", map[string]any{"element": apply, "wait_after_ms": 0})
	waitText(t, s, "apply clicked trusted=true")

	must(t, s, "fill", map[string]any{"element": name, "value": "Ada"})
	waitText(t, s, "name=Ada")
	must(t, s, "type_text", map[string]any{"element": name, "text": " Lovelace"})
	waitText(t, s, "name=Ada Lovelace")
	if !strings.Contains(snapshot(t, s), `textbox "Full name" value="Ada Lovelace"`) {
		t.Errorf("the snapshot does not show the typed value")
	}

	_, e := call(t, s, "fill", map[string]any{"element": country, "value": "Germany"})
	wantCode(t, e, errcode.UnsupportedElement)
	if !strings.Contains(e.Message, "click it to open its options") {
		t.Errorf("fill on the custom select does not say what to do: %s", e.Message)
	}
	must(t, s, "click", map[string]any{"element": country, "wait_after_ms": 300})
	snap = snapshot(t, s)
	must(t, s, "click", map[string]any{"element": ref(t, snap, "option", "Germany"), "wait_after_ms": 0})
	waitText(t, s, "country=de")
	if txt := pageText(t, s); strings.Contains(txt, "SUBMITTED") {
		t.Errorf("the form was submitted:\n%s", txt)
	}
}

// TestWaitForShadowText: wait_for finds text a component renders in its open
// shadow root, at any depth (a Shoelace input's label attribute, rendered
// in its shadow tree, too), and not the hidden text or the style sheet
// there; a selector matches in shadow roots too.
func TestWaitForShadowText(t *testing.T) {
	s := newSession(t)
	open(t, s, "shadow-text.html")
	for _, text := range []string{"Shown in the shadow", "nested SHADOW text", "3 new messages", "no more news", "Order confirmed"} {
		must(t, s, "wait_for", map[string]any{"text": text, "timeout_ms": 2000, "observe": false})
	}
	for _, text := range []string{"Hidden in the shadow", "css-only-text"} {
		_, e := call(t, s, "wait_for", map[string]any{"text": text, "timeout_ms": 0, "observe": false})
		wantCode(t, e, errcode.WaitTimeout)
	}
	// A selector is matched in each tree, the shadow roots' too.
	for _, sel := range []string{"x-card", "section > x-inner", "span"} {
		must(t, s, "wait_for", map[string]any{"selector": sel, "timeout_ms": 0, "observe": false})
	}
	_, e := call(t, s, "wait_for", map[string]any{"selector": "x-card span", "timeout_ms": 0, "observe": false})
	wantCode(t, e, errcode.WaitTimeout) // (no selector crosses a shadow root's edge)
	srv := shoelaceServer(t)
	must(t, s, "navigate", map[string]any{"url": srv.URL + "/shoelace.html", "wait": "complete", "observe": false})
	must(t, s, "wait_for", map[string]any{"text": "Full name", "timeout_ms": 5000, "observe": false})
	// The answer lists the match in the shadow tree as a snapshot line with a ref.
	res := must(t, s, "wait_for", map[string]any{"selector": "input.input__control", "timeout_ms": 5000})
	if !regexp.MustCompile(`\[e\d+\] textbox "Full name"`).MatchString(res.Text) {
		t.Errorf("wait_for's answer lacks the shadow tree's input:\n%s", res.Text)
	}
}

// TestAllTextShadow: include_all_text has the text components render in
// open shadow roots (after the document's own), not their hidden text or
// style sheets.
func TestAllTextShadow(t *testing.T) {
	s := newSession(t)
	open(t, s, "shadow-text.html")
	text := must(t, s, "snapshot_page", map[string]any{"include_all_text": true}).Text
	if !strings.Contains(text, "Shown in the shadow Nested shadow text") || !strings.Contains(text, "3 new messages No more news") {
		t.Errorf("page text lacks the shadow trees' text:\n%s", text)
	}
	for _, hidden := range []string{"Hidden in the shadow", "css-only-text"} {
		if strings.Contains(text, hidden) {
			t.Errorf("page text has %q:\n%s", hidden, text)
		}
	}
}
