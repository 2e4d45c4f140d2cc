package pagejs_test

import (
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxCustomSelectValue: a combobox that is no text field shows what it
// displays as its value (its icon's hidden glyph left out), unless its label holds
// that already or it holds controls itself.
func TestFirefoxCustomSelectValue(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); d.innerHTML = '<span id="cv-l1">Region</span> <button type="button" role="combobox" aria-labelledby="cv-l1" aria-expanded="false"><span>Europe</span> <span aria-hidden="true">▾</span><input type="hidden" value="eu"></button>' +
		'<span id="cv-l2">Food</span> <div role="combobox" aria-labelledby="cv-l2 cv-v" aria-expanded="false" tabindex="0"><span id="cv-v">Steak</span></div>' +
		'<div role="combobox" aria-label="City" aria-expanded="false" tabindex="0"><input aria-label="City name" value="Bern"><button type="button" aria-label="Open">▾</button></div>' +
		'<div role="combobox" aria-label="Skills" aria-expanded="false" tabindex="0"><span>Go</span><span>Rust</span></div>' +
		'<div role="combobox" aria-label="Team" aria-expanded="false" tabindex="0">Team</div>'; document.getElementById("main").append(d); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, _ string) bool { return e.Role == "combobox" },
		`combobox "Country France" collapsed`, `combobox "Size" value="Large"`, `combobox "Colour" value="Green"`,
		`combobox "Region" value="Europe" collapsed`, `combobox "Food Steak" collapsed`, `combobox "City" collapsed`,
		`combobox "Skills" value="Go Rust" collapsed`, `combobox "Team" collapsed`)
}

// TestFirefoxStandIns: a native control kept out of the tab order in an
// aria-hidden container (React Aria's hidden <select>, date and text inputs, for
// forms and autofill) is not listed; an element out of the tab order that such a
// container holds otherwise (a tab list's inactive tab, behind a modal that hid
// the page) is, and so is a file input (react-dropzone's, while SweetAlert2's
// dialog hides the page). A custom slider shows the value it states.
func TestFirefoxStandIns(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); d.setAttribute("aria-hidden", "true"); d.innerHTML = '<select tabindex="-1" aria-label="Stand-in select"><option>A</option></select><input type="date" tabindex="-1" aria-label="Stand-in date"><div role="tab" tabindex="-1">Inactive tab</div><input type="file" tabindex="-1" aria-label="Hidden drop zone" style="display: none">'; document.getElementById("main").append(d);
		const s = document.createElement("div"); s.innerHTML = '<div role="slider" tabindex="0" style="width: 16px; height: 16px" aria-label="Distance" aria-valuenow="40" aria-valuetext="40 km"></div><div role="slider" tabindex="0" style="width: 16px; height: 16px" aria-label="Zoom" aria-valuenow="3"></div>'; document.getElementById("main").append(s); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, l string) bool {
		return strings.Contains(l, "Stand-in") || strings.Contains(l, "tab") || e.Role == "slider" || strings.Contains(l, "drop zone")
	}, `tab "Tab one" selected`, `tab "Tab two" unselected`, `tab "Inactive tab"`, `input/file "Hidden drop zone"`, `slider "Distance" value="40 km"`, `slider "Zoom" value="3"`)
}

