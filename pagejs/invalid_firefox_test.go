package pagejs_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// invalidFields is a form after its validation ran: fields marked aria-invalid with
// their errors named by aria-describedby (beside a hint) or aria-errormessage, one
// marked valid, a native e-mail field checked by the browser itself, and fields
// described by an alert (one classed as in error, one not) and by a hint.
const invalidFields = `<input aria-label="Email" aria-invalid="true" aria-describedby="mail-help mail-err">
<p id="mail-help">We never share it.</p><p id="mail-err">Not an e-mail address <span hidden>(code 7)</span></p>
<input aria-label="Phone" aria-invalid="true" aria-errormessage="phone-err" aria-describedby="phone-help">
<p id="phone-help">With the country code.</p><p id="phone-err">Too short</p>
<input aria-label="Name" aria-invalid="false" required>
<input aria-label="Work e-mail" type="email" required>
<div class="field field--error"><input aria-label="Street" aria-describedby="street-msg"><div role="alert"><span id="street-msg">No such street</span></div></div>
<div class="field"><input aria-label="Town" aria-describedby="town-msg"><div role="alert"><span id="town-msg">As on your ID</span></div></div>
<input aria-label="City" aria-describedby="city-hint"><span id="city-hint">As on your ID</span>
<button type="button">Next</button>`

// TestFirefoxInvalidFields: an element marked invalid says so, with the text of its
// error message (aria-errormessage, else aria-describedby, without what its markup
// hides); aria-invalid="false" is not invalid. A field not marked invalid but classed
// as in error gives the text of an alert it is described by as its error (Vuetify's
// failed rule); the same alert beside a field not so classed is a hint, not shown. A native field is invalid only once the
// user has changed it (:user-invalid): after a trusted fill of a bad address and a
// blur (isolated realm), with the browser's message; a resident's walk then gives
// what a full walk gives, though neither a mutation nor the value told it (the blur).
func TestFirefoxInvalidFields(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/labels.html")
			html, _ := json.Marshal(invalidFields)
			p.js(`(document.body.innerHTML = ` + string(html) + `, 1)`)
			args := pagejs.SnapshotArgs{MaxElements: 5000}
			actor := p.resident(pagejs.Snapshot)
			k := &keeper{p: p, actor: actor}
			k.walk(t, args)
			s := p.snapshot(r)
			for _, c := range []struct {
				name    string
				invalid bool
				err     string
			}{
				{"Email", true, "We never share it. Not an e-mail address"},
				{"Phone", true, "Too short"},
				{"Name", false, ""},
				{"Work e-mail", false, ""},
				{"Street", false, "No such street"},
				{"Town", false, ""},
				{"City", false, ""},
			} {
				e := find(t, s, "textbox", c.name)
				if e.Invalid != c.invalid || e.Error != c.err {
					t.Errorf("%s: invalid=%v error=%q, want %v %q", c.name, e.Invalid, e.Error, c.invalid, c.err)
				}
			}
			if r == pageRealm {
				return
			}
			work := find(t, s, "textbox", "Work e-mail")
			p.must(isolatedRealm, pagejs.Fill, pagejs.FillArgs{Sel: work.Sel, FP: work.FP, Value: "me-at-example"}, nil)
			k.walk(t, args) // the value changed: walked, the field not yet invalid (no blur yet)
			if p.js(`String(document.querySelector("[type=email]").matches(":user-invalid"))`) != "false" {
				t.Fatal("the field was :user-invalid before the blur: the step below tests nothing")
			}
			p.js(`(document.activeElement.blur(), 1)`)
			e := find(t, p.snapshot(r), "textbox", "Work e-mail")
			if !e.Invalid || e.Error == "" {
				t.Errorf("Work e-mail after a bad address: invalid=%v error=%q, want invalid with the browser's message", e.Invalid, e.Error)
			}
			got, _ := k.walk(t, args)
			var want pagejs.SnapshotResult
			p.must(pageRealm, pagejs.Snapshot, args, &want)
			got.Seq, want.Seq = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the resident's walk after the field turned invalid differs from a full walk")
			}
		})
	}
}
