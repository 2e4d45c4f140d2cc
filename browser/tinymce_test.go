package browser_test

import (
	"strings"
	"testing"
)

// TestTinyMCEAndCKEditor: a cover letter in TinyMCE 8 (its document in an iframe, the
// editable body unnamed) and a summary in CKEditor 5's classic build, both from
// npm at test set-up, written from the answers alone (filled, then typed on). Their toolbars' buttons read
// alike, and the text nearest each is the same ("Paragraph", each toolbar's block
// format): each gets the label before its own editor instead, so CKEditor's Undo
// is told from TinyMCE's. That Undo then takes back only the summary. Nothing is
// submitted.
func TestTinyMCEAndCKEditor(t *testing.T) {
	s, _ := openVendored(t, []string{"tinymce@8.9.2", "@ckeditor/ckeditor5-build-classic@44.3.0"}, "/rich-editors.html")
	waitText(t, s, "editors ready")
	snap := snapshot(t, s)
	letter := ref(t, snap, "textbox", "") // TinyMCE's body, in its frame
	if !strings.Contains(snap, `--- frame "Rich Text Area"`) {
		t.Errorf("TinyMCE's editable body: want it listed in its frame:\n%s", snap)
	}
	summary := ref(t, snap, "textbox", "Rich Text Editor. Editing area: main. Press Alt+0 for help.")
	nearRef(t, snap, "button", "Undo", "Cover letter")
	undo := nearRef(t, snap, "button", "Undo", "Summary")
	res := must(t, s, "fill", map[string]any{"element": letter, "value": "Dear team, I would like to apply."})
	if !strings.Contains(res.Text, "["+letter+`] textbox value="Dear team, I would like to apply."`) {
		t.Errorf("fill in TinyMCE: want the body's new text in the answer:\n%s", res.Text)
	}
	res = must(t, s, "type_text", map[string]any{"element": letter, "text": " Best regards."})
	if !strings.Contains(res.Text, "["+letter+`] textbox value="Dear team, I would like to apply. Best regards."`) {
		t.Errorf("typing in TinyMCE: want the text continued:\n%s", res.Text)
	}
	res = must(t, s, "type_text", map[string]any{"element": summary, "text": "Go developer, ten years."})
	if !strings.Contains(res.Text, `value="Go developer, ten years."`) || !strings.Contains(res.Text, "["+undo+`] button "Undo" near="Summary"`) {
		t.Errorf("typing in CKEditor: want its text and its Undo, now enabled, in the answer:\n%s", res.Text)
	}
	must(t, s, "click", map[string]any{"element": undo})
	text := pageText(t, s)
	if !strings.Contains(text, `"letter":"Dear team, I would like to apply. Best regards."`) || strings.Contains(text, "ten years") || strings.Contains(text, "submitted") {
		t.Errorf("the form's state: want the letter kept, the summary undone, nothing submitted:\n%s", text)
	}
}