// TestFirefoxChosenBeside: an editable combobox left empty for typing shows the
// choice rendered beside it, on its line, in the box that holds it (react-select,
// ng-select); not a placeholder (described by, or by its class), hidden text, a
// line above it or text beside it, a live region, text that is its name, nor a multiple select's
// chips (their remove buttons name them). What it holds typed is its value.
func TestFirefoxChosenBeside(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); const f = (name, box) => '<div class="cb" style="display: grid; width: 300px">' + box.replace("FIELD", '<input role="combobox" aria-label="' + name + '" aria-expanded="false" style="grid-area: 1 / 1">') + '</div>';
		d.innerHTML = f("React select", '<div style="grid-area: 1 / 1">Paris</div><div style="grid-area: 1 / 1">FIELD</div>') +
		f("Placeholder", '<div id="cb-ph" style="grid-area: 1 / 1">Choose a city</div><div style="grid-area: 1 / 1">FIELD</div>').replace('aria-label="Placeholder"', 'aria-label="Placeholder" aria-describedby="cb-ph"') +
		f("Ng select", '<div style="grid-area: 1 / 1; display: none">Select a city</div><div style="grid-area: 1 / 1"><span>Rome</span></div><div style="grid-area: 1 / 1">FIELD</div>') +
		'<div><div>Where would you work?</div><input role="combobox" aria-label="Below a heading" aria-expanded="false"></div>' +
		'<div style="display: grid"><span style="grid-area: 1 / 1">Named</span><input role="combobox" aria-label="Named" aria-expanded="false" style="grid-area: 1 / 1"></div>' +
		'<div style="display: grid"><span aria-live="polite" style="grid-area: 1 / 1">3 results</span><input role="combobox" aria-label="Beside a live region" aria-expanded="false" style="grid-area: 1 / 1"></div>' +
		'<div style="display: grid"><div style="grid-area: 1 / 1">Go <span role="button" aria-label="Remove Go">x</span></div><div style="grid-area: 1 / 1"><input role="combobox" aria-label="Chips" aria-expanded="false"></div></div>' +
		'<div style="display: grid"><span style="grid-area: 1 / 1">Oslo</span><input role="combobox" aria-label="Typed" aria-expanded="false" value="Ber" style="grid-area: 1 / 1"></div>' +
		f("Ng select empty", '<div class="ng-placeholder" style="grid-area: 1 / 1">Select a city</div><div style="grid-area: 1 / 1">FIELD</div>') +
		f("Ant select empty", '<span class="ant-select-selection-search" style="grid-area: 1 / 1">FIELD</span><span class="ant-select-selection-placeholder" style="grid-area: 1 / 1">Pick one</span>') +
		'<div style="display: flex"><span>@</span><input role="combobox" aria-label="Handle" aria-expanded="false"></div>' +
		'<div style="position: relative; width: 300px">Madrid<input role="combobox" aria-label="Text node" aria-expanded="false" style="position: absolute; left: 0; top: 0; width: 100%"></div>' +
		'<div>Where: <input role="combobox" aria-label="Inline prompt" aria-expanded="false"></div>' +
		f("Linked chip", '<div style="grid-area: 1 / 1">Apple <a href="#remove">x</a></div><div style="grid-area: 1 / 1">FIELD</div>');
		document.getElementById("main").append(d); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, _ string) bool { return e.Role == "combobox" && e.Tag == "input" },
		`combobox "React select" value="Paris" collapsed`, `combobox "Placeholder" collapsed`, `combobox "Ng select" value="Rome" collapsed`,
		`combobox "Below a heading" collapsed`, `combobox "Named" collapsed`, `combobox "Beside a live region" collapsed`,
		`combobox "Chips" collapsed`, `combobox "Typed" value="Ber" collapsed`, `combobox "Ng select empty" collapsed`,
		`combobox "Ant select empty" collapsed`, `combobox "Handle" collapsed`, `combobox "Text node" value="Madrid" collapsed`,
		`combobox "Inline prompt" collapsed`, `combobox "Linked chip" collapsed`)
}

// TestFirefoxSentinelsAndSelfNamed: a focus trap's sentinel (Headless UI's
// empty, aria-hidden 1×0 button) is not listed; a box with no area that shows
// what overflows it (a link around a float, a checkbox drawn by an absolute
// ::before) is. An element that names itself in its aria-labelledby adds its
// content, without what it hides, as browsers do (Headless UI's listbox
// button); a text field its value nowhere in its name. Another element that
// aria-labelledby names gives its aria-label there (vue-select's search field,
// labelled by its combobox), else its text without what its markup hides inside
// (a style sheet's hiding is not read), unless it is hidden itself.
func TestFirefoxSentinelsAndSelfNamed(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); d.innerHTML = '<button type="button" aria-hidden="true" style="position: fixed; top: 1px; left: 1px; width: 1px; height: 0; padding: 0; border-width: 0; overflow: hidden"></button>' +
		'<a href="#floated" style="display: block; height: 0"><span style="float: left">Floated link</span></a><div style="clear: both"></div>' +
		'<span id="sn-l">Size</span> <button type="button" id="sn-b" aria-labelledby="sn-l sn-b">Large <span aria-hidden="true">▾</span></button>' +
		'<span role="checkbox" tabindex="0" aria-checked="false" aria-label="Drawn box" class="sn-drawn"></span><style>.sn-drawn { position: relative } .sn-drawn::before { content: ""; position: absolute; width: 16px; height: 16px; border: 1px solid }</style>' +
		'<span id="sn-n">Diary</span> <div role="textbox" contenteditable="true" id="sn-t" aria-labelledby="sn-n sn-t">typed text</div>' +
		'<div role="combobox" id="sn-vs" aria-label="Search for option" aria-expanded="false"><span>Bern</span><input type="search" aria-labelledby="sn-vs"><div style="display: none">Loading...</div></div>' +
		'<span id="sn-h">Email <span style="display: none">(checking…)</span><span aria-hidden="true">*</span><span style="visibility: hidden">ghost</span><span class="sn-gone">kept</span></span><input aria-labelledby="sn-h"><style>.sn-gone { display: none }</style>' +
		'<span id="sn-x" hidden>Phone <b>number</b></span><input type="tel" aria-labelledby="sn-x">';
		document.getElementById("main").append(d); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, l string) bool {
		return (e.Role == "button" && (e.Name == "" || strings.HasPrefix(e.Name, "Size"))) || strings.Contains(l, "Floated") ||
			strings.Contains(l, "Drawn") || strings.HasPrefix(e.Name, "Diary") || e.Role == "searchbox" || strings.HasPrefix(e.Name, "Email") || strings.HasPrefix(e.Name, "Phone")
	}, `link "Floated link" href="/labels.html#floated"`, `button "Size Large"`, `checkbox "Drawn box" unchecked`, `textbox "Diary" value="typed text"`,
		`searchbox "Search for option"`, `textbox "Email kept"`, `textbox "Phone number"`)
}

