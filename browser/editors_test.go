package browser_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/browser"
)

// Real rich editors, fetched from npm at test set-up (pinned, cached outside
// the repository, never committed): Quill, ProseMirror and TipTap (on
// ProseMirror), with ProseMirror's transitive dependencies pinned too.
var editorLibs = []string{"quill@2.0.3",
	"prosemirror-model@1.25.13", "prosemirror-state@1.4.4", "prosemirror-view@1.44.0",
	"prosemirror-transform@1.12.7", "prosemirror-keymap@1.2.3", "prosemirror-commands@1.7.2",
	"prosemirror-schema-basic@1.2.5", "prosemirror-history@1.5.2",
	"orderedmap@2.1.1", "w3c-keyname@2.2.8", "rope-sequence@1.3.4", "prosemirror-schema-list@1.6.1",
	"@tiptap/core@3.35.0", "@tiptap/pm@3.35.0", "@tiptap/extension-document@3.35.0",
	"@tiptap/extension-paragraph@3.35.0", "@tiptap/extension-text@3.35.0"}

// TestRichEditors: in Quill, ProseMirror, TipTap and a plain contenteditable,
// type_text continues the last paragraph (never a new empty line), Enter
// makes a new paragraph, Backspace and Delete edit, as each editor's own
// model shows; with trusted input and with the page-realm fallback.
func TestRichEditors(t *testing.T) {
	srv := vendorServer(t, editorLibs, nil)
	for _, pageRealm := range []bool{false, true} {
		name := map[bool]string{false: "isolated", true: "page-realm"}[pageRealm]
		t.Run(name, func(t *testing.T) {
			s := newSession(t, func(o *browser.Options) { o.PageRealmOnly = pageRealm })
			// The page-realm fallback has no caret movement in editors (Home): the
			// steps up to Backspace.
			editors(t, s, srv.URL+"/editors.html", map[bool]int{false: 5, true: 3}[pageRealm])
		})
	}
}

func editors(t *testing.T, s *session, url string, nSteps int) {
	must(t, s, "select_tab", map[string]any{"index": 0})
	must(t, s, "navigate", map[string]any{"url": url, "wait": "complete"})
	waitText(t, s, "editors ready")
	snap := snapshot(t, s)
	for _, tc := range []struct {
		name, model string
		want        []string // the model after each step
	}{
		{"Quill editor", "quill=", []string{
			`quill="Dear hiring team,\n"`,
			`quill="Dear hiring team,\nI write\n"`,
			`quill="Dear hiring team,\nI writ\n"`,
			`quill="Dear hiring team,\n writ\n"`,
			`quill="Dear hiring team,\n writ\nP.S. Thanks\n"`,
		}},
		{"ProseMirror editor", "pm=", []string{
			`pm=["Dear hiring team,"]`,
			`pm=["Dear hiring team,","I write"]`,
			`pm=["Dear hiring team,","I writ"]`,
			`pm=["Dear hiring team,"," writ"]`,
			`pm=["Dear hiring team,"," writ","P.S. Thanks"]`,
		}},
		{"TipTap editor", "tiptap=", []string{
			`tiptap=["Dear hiring team,"]`,
			`tiptap=["Dear hiring team,","I write"]`,
			`tiptap=["Dear hiring team,","I writ"]`,
			`tiptap=["Dear hiring team,"," writ"]`,
			`tiptap=["Dear hiring team,"," writ","P.S. Thanks"]`,
		}},
		{"Plain editor", "plain=", nil},
	} {
		t.Run(strings.Fields(tc.name)[0], func(t *testing.T) {
			el := ref(t, snap, "textbox", tc.name)
			steps := []func(){
				func() { must(t, s, "type_text", map[string]any{"element": el, "text": "Dear hiring team,"}) },
				func() {
					must(t, s, "press_key", map[string]any{"element": el, "key": "Enter"})
					must(t, s, "type_text", map[string]any{"element": el, "text": "I write"})
				},
				func() { must(t, s, "press_key", map[string]any{"key": "Backspace"}) },
				func() {
					must(t, s, "press_key", map[string]any{"key": "Home"})
					must(t, s, "press_key", map[string]any{"key": "Delete"})
				},
				func() { must(t, s, "type_text", map[string]any{"element": el, "text": "\nP.S. Thanks"}) },
			}
			plain := []string{`"Dear hiring team,"`, `"Dear hiring team,\nI write"`, `"Dear hiring team,\nI writ"`,
				`"Dear hiring team,\n writ"`, `"Dear hiring team,\n writ\nP.S. Thanks"`}
			for i, step := range steps[:nSteps] {
				step()
				want := tc.model + plain[i]
				if tc.want != nil {
					want = tc.want[i]
				}
				got := editorModel(t, s, tc.model)
				if got != want {
					t.Fatalf("step %d: model %s, want %s", i+1, got, want)
				}
			}
		})
	}
}

// editorModel reads an editor's model from the page's (collapsed) text: from
// its prefix to the next model or the end of the page.
func editorModel(t *testing.T, s *session, prefix string) string {
	t.Helper()
	text := pageText(t, s)
	i := strings.Index(text, prefix)
	if i < 0 {
		t.Fatalf("no %s in the page:\n%s", prefix, text)
	}
	rest := text[i:]
	for _, end := range []string{" pm=", " tiptap=", " plain=", " editors ready"} {
		if j := strings.Index(rest, end); j > 0 {
			rest = rest[:j]
		}
	}
	return rest
}
