package pagejs_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// line renders an element as the test reads it: role word (kind, else role, else
// tag), name and the new states.
func targetLine(e pagejs.Element) string {
	role := e.Role
	if role == "" {
		role = e.Tag
	}
	if e.Kind != "" {
		role = e.Kind
	}
	s := role + " " + `"` + e.Name + `"`
	if e.Level > 0 {
		s += " level=" + string(rune('0'+e.Level))
	}
	if e.Drag != "" {
		s += " " + e.Drag
	}
	return s
}

func targetLines(r pagejs.SnapshotResult) []string {
	var out []string
	for _, e := range r.Elements {
		out = append(out, targetLine(e))
	}
	return out
}

// TestTargetsWithoutRole: targets.html gives each signal of lib.js's tables an
// element of its own (no role, no other hint); with the isolated realm's listener
// marks, the page-realm walk lists each once, by its text, and lists none of the
// inert text, nor a pointer region's children, nor a span inside a button.
func TestTargetsWithoutRole(t *testing.T) {
	p := open(t, "/targets.html")
	var m pagejs.ListenerMarksResult
	p.must(isolatedRealm, pagejs.ListenerMarks, pagejs.ListenerMarksArgs{}, &m)
	if m.Count < 5 || m.Scanned == 0 {
		t.Fatalf("listener marks: %+v", m)
	}
	for _, r := range realms {
		got := strings.Join(targetLines(p.snapshot(r)), "\n")
		for _, want := range []string{
			`clickable "Saved searches"`,               // listener (click)
			`clickable "Keyboard only"`,                // key listener on a focusable element
			`clickable "Dismiss banner"`,               // onclick attribute
			`clickable "Dark mode: off"`,               // span tabindex=0 with a click listener
			`clickable "Focusable note"`,               // tabindex alone
			`clickable "Senior Go Engineer Acme Corp"`, // pointer region: one line named by both
			`clickable "Open menu"`,                    // mousedown listener
			`clickable "Staff Engineer Initech"`,       // a card: its logo and heading are its line's
			`div "Drag card" draggable`,
			`div "" drop target`,
			`heading "Open positions" level=2`,
			`img "Revenue chart"`,
			`img "Five stars"`,
			`svg "Settings"`,
			`canvas "Sales by month"`,
		} {
			if !strings.Contains(got, want+"\n") && !strings.HasSuffix(got, want) {
				t.Errorf("%s: want %s in\n%s", r, want, got)
			}
		}
		for _, not := range []string{"Just some text", "More text without", `"Senior Go Engineer"`, `"Acme Corp"`, `"Inner label"`, "Paragraph one", `img ""`, `img "Initech logo"`, `heading "Staff Engineer"`} {
			if strings.Contains(got, not) {
				t.Errorf("%s: %s listed:\n%s", r, not, got)
			}
		}
	}
}

// TestListenerMarksFollowChanges: a listener the page adds after its marks were made
// is marked (the listener-change listener), and the walk lists its element.
func TestListenerMarksFollowChanges(t *testing.T) {
	p := open(t, "/targets.html")
	var m pagejs.ListenerMarksResult
	p.must(isolatedRealm, pagejs.ListenerMarks, pagejs.ListenerMarksArgs{}, &m)
	p.js(`(() => { const d = document.createElement("div"); d.textContent = "Late target"; document.body.append(d); d.addEventListener("click", () => {}); return 1; })()`)
	got := p.waitJS(`(() => { const h = window[Symbol.for("fxmcp-marks")]; return h && h.seq > `+strconv.Itoa(m.Seq)+` })()`, "true")
	if got != "true" {
		t.Fatalf("the marks were not published again after a listener was added")
	}
	if s := strings.Join(targetLines(p.snapshot(pageRealm)), "\n"); !strings.Contains(s, `clickable "Late target"`) {
		t.Errorf("want the late target listed:\n%s", s)
	}
}
