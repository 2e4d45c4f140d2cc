package pagejs_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// widgetBoxes is a form drawn the way Element Plus draws its controls: a switch and a
// checkbox whose inputs have no area beside the box that shows them (and a stand-in
// input so, out of the tab order), a select whose placeholder lies over its field, a
// field with a clear button laid over it, a button under a veil, and comboboxes whose closed popups keep the
// chosen options marked aria-selected; a combobox box that only wraps its field (as
// Vuetify's does), and a combobox with a hidden native input under it (as Material
// UI's has).
const widgetBoxes = `<style>.hid{position:absolute;opacity:0;width:0;height:0;margin:0}
.box{display:inline-block;position:relative;width:44px;height:20px;background:#ccc}
.wrap{position:relative;display:inline-block;width:200px;height:24px;border:1px solid #999}
.wrap input{width:10px;border:0}
.over{position:absolute;left:0;top:0;right:0;bottom:0;background:#fff}</style>
<div class="box" id="sw"><input type="checkbox" role="switch" aria-label="Remote" class="hid"><span></span></div>
<label><span class="box"><input type="checkbox" class="hid"></span> I agree</label>
<div class="box"><input type="checkbox" aria-label="Stand-in" class="hid" tabindex="-1"></div>
<div class="wrap" id="sel"><div><input role="combobox" aria-label="City" aria-expanded="false" aria-controls="cities"></div><span class="over select__placeholder">Choose a city</span></div>
<div class="wrap"><input aria-label="Search"><button type="button" class="over">Clear</button></div>
<div class="wrap"><button type="button">Under a veil</button><div class="over" style="opacity:0.01"></div></div>
<div class="wrap" id="card"><button type="button">Under a mask</button><div class="over" style="opacity:0.01"></div></div>
<div class="wrap"><input role="combobox" aria-label="Skills" aria-expanded="false" aria-controls="skills"></div>
<ul role="listbox" id="cities" hidden><li role="option" aria-selected="false">Berlin</li><li role="option" aria-selected="true">Paris</li></ul>
<ul role="listbox" id="skills" hidden><li role="option" aria-selected="true">Go</li><li role="option" aria-selected="true" aria-label="Rust lang">Rust</li></ul>
<div role="combobox" class="wrap"><input role="combobox" aria-label="Country" aria-expanded="false"></div>
<div role="combobox" tabindex="0">M<input aria-hidden="true" tabindex="-1" value="m"></div>
<p id="log"></p>
<script>document.getElementById("sel").addEventListener("click", () => { document.getElementById("log").textContent += "opened "; });
document.getElementById("card").addEventListener("click", () => {});</script>`

// TestFirefoxWidgetBoxes: in both realms, an input with no area in the tab order is
// listed (the stand-in out of it is not), and a click on it reaches it through its box
// (isolated realm: aimed at that box); a click on a field under its own widget's
// placeholder is taken where the widget's box listens for it (isolated realm: the page
// realm sees no listeners and refuses it), one under another control (a clear button),
// or a button under a veil (in a box that listens or not: a button is no field), is
// refused as covered; a
// collapsed combobox left empty reads its chosen options from its popup, an expanded
// one does not; a combobox box that only wraps its field is not listed, one over a
// hidden input is.
func TestFirefoxWidgetBoxes(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/labels.html")
			html, _ := json.Marshal(widgetBoxes)
			p.js(`(document.body.innerHTML = ` + string(html) + `, 1)`)
			p.js(`(() => { const s = document.createElement("script"); s.textContent = document.querySelector("script").textContent; document.body.append(s); return 1; })()`)
			s := p.snapshot(r)
			sw := find(t, s, "switch", "Remote")
			agree := find(t, s, "checkbox", "I agree")
			for _, e := range s.Elements {
				if e.Name == "Stand-in" {
					t.Errorf("the stand-in out of the tab order is listed: %+v", e)
				}
			}
			for _, c := range []struct {
				e  pagejs.Element
				js string
			}{{sw, `document.querySelector("#sw input").checked`}, {agree, `document.querySelector("label input").checked`}} {
				if err := p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: c.e.Sel, FP: c.e.FP}, nil); err != nil {
					t.Errorf("click on %q: %v", c.e.Name, err)
				} else if got := p.js(c.js); got != "true" {
					t.Errorf("click on %q: checked %s", c.e.Name, got)
				}
			}
			find(t, s, "combobox", "Country")
			combos := 0
			for _, e := range s.Elements {
				if e.Role == "combobox" {
					combos++
				}
			}
			if combos != 4 { // City, Skills, Country, and the one over a hidden input
				t.Errorf("%d comboboxes, want 4: not the box that wraps Country's field, but the one over a hidden input", combos)
			}
			city := find(t, s, "combobox", "City")
			if city.Value == nil || *city.Value != "Paris" {
				t.Errorf("City: value %v, want Paris (its closed popup's choice)", city.Value)
			}
			if skills := find(t, s, "combobox", "Skills"); skills.Value == nil || *skills.Value != "Go, Rust lang" {
				t.Errorf("Skills: value %v, want Go, Rust lang", skills.Value)
			}
			err := p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: city.Sel, FP: city.FP}, nil)
			switch {
			case r == pageRealm && !isCode(err, errcode.ElementNotInteractable):
				t.Errorf("page realm, click on the select under its placeholder: %v, want element_not_interactable (no listeners seen there)", err)
			case r == isolatedRealm && err != nil:
				t.Errorf("click on the select under its placeholder: %v", err)
			case r == isolatedRealm && p.js(`document.getElementById("log").textContent`) != "opened ":
				t.Errorf("click on the select: the widget's box saw %q", p.js(`document.getElementById("log").textContent`))
			}
			for _, name := range []string{"Under a veil", "Under a mask"} {
				b := find(t, s, "button", name)
				if err := p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP}, nil); !isCode(err, errcode.ElementNotInteractable) {
					t.Errorf("click on a button %s (its box listening or not): %v, want element_not_interactable", strings.ToLower(name), err)
				}
			}
			search := find(t, s, "textbox", "Search")
			err = p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: search.Sel, FP: search.FP}, nil)
			if r == isolatedRealm && !isCode(err, errcode.ElementNotInteractable) {
				t.Errorf("click on a field under a clear button: %v, want element_not_interactable", err)
			}
			p.js(`document.querySelector("[aria-label=City]").setAttribute("aria-expanded", "true")`)
			if v := find(t, p.snapshot(r), "combobox", "City").Value; v != nil && *v != "" {
				t.Errorf("expanded City: value %q, want none (aria-selected marks the option under the focus there)", *v)
			}
		})
	}
}
