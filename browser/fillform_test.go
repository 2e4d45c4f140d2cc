package browser_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/tools"
)

// filledFields is fill_form's structured fields as JSON objects.
func filledFields(t *testing.T, res tools.Result) []map[string]any {
	t.Helper()
	b, err := json.Marshal(res.Structured.(map[string]any)["fields"])
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFillFormMantine: fill_form on a job application built with Mantine 8 and
// react-hook-form 7 (the page of TestMantineApplication): an e-mail field, a switch,
// a segmented control's radio and a checkbox in one call, whose answer has one delta
// and whose effect the form's own state shows. Before it, calls with a bad field fail
// naming it, and the form holds nothing they would have written: a button after a
// good e-mail field, true for a text field, a
// string for a checkbox, a ref that no snapshot gave, a ref given twice.
func TestFillFormMantine(t *testing.T) {
	s, snap := openBundled(t, "mantine-apply", mantineLibs)
	email := ref(t, snap, "textbox", "E-mail")
	send := ref(t, snap, "button", "Send application")
	remote := ref(t, snap, "switch", "Remote")
	part := ref(t, snap, "radio", "Part time")
	agree := ref(t, snap, "checkbox", "I agree to the privacy policy")
	field := func(el string, v any) map[string]any { return map[string]any{"element": el, "value": v} }
	bad := []struct {
		fields []map[string]any
		code   errcode.Code
		names  string
	}{
		{[]map[string]any{field(email, "me@example.com"), field(send, "now")}, errcode.UnsupportedElement, "field 2 (" + send + "): "},
		{[]map[string]any{field(agree, true), field(email, true)}, errcode.InvalidArguments, "field 2 (" + email + "): "},
		{[]map[string]any{field(email, "me@example.com"), field(remote, "yes")}, errcode.InvalidArguments, "field 2 (" + remote + "): "},
		{[]map[string]any{field(email, "me@example.com"), field("e9999", "x")}, errcode.ElementNotFound, "field 2 (e9999): "},
		{[]map[string]any{field(email, "a@b.c"), field(email, "me@example.com")}, errcode.InvalidArguments, "field 2 (" + email + "): "},
	}
	for _, b := range bad {
		_, e := call(t, s, "fill_form", map[string]any{"fields": b.fields})
		if e == nil || e.Code != b.code || !strings.HasPrefix(e.Message, b.names) {
			t.Errorf("fill_form %v: error %v, want %s naming %q", b.fields, e, b.code, b.names)
		}
	}
	if txt := pageText(t, s); !strings.Contains(txt, `"remote":false,"agree":false,"contract":"full","email":""`) {
		t.Fatalf("the failed calls wrote something:\n%s", txt)
	}
	res := must(t, s, "fill_form", map[string]any{"fields": []map[string]any{
		field(email, "me@example.com"), field(remote, true), field(part, true), field(agree, true),
	}})
	if !strings.HasPrefix(res.Text, fmt.Sprintf("Filled 4 fields: %s, %s, %s, %s (trusted", email, remote, part, agree)) ||
		strings.Count(res.Text, "<<<untrusted-page-content") > 2 {
		t.Errorf("answer:\n%s", res.Text)
	}
	fields := filledFields(t, res)
	if len(fields) != 4 || fields[1]["checked"] != true || fields[0]["value"] != "me@example.com" {
		t.Errorf("structured fields = %v", fields)
	}
	if c := changes(t, res); c == nil {
		t.Errorf("no delta in %v", res.Structured)
	}
	want := `"remote":true,"agree":true,"contract":"part","email":"me@example.com"`
	if txt := pageText(t, s); !strings.Contains(txt, want) {
		t.Errorf("the form's state: want %s in\n%s", want, txt)
	}
	// Filled again as it is: nothing toggles back.
	must(t, s, "fill_form", map[string]any{"fields": []map[string]any{field(remote, true), field(agree, true)}})
	if txt := pageText(t, s); !strings.Contains(txt, want) {
		t.Errorf("true on a checked switch and checkbox toggled one: want %s in\n%s", want, txt)
	}
}

// TestFillFormPlain: fill_form on a plain HTML form with a React-style controlled
// input: a text field, the controlled one, a password (never echoed), a select by its
// label, an editable region, a textarea and a checkbox, then submit: every field holds
// its value, the controlled input's state saw it, the checkbox changed by a trusted
// event, the form was submitted by one. An option the select lacks fails the call
// naming the field and listing the select's options, before the text field ahead of
// it is written.
func TestFillFormPlain(t *testing.T) {
	s := newSession(t, notAboutTheLock(`it submits a form whose button says "Send"; the test is about fill_form`))
	open(t, s, "form.html")
	snap := snapshot(t, s)
	name, color := ref(t, snap, "textbox", "Name"), ref(t, snap, "combobox", "Color")
	_, e := call(t, s, "fill_form", map[string]any{"fields": []map[string]any{
		{"element": name, "value": "Ada"}, {"element": color, "value": "Blue"}}})
	if e == nil || e.Code != errcode.OptionNotFound || !strings.HasPrefix(e.Message, "field 2 ("+color+"): ") ||
		!strings.Contains(e.Text(), `Option: "Green"`) {
		t.Fatalf("an unknown option: error %v, want the select's options listed:\n%s", e, e.Text())
	}
	if strings.Contains(snapshot(t, s), `textbox "Name" value="Ada"`) {
		t.Fatal("the name was written before the bad option failed the call")
	}
	res := must(t, s, "fill_form", map[string]any{"submit": true, "fields": []map[string]any{
		{"element": name, "value": "Ada"},
		{"element": ref(t, snap, "textbox", "Controlled"), "value": "Lovelace"},
		{"element": ref(t, snap, "textbox", "Password"), "value": "s3cret-pw"},
		{"element": color, "value": "green"},
		{"element": ref(t, snap, "textbox", "Editor"), "value": "Hello editor"},
		{"element": ref(t, snap, "textbox", "Notes"), "value": "line one\nline two"},
		{"element": ref(t, snap, "checkbox", "I agree"), "value": true},
	}})
	if strings.Contains(res.Text, "s3cret-pw") || !strings.Contains(res.Text, "(trusted input). Submitted the form of ") {
		t.Errorf("answer:\n%s", res.Text)
	}
	fields := filledFields(t, res)
	if f := fields[3]; f["shown"] != "Green" || f["value"] != "g" {
		t.Errorf("select field = %v", f)
	}
	if f := fields[2]; f["value"] != nil {
		t.Errorf("the password was echoed: %v", f)
	}
	txt := pageText(t, s)
	for _, w := range []string{"react state: Lovelace", "editor: Hello editor", "agree true trusted=true", "submitted trusted=true"} {
		if !strings.Contains(txt, w) {
			t.Errorf("page log lacks %q:\n%s", w, txt)
		}
	}
	snap = snapshot(t, s)
	for _, w := range []string{`textbox "Name" value="Ada"`, `checkbox "I agree" checked`} {
		if !strings.Contains(snap, w) {
			t.Errorf("snapshot lacks %q:\n%s", w, snap)
		}
	}
}
