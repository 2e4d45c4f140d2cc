package pagejs_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// lookalikes is a page of elements that share role and name: chips' remove buttons,
// job cards' save buttons, table rows' unnamed checkboxes, a pair in one box, a
// unique button, two unnamed elements alone of their kind (a select menu whose
// label names the select it replaces, an icon button), two rich editors' toolbars
// whose Undo buttons have the same text beside them ("Paragraph"), and a table whose
// rows each have an Edit and a Delete button beside a link.
const lookalikes = `<div class="chips">
 <div class="chip">Rust<button type="button" aria-label="Remove">×</button></div>
 <div class="chip">Go<button type="button" aria-label="Remove">×</button></div>
 <div class="chip"><span style="display:none">secret</span>Python<button type="button" aria-label="Remove">×</button></div>
</div>
<ul>
 <li><h3>Senior Go Engineer</h3><p>Acme · Remote</p><button type="button">Save</button></li>
 <li><h3>Staff Rust Engineer at a company whose name goes on and on</h3><button type="button">Save</button></li>
</ul>
<table><tr><td><input type="checkbox"></td><td>Alice</td></tr><tr><td><input type="checkbox"></td><td>Bob</td></tr></table>
<div>Both <button type="button">Edit</button><button type="button">Edit</button></div>
<div>Alone <button type="button">Unique</button></div>
<p><label for="lvl">Level</label> <select id="lvl" hidden><option>Junior</option></select><span role="combobox" tabindex="0" aria-expanded="false">Junior</span></p>
<div class="toolbar"><span>Notifications</span><button type="button"><svg width="10" height="10"></svg></button></div>
<p>Cover letter</p><div class="editor"><div class="bar"><span>Paragraph</span><button type="button">Undo</button></div><div contenteditable="true">Dear team</div></div>
<p>Summary <span>*</span><span style="display:none">hidden</span></p><div class="editor"><div class="bar"><span>Paragraph</span><button type="button">Undo</button></div></div>
<p><span class="chip">Kotlin<button type="button" aria-label="Close">×</button></span></p>
<h2>Openings</h2><div class="card"><p>Platform engineer for payments and billing, Berlin</p><button type="button">Apply</button></div>
<div class="card"><p>Platform engineer for payments and billing, Lisbon</p><button type="button">Apply</button></div>
<table><tr><td><a href="#i42">Invoice 42</a></td><td><button type="button">Edit</button> <button type="button">Delete</button></td></tr>
<tr><td><a href="#i43">Invoice 43</a></td><td><button type="button">Edit</button> <button type="button">Delete</button></td></tr></table>`

// TestFirefoxNearTexts: look-alikes get the visible text nearest them that is theirs
// alone (nearRows), in both realms; elements with a name of their own get none, nor do
// look-alikes that share their nearest text; an unnamed element alone of its kind gets
// one too, and so does one named only by a generic action ("Close"); look-alikes whose nearest texts are the same get the text before their own
// part of the page (the editors' labels), but not the text of the look-alike before
// (two cards whose texts begin alike keep them: the first card's text is not the
// second's); the text of other look-alikes is no near text (a row's Delete is near
// its invoice, not its Edit).
func TestFirefoxNearTexts(t *testing.T) {
	p := open(t, "/labels.html")
	html, _ := json.Marshal(lookalikes)
	p.js(`(document.body.innerHTML = ` + string(html) + `, 1)`)
	want := map[string][]string{
		`button "Remove"`:                      {"Rust", "Go", "Python"},
		`button "Save"`:                        {"Senior Go Engineer Acme · Remote", "Staff Rust Engineer at a company whose …"},
		`checkbox "" unchecked`:                {"Alice", "Bob"},
		`button "Edit"`:                        {"", "", "Invoice 42", "Invoice 43"},
		`button "Delete"`:                      {"Invoice 42", "Invoice 43"},
		`button "Unique"`:                      {""},
		`combobox "" value="Junior" collapsed`: {"Level"},
		`button ""`:                            {"Notifications"},
		`button "Undo"`:                        {"Cover letter", "Summary *"},
		`button "Close"`:                       {"Kotlin"},
		`button "Apply"`:                       {"Platform engineer for payments and bill…", "Platform engineer for payments and bill…"},
	}
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			s := p.snapshot(r)
			near := s.NearRows()
			got := map[string][]string{}
			for i := range s.Elements {
				e := &s.Elements[i]
				k := line(*e)
				if near != nil {
					got[k] = append(got[k], near[i])
				} else {
					got[k] = append(got[k], "")
				}
			}
			for k, w := range want {
				if g := got[k]; len(g) != len(w) || !slices.Equal(g, w) {
					t.Errorf("%s: near %q, want %q", k, g, w)
				}
			}
		})
	}
}

// TestFirefoxNearKept: a resident's walk that visits only the rows that changed (an
// attribute changed: keep.only) still gives every look-alike its near text, the same as
// a full walk, and so does one after the text beside a look-alike changed.
func TestFirefoxNearKept(t *testing.T) {
	p := open(t, "/labels.html")
	html, _ := json.Marshal(lookalikes)
	p.js(`(document.body.innerHTML = ` + string(html) + `, 1)`)
	args := pagejs.SnapshotArgs{MaxElements: 5000}
	actor := p.resident(pagejs.Snapshot)
	k := &keeper{p: p, actor: actor}
	kept := func() pagejs.SnapshotResult { t.Helper(); r, _ := k.walk(t, args); return r }
	kept()
	for _, st := range []struct{ name, js string }{
		{"a look-alike's state", `document.querySelector(".chip button").setAttribute("aria-expanded", "true")`},
		{"another element's name", `[...document.querySelectorAll("button")].find((b) => b.textContent === "Unique").setAttribute("aria-label", "Solo")`},
		{"the text beside a look-alike", `document.querySelectorAll(".chip")[1].firstChild.data = "Golang"`},
	} {
		p.js(st.js)
		got := kept()
		var want pagejs.SnapshotResult
		p.must(pageRealm, pagejs.Snapshot, args, &want)
		got.Seq, want.Seq = 0, 0
		if !reflect.DeepEqual(got, want) || len(want.NearAt) == 0 {
			t.Errorf("%s: kept near %v %q, a full walk's %v %q", st.name, got.NearAt, got.Near, want.NearAt, want.Near)
		}
	}
	if !slices.Contains(k.held.Near, "Golang") {
		t.Errorf("near texts after the text beside a chip changed: %q", k.held.Near)
	}
}
