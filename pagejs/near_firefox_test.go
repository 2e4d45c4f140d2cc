package pagejs_test

import (
	"encoding/json"
	"slices"
	"testing"
)

// lookalikes is a page of elements that share role and name: chips' remove buttons,
// job cards' save buttons, table rows' unnamed checkboxes, a pair in one box, and a
// unique button.
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
<div>Alone <button type="button">Unique</button></div>`

// TestFirefoxNearTexts: look-alikes get the visible text nearest them that is theirs
// alone (nearRows), in both realms; elements with a name of their own get none, nor do
// look-alikes that share their nearest text.
func TestFirefoxNearTexts(t *testing.T) {
	p := open(t, "/labels.html")
	html, _ := json.Marshal(lookalikes)
	p.js(`(document.body.innerHTML = ` + string(html) + `, 1)`)
	want := map[string][]string{
		`button "Remove"`:       {"Rust", "Go", "Python"},
		`button "Save"`:         {"Senior Go Engineer Acme · Remote", "Staff Rust Engineer at a company whose …"},
		`checkbox "" unchecked`: {"Alice", "Bob"},
		`button "Edit"`:         {"", ""},
		`button "Unique"`:       {""},
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