// linesAre checks, in each realm, that the snapshot lines of the elements keep takes
// (given each element and its line) are want, in order.
func linesAre(t *testing.T, p *page, keep func(e pagejs.Element, line string) bool, want ...string) {
	t.Helper()
	for _, r := range realms {
		var got []string
		for _, e := range p.snapshot(r).Elements {
			if l := line(e); keep(e, l) {
				got = append(got, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", r, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestFirefoxPointerTargets: an element with a tabindex, an aria-label and the pointer
// cursor but no role or a presentational one (flatpickr's days) is listed, by its
// aria-label, also with an image inside (a card's logo: no control). Since targets
// without a role (lib.js targetOf) a scrollable region in the tab order (tabindex 0) is
// listed, and so is an element with a pointer cursor of its own and no aria-label ("11"),
// and the outermost element of a pointer region ("x", not the span inside it that
// inherits it); one without the pointer out of the tab order (a focus target), whose
// text is all a control's it holds (a card around its link), or with a role that is no
// control's (a dialog's box) is not.
func TestFirefoxPointerTargets(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); d.innerHTML = '<style>.pt { cursor: pointer }</style>' +
		'<span class="pt" tabindex="-1" aria-label="March 10, 2027">10</span>' +
		'<div tabindex="-1" aria-label="Search results">Results</div>' +
		'<div tabindex="0" aria-label="Code sample" style="overflow: auto; height: 20px">code</div>' +
		'<div class="pt" tabindex="-1" aria-label="Card"><a href="#job">Job</a></div>' +
		'<span class="pt" tabindex="-1">11</span>' +
		'<div class="pt" role="dialog" tabindex="-1" aria-label="Picker box">box</div>' +
		'<div class="pt" tabindex="-1" aria-label="Job card"><svg role="img" aria-label="logo"></svg>Card text</div>' +
		'<span class="pt" role="presentation" tabindex="-1" aria-label="March 11, 2027">11</span>' +
		'<div class="pt"><span tabindex="-1" aria-label="Inherits the pointer">x</span></div>';
		document.getElementById("main").append(d); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, l string) bool {
		return e.Role == "" && (e.Tag == "span" || e.Tag == "div") || e.Name == "Job"
	}, `span/ "March 10, 2027"`, `div/ "Code sample"`, `link "Job" href="/labels.html#job"`, `span/ "11"`, `div/ "Job card"`,
		`span/ "March 11, 2027"`, `div/ "x"`)
}

// TestFirefoxHiddenStandIns: a native form control that carries the hidden attribute
// while a style sheet keeps it rendered, out of the tab order (the <select> Choices.js
// lays under its widget), is a stand-in and not listed; one so in the tab order is, and
// so is a hidden file input (upload_files's target, whatever opens it).
func TestFirefoxHiddenStandIns(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); d.innerHTML = '<style>.shown[hidden] { display: block; opacity: 0; pointer-events: none }</style>' +
		'<label for="hs1">Contract</label><select id="hs1" class="shown" hidden tabindex="-1"><option>Permanent</option></select>' +
		'<label for="hs2">Team</label><select id="hs2" class="shown" hidden><option>Core</option></select>' +
		'<label for="hs3">Résumé</label><input id="hs3" type="file" hidden tabindex="-1">';
		document.getElementById("main").append(d); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, l string) bool {
		return e.Name == "Contract" || e.Name == "Team" || e.Name == "Résumé"
	}, `combobox "Team" value="Core"`, `input/file "Résumé"`)
}

// TestFirefoxPointerItems: a link without href and a list item with text, no role and
// a pointer cursor of their own, and no control inside (Chosen's select and results),
// are listed by their text, and an icon link without href by its aria-label; a list
// item holding a link, one whose pointer is its list's, one without the pointer, a
// link without href or pointer, and an item clipped away with its container (a closed
// Chosen drop-down) are not.
func TestFirefoxPointerItems(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => { const d = document.createElement("div"); d.innerHTML = '<style>.pi { cursor: pointer }</style>' +
		'<a class="pi"><span>Choose an office</span></a><a>Plain anchor</a>' +
		'<ul><li class="pi">Paris</li><li class="pi"><a href="#lisbon">Lisbon</a></li><li>Rome</li></ul>' +
		'<ul class="pi"><li>Oslo</li></ul>' +
		'<a class="pi" tabindex="0" aria-label="Close"><svg width="10" height="10"></svg></a>' +
		'<div style="position: absolute; clip: rect(0, 0, 0, 0); clip-path: inset(100% 100%)"><ul><li class="pi">Madrid</li><li class="pi" role="presentation">Porto</li></ul></div>';
		document.getElementById("main").append(d); return 1; })()`)
	linesAre(t, p, func(e pagejs.Element, l string) bool {
		return e.Role == "" && (e.Tag == "a" || e.Tag == "li") || e.Name == "Lisbon"
	}, `a/ "Choose an office"`, `li/ "Paris"`, `link "Lisbon" href="/labels.html#lisbon"`, `a/ "Close"`)
}
