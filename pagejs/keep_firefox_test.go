package pagejs_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// keepSteps change /mutate.html in the ways a kept snapshot must notice. Each changes
// what a full walk returns (the test checks that too, so a step that changes nothing
// cannot pass for a detected change).
var keepSteps = []struct{ name, js string }{
	{"attribute", `document.getElementById("b1").setAttribute("aria-label", "Renamed")`},
	{"text", `document.getElementById("l1").firstChild.data = "Link renamed"`},
	{"insertion", `document.getElementById("box").append(Object.assign(document.createElement("button"), {textContent: "Inserted"}))`},
	{"removal", `document.getElementById("inbox").remove()`},
	{"shadow root attached", `document.getElementById("host-empty").attachShadow({mode: "open"}).append(Object.assign(document.createElement("button"), {textContent: "Shadow late"}))`},
	{"inside a shadow root", `document.getElementById("host").shadowRoot.append(Object.assign(document.createElement("a"), {href: "/x", textContent: "Shadow link"}))`},
	{"shadow text", `document.getElementById("host").shadowRoot.querySelector("button").firstChild.data = "Shadow renamed"`},
	{"class shows", `document.getElementById("panel").classList.remove("hidden")`},
	{"class hides", `document.getElementById("panel").classList.add("hidden")`},
	{"inline style hides", `document.getElementById("box").style.display = "none"`},
	{"inline style shows", `document.getElementById("box").style.display = ""`},
	{"rule inserted", `document.getElementById("main-style").sheet.insertRule("#styled { display: none }", 0)`},
	{"rule deleted", `document.getElementById("main-style").sheet.deleteRule(0)`},
	{"sheet disabled", `document.getElementById("main-style").sheet.disabled = true`},
	{"sheet enabled", `document.getElementById("main-style").sheet.disabled = false`},
	{"value property", `document.getElementById("name").value = "Ada"`},
	{"checked property", `document.getElementById("agree").checked = true`},
	{"checked reveals", `document.getElementById("reveal").checked = true`},
	{"selectedIndex", `document.getElementById("size").selectedIndex = 2`},
	{"label text", `document.querySelector("label[for=name]").firstChild.data = "Your name"`},
	{"labelledby target", `document.getElementById("lab-target").firstChild.data = "Relabelled"`},
	{"labelledby target's aria-label", `document.getElementById("lab-target").setAttribute("aria-label", "Named by its label")`},
	{"labelledby target's aria-label gone", `document.getElementById("lab-target").removeAttribute("aria-label")`},
	{"labelledby target's hint", `(() => { const h = document.createElement("span"); h.id = "lab-hint"; h.textContent = " (optional)"; document.getElementById("lab-target").append(h); return 1; })()`},
	{"labelledby target's hint hidden", `document.getElementById("lab-hint").style.display = "none"`},
	{"setup: a combobox whose closed popup keeps its options", `(() => { document.querySelector("header").insertAdjacentHTML("beforeend", '<input id="city" role="combobox" aria-label="City" aria-expanded="false" aria-controls="city-pop"><ul id="city-pop" role="listbox" hidden><li role="option" id="opt-ber" aria-selected="false">Berlin</li><li role="option" id="opt-par" aria-selected="false">Paris</li></ul><ul id="city-pop2" role="listbox" hidden><li role="option" aria-selected="true">Madrid</li></ul>'); return 1; })()`},
	{"popup option chosen", `document.getElementById("opt-par").setAttribute("aria-selected", "true")`},
	{"popup option chosen anew", `(document.getElementById("opt-par").setAttribute("aria-selected", "false"), document.getElementById("opt-ber").setAttribute("aria-selected", "true"), 1)`},
	{"combobox controls another popup", `document.getElementById("city").setAttribute("aria-controls", "city-pop2")`},
	{"the other popup's choice renamed", `document.querySelector("#city-pop2 li").firstChild.data = "Lisbon"`},
	{"setup: a field described by where its error goes", `(() => { document.querySelector("header").insertAdjacentHTML("beforeend", '<input id="mail" aria-label="Mail" aria-describedby="mail-err"><span id="mail-err">x</span>'); return 1; })()`},
	{"field marked invalid", `document.getElementById("mail").setAttribute("aria-invalid", "true")`},
	{"its error written in place", `document.getElementById("mail-err").firstChild.data = "Required"`},
	{"its error rewritten in place", `document.getElementById("mail-err").firstChild.data = "Not an e-mail address"`},
	{"field described by another error", `(document.getElementById("mail-err").insertAdjacentHTML("afterend", '<span id="mail-err2">Too long</span>'), document.getElementById("mail").setAttribute("aria-describedby", "mail-err2"), 1)`},
	{"the other error rewritten in place", `document.getElementById("mail-err2").firstChild.data = "Far too long"`},
	{"setup: a field described by an alert", `(() => { document.querySelector("header").insertAdjacentHTML("beforeend", '<div id="st-wrap" class="field"><input aria-label="Street" aria-describedby="street-msg"><div id="st-alert" role="alert"><span id="street-msg">No such street</span></div></div>'); return 1; })()`},
	{"its box classed as in error", `document.getElementById("st-wrap").classList.add("field--error")`},
	{"the alert's role taken away", `document.getElementById("st-alert").removeAttribute("role")`},
	{"details open", `document.getElementById("det").open = true`},
	{"popover shown", `document.getElementById("pop").showPopover()`},
	{"fieldset disabled", `document.getElementById("fs").disabled = true`},
	{"contenteditable text", `document.getElementById("editor").firstChild.data = "Draft two"`},
	{"hidden attribute", `document.getElementById("b1").hidden = true`},
	{"shadow host removed", `document.getElementById("host").remove()`},
	{"url", `history.pushState(null, "", "/mutate.html?step=2")`},
	{"title", `document.title = "Mutations two"`},
	{"id changes a selector", `document.getElementById("box").id = "box-two"`},
	{"sibling shifts nth-of-type", `document.querySelector("header").prepend(Object.assign(document.createElement("a"), {href: "/first", textContent: "New first"}))`},
	{"element moved", `document.getElementById("fs").after(document.getElementById("det"))`},
	{"option text", `document.querySelector("#size option:nth-child(3)").textContent = "Huge"`},
	{"input type", `document.getElementById("inset").type = "checkbox"`},
	{"setup: a span to make editable", `(() => { const d = document.createElement("div"); d.innerHTML = "<span>Edit me</span>"; document.getElementById("styled").append(d); return 1; })()`},
	{"becomes editable", `document.getElementById("styled").lastElementChild.setAttribute("contenteditable", "true")`},
	{"setup: a link without href", `document.querySelector("header").append(Object.assign(document.createElement("a"), {textContent: "Relative"}))`},
	{"relative href", `document.querySelector("header").lastElementChild.setAttribute("href", "rel")`},
	{"base href", `document.head.append(Object.assign(document.createElement("base"), {href: "/sub/"}))`},
	{"labelled control added", `document.querySelector("label[for=agree]").append(Object.assign(document.createElement("input"), {type: "text"}))`},
	{"adopted sheet", `(() => { const s = new CSSStyleSheet(); s.replaceSync("button { display: none }"); document.getElementById("host-empty").shadowRoot.adoptedStyleSheets = [s]; return 1; })()`},
	// What qualifies an element by itself (tag and attributes), which a walk takes from
	// the last one when no mutation could have changed it.
	// (aria-hidden on the element itself leaves it out when it is out of the tab order.)
	{"aria-hidden set", `(() => { const b = document.getElementById("b2"); b.tabIndex = -1; b.setAttribute("aria-hidden", "true"); return 1; })()`},
	{"aria-hidden, back in the tab order", `document.getElementById("b2").removeAttribute("tabindex")`},
	{"aria-hidden, out of the tab order", `document.getElementById("b2").setAttribute("tabindex", "-1")`},
	{"aria-hidden removed", `(() => { const b = document.getElementById("b2"); b.removeAttribute("aria-hidden"); b.removeAttribute("tabindex"); return 1; })()`},
	{"role added", `document.getElementById("lab-target").setAttribute("role", "button")`},
	{"role removed", `document.getElementById("lab-target").removeAttribute("role")`},
	{"input type hidden", `document.getElementById("name").type = "hidden"`},
	{"href removed", `document.getElementById("l1").removeAttribute("href")`},
	// What a scan takes from the last one while no element was added or removed: the
	// elements that may host a shadow root, the form controls whose state it reads.
	{"host inserted", `(() => { const d = document.createElement("div"); d.attachShadow({mode: "open"}).append(Object.assign(document.createElement("button"), {textContent: "In an inserted host"})); document.getElementById("main").append(d); return 1; })()`},
	{"input inserted", `document.getElementById("main").append(Object.assign(document.createElement("input"), {type: "text", placeholder: "Late"}))`},
	{"inserted input's value", `document.querySelector("input[placeholder=Late]").value = "typed"`},
	{"setup: an empty custom element", `document.getElementById("main").append(document.createElement("x-late"))`},
	{"custom element gets a shadow root", `document.querySelector("x-late").attachShadow({mode: "open"}).append(Object.assign(document.createElement("button"), {textContent: "In a custom element"}))`},
	// A custom select shows its value as its content (Radix's button).
	{"setup: a custom select", `(() => { const d = document.createElement("div"); d.innerHTML = '<label id="cs-l">Country</label><button type="button" role="combobox" aria-labelledby="cs-l" id="cs"><span>Pick one</span><span aria-hidden="true">▾</span></button>'; document.getElementById("main").append(d); return 1; })()`},
	{"custom select's shown text", `document.querySelector("#cs span").firstChild.data = "France"`},
	{"custom select's icon shown", `document.querySelector("#cs [aria-hidden]").removeAttribute("aria-hidden")`},
	// An editable combobox left empty shows its choice beside it (react-select): the
	// text in the box that holds it.
	{"setup: a combobox showing its choice beside it", `(() => { const d = document.createElement("div"); d.innerHTML = '<label for="rs">City</label><div class="rs-box" style="display: grid; width: 300px"><div id="rs-ph" style="grid-area: 1 / 1">Choose a city</div><div style="grid-area: 1 / 1"><input id="rs" role="combobox" aria-describedby="rs-ph"></div></div>'; document.getElementById("main").append(d); return 1; })()`},
	{"the combobox's choice shown", `(() => { const b = document.querySelector(".rs-box"); b.firstChild.remove(); b.prepend(Object.assign(document.createElement("div"), {textContent: "Paris", style: "grid-area: 1 / 1"})); document.getElementById("rs").removeAttribute("aria-describedby"); return 1; })()`},
	{"the combobox's choice's text", `document.querySelector(".rs-box").firstChild.firstChild.data = "London"`},
	{"the combobox's choice hidden by a new style sheet", `(() => { const st = document.createElement("style"); st.textContent = ".rs-box > div:first-child { visibility: hidden }"; document.head.append(st); return 1; })()`},
	// A clickable element with a tabindex and an aria-label but no role (a date picker's
	// day) qualifies by its cursor, which a class sets.
	{"setup: days of a date picker", `(() => { const d = document.createElement("div"); d.innerHTML = '<span class="day" tabindex="-1" aria-label="May 1">1</span><span tabindex="-1" aria-label="May 2" id="day2">2</span><style>.day { cursor: pointer }</style>'; document.getElementById("main").append(d); return 1; })()`},
	{"a day gets the pointer by its class", `document.getElementById("day2").classList.add("day")`},
	{"a day's aria-label changed", `document.getElementById("day2").setAttribute("aria-label", "May 2, today")`},
	{"a day's aria-label removed", `document.getElementById("day2").removeAttribute("aria-label")`},
	{"a day's style drops the pointer", `document.querySelector(".day").style.cursor = "default"`},
	{"setup: a list of results", `(() => { const d = document.createElement("ul"); d.innerHTML = '<li class="res">Paris</li><li id="res2">Rome</li><style>.res { cursor: pointer }</style>'; document.getElementById("main").append(d); return 1; })()`},
	{"a result gets the pointer by its class", `document.getElementById("res2").className = "res"`},
	{"a result's text emptied", `document.getElementById("res2").firstChild.data = " "`},
	{"a result's text back", `document.getElementById("res2").firstChild.data = "Rome"`},
	{"setup: results clipped away", `(() => { const d = document.createElement("div"); d.className = "drop"; d.innerHTML = '<ul><li class="res">Oslo</li></ul><style>.drop { position: absolute; clip: rect(0, 0, 0, 0); clip-path: inset(100% 100%) } .drop.open { clip: auto; clip-path: none }</style>'; document.getElementById("main").append(d); return 1; })()`},
	{"the clipped results shown by a class", `document.querySelector(".drop").classList.add("open")`},
	{"the clipped results hidden again", `document.querySelector(".drop").classList.remove("open")`},
	// A rendered control with the hidden attribute, out of the tab order, is a stand-in.
	{"setup: a select kept rendered under a widget", `(() => { const d = document.createElement("div"); d.innerHTML = '<select id="hs" tabindex="-1" style="display: block"><option>Permanent</option></select>'; document.getElementById("main").append(d); return 1; })()`},
	{"the select gets the hidden attribute", `document.getElementById("hs").hidden = true`},
	{"design mode on", `document.designMode = "on"`},
	{"design mode off", `document.designMode = "off"`},
	// Visibility, which a walk takes from the last one after attribute changes that no
	// style sheet names (aria-*, data-*), and the rows such a walk leaves in place.
	{"setup: elements styled by attributes", `(() => { const d = document.createElement("div"); d.id = "quiet"; d.innerHTML = '<button type="button" id="q1">Quiet one</button><button type="button" id="q2">Quiet two</button><span id="q3" class="lbl" role="button"></span><button type="button" id="q4">Sibling of two</button><button type="button" id="q5">Hidden by has</button><style>#q2[data-gone] ~ #q4 { display: none } body:has(#q1[aria-pressed="true"]) #q5 { display: none } .lbl { display: inline-block } .lbl::before { content: attr(data-label) }</style>'; document.getElementById("main").append(d); return 1; })()`},
	{"quiet attribute", `document.getElementById("q1").setAttribute("aria-expanded", "true")`},
	{"quiet attribute again", `document.getElementById("q1").setAttribute("aria-expanded", "false")`},
	{"two quiet attributes", `(() => { document.getElementById("q2").setAttribute("aria-expanded", "true"); document.getElementById("q5").setAttribute("aria-label", "Five"); return 1; })()`},
	{"sibling rule on a data attribute", `document.getElementById("q2").setAttribute("data-gone", "")`},
	{":has() rule on an aria attribute", `document.getElementById("q1").setAttribute("aria-pressed", "true")`},
	{"attr() in a rule", `document.getElementById("q3").setAttribute("data-label", "Go")`},
	{"setup: a rule inserted that names a data attribute", `document.getElementById("main-style").sheet.insertRule("#quiet[data-k] #q2 { display: none }", 0)`},
	{"the data attribute the inserted rule names", `document.getElementById("quiet").setAttribute("data-k", "1")`},
	{"checked property and a quiet attribute", `(() => { document.getElementById("reveal").checked = false; document.getElementById("q1").setAttribute("aria-expanded", "true"); return 1; })()`},
	{"setup: an adopted sheet", `(() => { const s = new CSSStyleSheet(); s.replaceSync("#q1 { color: red }"); document.adoptedStyleSheets = [s]; return 1; })()`},
	{"adopted sheet swapped for one as long", `(() => { const s = new CSSStyleSheet(); s.replaceSync("#q1 { display: none }"); document.adoptedStyleSheets = [s]; return 1; })()`},
	// Form control state as the scan reads it (by kind: checkedness, value, selection).
	{"indeterminate property", `document.getElementById("agree").indeterminate = true`},
	{"setup: a multiple select", `document.getElementById("quiet").append(Object.assign(document.createElement("select"), {multiple: true, ariaLabel: "Many", innerHTML: "<option>A</option><option>B</option><option>C</option>"}))`},
	{"option selected in a multiple select", `document.querySelector("select[multiple]").options[1].selected = true`},
	{"another option selected in it", `document.querySelector("select[multiple]").options[2].selected = true`},
	{"setup: a text input", `document.getElementById("quiet").append(Object.assign(document.createElement("input"), {type: "text", ariaLabel: "Turns"}))`},
	{"input becomes a checkbox and is checked", `(() => { const e = document.querySelector("input[aria-label=Turns]"); e.type = "checkbox"; e.checked = true; return 1; })()`},
	{"checkbox unchecked", `document.querySelector("input[aria-label=Turns]").checked = false`},
	{"setup: a label for a hidden input", `(() => { document.getElementById("quiet").insertAdjacentHTML("beforeend", '<label for="hid">Hidden one</label><input id="hid" type="hidden">'); return 1; })()`},
	{"the labelled hidden input shown", `document.getElementById("hid").type = "text"`},
	// Class names, which count as quiet while no sheet names them.
	{"setup: rules on class names", `(() => { document.getElementById("quiet").insertAdjacentHTML("beforeend", '<style>#main:has(.closer) #q6 { display: none } .a\\:b + #q7 { display: none }</style><button type="button" id="q6">Six</button><span id="q8"></span><button type="button" id="q7">Seven</button>'); return 1; })()`},
	{"class no sheet names, with an aria change", `(() => { document.getElementById("q3").classList.add("unstyled"); document.getElementById("q3").setAttribute("aria-expanded", "true"); return 1; })()`},
	{"class removed, with an aria change", `(() => { document.getElementById("q3").className = ""; document.getElementById("q3").setAttribute("aria-expanded", "false"); return 1; })()`},
	{"class a :has() rule names", `document.getElementById("q1").classList.add("closer")`},
	{"class a rule names escaped", `document.getElementById("q8").classList.add("a:b")`},
	// Inert elements are counted (users cannot reach them).
	{"inert region", `document.getElementById("region").inert = true`},
	{"inert region again", `document.getElementById("region").inert = false`},
	{"inert shadow host", `document.querySelector("x-late").inert = true`},
	{"shadow host reachable again", `document.querySelector("x-late").removeAttribute("inert")`},
	{"dialog shown, not modal", `document.getElementById("dlg").show()`},
	// (A dialog closed with the focus in it: the focus is taken out at once, as Firefox
	// itself does on a later refresh tick, which would fall between two walks of the
	// unchanged page, one in five runs or so.)
	{"dialog closed", `(() => { const d = document.getElementById("dlg"); d.close(); if (d.contains(document.activeElement)) document.activeElement.blur(); return 1; })()`},
	{"modal dialog", `document.getElementById("dlg").showModal()`},
	{"popover above the modal dialog", `document.getElementById("pop").showPopover()`},
	{"popover hidden", `document.getElementById("pop").hidePopover()`},
	{"modal dialog closed", `(() => { const d = document.getElementById("dlg"); d.close(); if (d.contains(document.activeElement)) document.activeElement.blur(); return 1; })()`},
	{"closed shadow host inserted", `(() => { const h = document.createElement("x-shut"); h.innerHTML = '<button type="button">In a closed host</button>'; h.attachShadow({mode: "closed"}).innerHTML = '<style>:host([data-shut]) { display: none }</style><slot></slot>'; document.getElementById("main").append(h); return 1; })()`},
	{"closed shadow root's :host() rule on a data attribute", `document.querySelector("x-shut").setAttribute("data-shut", "")`},
	// Look-alikes' near texts (nearRows): found afresh by every walk.
	{"look-alikes inserted", `(() => { document.getElementById("main").insertAdjacentHTML("beforeend", '<div id="chips"><div>Rust<button type="button" aria-label="Drop">x</button></div><div><span id="chip-go">Go</span><button type="button" aria-label="Drop">x</button></div></div>'); return 1; })()`},
	{"the text beside a look-alike", `document.getElementById("chip-go").firstChild.data = "Golang"`},
	{"the text beside a look-alike hidden", `document.getElementById("chip-go").style.display = "none"`},
	{"a third look-alike", `(() => { document.getElementById("chips").insertAdjacentHTML("beforeend", '<div>Zig<button type="button" aria-label="Drop">x</button></div>'); return 1; })()`},
	{"a look-alike renamed away", `document.querySelector("#chips button").setAttribute("aria-label", "Keep")`},
}

// keeper calls a resident snapshot, naming the result it returned last (held) and
// applying the patches it answers with (counted); same reports a {same} answer.
type keeper struct {
	p       *page
	actor   string
	held    pagejs.SnapshotResult
	patches int
}

func (k *keeper) walk(t testing.TB, args pagejs.SnapshotArgs) (r pagejs.SnapshotResult, same bool) {
	t.Helper()
	a := args
	a.Have = k.held.Seq
	var got pagejs.SnapshotResult
	if err := k.p.call(k.actor, pagejs.Snapshot, a, &got); err != nil {
		t.Fatal(err)
	}
	if got.Same != 0 {
		if got.Same != k.held.Seq || got.Elements != nil {
			t.Fatalf("same %d with %d elements, holding %d", got.Same, len(got.Elements), k.held.Seq)
		}
		return k.held, true
	}
	if got.Seq <= k.held.Seq {
		t.Fatalf("seq %d after %d", got.Seq, k.held.Seq)
	}
	if got.Base != 0 {
		k.patches++
		if err := got.ApplyPatch(&k.held); err != nil {
			t.Fatalf("patch of %d (holding %d): %v", got.Base, k.held.Seq, err)
		}
	}
	k.held = got
	return got, false
}

// TestFirefoxSnapshotKeepDifferential: after every kind of change, the resident that
// keeps its last result returns exactly what a full walk by the plain script returns;
// with no change in between it answers {same} (and what it names is that walk).
func TestFirefoxSnapshotKeepDifferential(t *testing.T) {
	p := open(t, "/mutate.html")
	args := pagejs.SnapshotArgs{MaxElements: 5000}
	actor := p.resident(pagejs.Snapshot)
	k := &keeper{p: p, actor: actor}
	kept := func() (pagejs.SnapshotResult, bool) { t.Helper(); return k.walk(t, args) }
	full := func() pagejs.SnapshotResult {
		var r pagejs.SnapshotResult
		p.must(pageRealm, pagejs.Snapshot, args, &r)
		return r
	}
	equal := func(a, b pagejs.SnapshotResult) bool {
		a.Seq, b.Seq = 0, 0
		return reflect.DeepEqual(a, b)
	}
	kept()
	if _, same := kept(); !same {
		t.Fatal("an unchanged page was walked again")
	}
	for _, st := range keepSteps {
		before := full()
		p.js(st.js)
		want := full()
		if equal(before, want) && !strings.HasPrefix(st.name, "setup:") {
			t.Errorf("%s: the step changes nothing a walk returns; it tests nothing", st.name)
			continue
		}
		got, same := kept()
		if same || !equal(got, want) {
			t.Errorf("%s: kept snapshot (same=%v, %d elements) differs from a full walk (%d elements)", st.name, same, len(got.Elements), len(want.Elements))
			continue
		}
		if again, same := kept(); !same || !equal(again, want) {
			t.Errorf("%s: the unchanged page after it was walked again (same=%v)", st.name, same)
		}
	}
	if k.patches < len(keepSteps)/2 {
		t.Errorf("only %d of %d walks were patches of the result held", k.patches, len(keepSteps))
	}
	// Arguments are part of what is kept: other arguments, another walk.
	args.MaxElements = 3
	if got, same := kept(); same || len(got.Elements) != 3 {
		t.Errorf("other arguments: same=%v, %d elements", same, len(got.Elements))
	}
	// Page text is never kept.
	args = pagejs.SnapshotArgs{MaxElements: 5000, MaxTextChars: 100, IncludeAllText: true}
	kept()
	if _, same := kept(); same {
		t.Error("a result with page text was kept")
	}
}

// TestFirefoxSnapshotKeepLarge: on the 3,000-element page, a walk after one
// button changed (most entries reused) equals a full walk.
func TestFirefoxSnapshotKeepLarge(t *testing.T) {
	p := open(t, "/large.html")
	args := pagejs.SnapshotArgs{MaxElements: 5000}
	actor := p.resident(pagejs.Snapshot)
	var first pagejs.SnapshotResult
	if err := p.call(actor, pagejs.Snapshot, args, &first); err != nil {
		t.Fatal(err)
	}
	for i, js := range []string{
		`document.querySelector("button").click()`,
		`document.querySelector("input").value = "changed"`,
		`document.querySelector("section").remove()`,
	} {
		p.js(js)
		a := args
		a.Have = first.Seq
		var got, want pagejs.SnapshotResult
		if err := p.call(actor, pagejs.Snapshot, a, &got); err != nil {
			t.Fatal(err)
		}
		p.must(pageRealm, pagejs.Snapshot, args, &want)
		if got.Base == 0 || (i < 2 && len(got.Elements) > 10) { // (a removed section renumbers the rest)
			t.Errorf("change %d: %d rows sent for one change (base %d)", i, len(got.Elements), got.Base)
		}
		if err := got.ApplyPatch(&first); err != nil {
			t.Fatal(err)
		}
		first = got
		got.Seq = 0
		if got.Same != 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("change %d: the walk that reused entries differs from a full walk", i)
		}
	}
}

// TestFirefoxSnapshotInert: the elements users cannot reach are named by their row
// (and still listed), in either realm: a region with the inert attribute (a shadow
// host's tree with it), and everything outside a modal dialog, a popover shown
// above it included unless it is in the dialog.
func TestFirefoxSnapshotInert(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/mutate.html")
			snap := func(max int) (pagejs.SnapshotResult, map[string]bool) {
				var s pagejs.SnapshotResult
				p.must(r, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: max}, &s)
				inert := map[string]bool{}
				for i, in := range s.InertRows() {
					if in {
						inert[s.Elements[i].Name] = true
					}
				}
				return s, inert
			}
			s, inert := snap(5000)
			n := len(s.Elements)
			if len(inert) != 0 {
				t.Fatalf("before: inert %v", inert)
			}
			p.js(`(() => { document.getElementById("region").inert = true; document.getElementById("host").inert = true; return 1; })()`)
			if s, inert := snap(5000); len(s.Inert) != 2 || !inert["In a region made inert"] || !inert["Shadow one"] || len(s.Elements) != n {
				t.Errorf("inert region and host: inert %v, %d of %d elements", inert, len(s.Elements), n)
			}
			p.js(`(() => { document.getElementById("region").inert = false; document.getElementById("host").inert = false; document.getElementById("dlg").showModal(); return 1; })()`)
			if s, inert := snap(5000); len(s.Inert) != n || len(s.Elements) != n+1 || inert["In the dialog"] {
				t.Errorf("modal dialog: %d inert of %d elements, want %d of %d (%v)", len(s.Inert), len(s.Elements), n, n+1, inert)
			}
			// A popover outside the dialog, shown after it, is inert too (Firefox's
			// hit-testing passes through it); one opened in the dialog is not.
			p.js(`document.getElementById("pop").showPopover()`)
			if s, inert := snap(5000); len(s.Inert) != n+1 || len(s.Elements) != n+2 || !inert["In the popover"] {
				t.Errorf("popover outside the dialog: %d inert of %d elements, want %d of %d (%v)", len(s.Inert), len(s.Elements), n+1, n+2, inert)
			}
			p.js(`(() => { const q = document.createElement("div"); q.popover = "auto"; q.innerHTML = "<button>In the dialog's popover</button>"; document.getElementById("dlg").append(q); q.showPopover(); return 1; })()`)
			if s, inert := snap(5000); len(s.Inert) != n || len(s.Elements) != n+2 || inert["In the dialog's popover"] {
				t.Errorf("popover in the dialog: %d inert of %d elements, want %d of %d (%v)", len(s.Inert), len(s.Elements), n, n+2, inert)
			}
			// Only the rows asked for are named.
			if s, _ := snap(3); len(s.Inert) != 3 {
				t.Errorf("the first 3 rows, all outside the dialog: inert %v", s.Inert)
			}
		})
	}
}

// warmUntil asks a resident for its warm walk (Warm) until it is in a state other
// than waiting or running, and returns that answer.
func (k *keeper) warmUntil(t testing.TB, args pagejs.SnapshotArgs) pagejs.SnapshotWarmResult {
	t.Helper()
	args.Warm = true
	var w pagejs.SnapshotWarmResult
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := k.p.call(k.actor, pagejs.Snapshot, args, &w); err != nil {
			t.Fatal(err)
		}
		if w.Warm != "waiting" && w.Warm != "running" && w.Warm != "walking" {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("the warm walk is still %s after 10 s (%d entries)", w.Warm, w.Entries)
		}
		time.Sleep(150 * time.Millisecond) // (calls close together leave the page no idle period)
	}
}

// TestFirefoxSnapshotWarm: a resident's warm walk, made in the document's idle
// periods before any call walked it, describes the elements the first walk lists, and
// that walk (which reuses those entries) returns exactly what a full walk returns: on
// the unchanged page, and after changes made while the warm walk was under way, a few
// entries in each idle period. A document already walked is not walked warm.
func TestFirefoxSnapshotWarm(t *testing.T) {
	args := pagejs.SnapshotArgs{MaxElements: 5000}
	full := func(p *page) pagejs.SnapshotResult {
		var r pagejs.SnapshotResult
		p.must(pageRealm, pagejs.Snapshot, args, &r)
		r.Seq = 0
		return r
	}
	first := func(k *keeper) pagejs.SnapshotResult {
		t.Helper()
		r, same := k.walk(t, args)
		if same {
			t.Fatal("the first walk answered same")
		}
		r.Seq = 0
		return r
	}
	t.Run("unchanged", func(t *testing.T) {
		for _, path := range []string{"/large.html", "/mutate.html", "/labels.html", "/forms.html"} {
			p := open(t, path)
			k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
			w := k.warmUntil(t, args)
			want := full(p)
			if w.Warm != "done" || w.Entries != len(want.Elements) || !w.Ready {
				t.Errorf("%s: warm walk %+v; the page lists %d elements", path, w, len(want.Elements))
			}
			// The result readied is given (numbered 1: the warm walk's), and it is a walk's.
			got := first(k)
			if k.held.Seq != 1 {
				t.Errorf("%s: the first call got result %d, not the one readied", path, k.held.Seq)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the result readied differs from a full walk (%d elements, want %d)", path, len(got.Elements), len(want.Elements))
			}
			if _, same := k.walk(t, args); !same {
				t.Errorf("%s: the unchanged page was walked again after the result readied", path)
			}
			if w := k.warmUntil(t, args); w.Warm != "done" || w.Ready {
				t.Errorf("%s: asked again after a walk, the warm walk is %+v", path, w)
			}
		}
	})
	// A change after the result was readied: the first call walks (reusing the entries
	// made) and gets what a full walk gets; so does a call with other arguments.
	for _, st := range keepSteps[:20] {
		t.Run("changed after: "+st.name, func(t *testing.T) {
			p := open(t, "/mutate.html")
			k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
			if w := k.warmUntil(t, args); w.Warm != "done" || !w.Ready {
				t.Fatalf("warm walk %+v", w)
			}
			before := full(p)
			p.js(st.js)
			want := full(p)
			if reflect.DeepEqual(before, want) {
				t.Skip("the step changes nothing on the page as loaded")
			}
			got := first(k)
			if k.held.Seq == 1 || !reflect.DeepEqual(got, want) {
				t.Errorf("result %d (%d elements) after the change; a full walk lists %d elements", k.held.Seq, len(got.Elements), len(want.Elements))
			}
		})
	}
	// Waited for (Wait), the warm walk answers with the result it readied: a walk's, held
	// by the resident as the one it issued (a call naming it is answered same).
	t.Run("waited", func(t *testing.T) {
		for _, path := range []string{"/large.html", "/labels.html"} {
			p := open(t, path)
			k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
			a := args
			a.Warm, a.Wait = true, true
			var w pagejs.SnapshotWarmResult
			if err := p.call(k.actor, pagejs.Snapshot, a, &w); err != nil {
				t.Fatal(err)
			}
			want := full(p)
			if w.Warm != "done" || !w.Ready || w.Result == nil || w.Result.Seq != 1 {
				t.Fatalf("%s: waited warm walk %+v, result %v", path, w, w.Result != nil)
			}
			got := *w.Result
			got.Seq = 0
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the result readied differs from a full walk (%d elements, want %d)", path, len(got.Elements), len(want.Elements))
			}
			k.held = *w.Result
			if _, same := k.walk(t, args); !same {
				t.Errorf("%s: a call naming the result readied, the page unchanged, was walked", path)
			}
		}
	})
	// Started by the installation (PageResidentStarting), with its own arguments (three
	// elements): a later warm call joins that warm walk, whatever its arguments, and a
	// first call with the installation's gets its result.
	t.Run("started", func(t *testing.T) {
		p := open(t, "/large.html")
		three := pagejs.SnapshotArgs{MaxElements: 3}
		wa := three
		wa.Warm = true
		src, err := pagejs.Snapshot.PageResidentStarting(wa)
		if err != nil {
			t.Fatal(err)
		}
		actor, err := p.c.EvaluateObject(p.ctx, p.target().ConsoleActor, src, rdp.EvalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k := &keeper{p: p, actor: actor}
		if w := k.warmUntil(t, args); w.Warm != "done" || w.Entries != 3 || !w.Ready {
			t.Fatalf("the warm walk the installation started, for 3 elements: %+v", w)
		}
		var want pagejs.SnapshotResult
		p.must(pageRealm, pagejs.Snapshot, three, &want)
		var got pagejs.SnapshotResult
		if err := p.call(actor, pagejs.Snapshot, three, &got); err != nil || got.Seq != 1 || len(got.Elements) != 3 {
			t.Fatalf("the first call got result %d with %d elements (%v), not the one readied", got.Seq, len(got.Elements), err)
		}
		got.Seq, want.Seq = 0, 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the result readied differs from a full walk:\n%+v\nwant\n%+v", got, want)
		}
	})
	// A document whose load waits for an image (as a real site's waits for its images,
	// scripts and data): the warm walk makes its entries while the document is
	// interactive, in its idle periods, before the load, and walks once it has loaded
	// (the load may change what a walk sees); the first call gets that walk's result,
	// which is a full walk's.
	t.Run("before the load", func(t *testing.T) {
		release := make(chan struct{})
		asked := make(chan struct{}, 1)
		mux := http.NewServeMux()
		mux.HandleFunc("/start.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, "<!doctype html><title>start</title><p>start")
		})
		mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, strings.Replace(fixtures.LargeHTML(), "<main", `<img src="/held.gif" alt="logo"><main`, 1))
		})
		mux.HandleFunc("/held.gif", func(w http.ResponseWriter, r *http.Request) {
			asked <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-release:
			}
			w.Header().Set("Content-Type", "image/gif")
			_, _ = w.Write(gif1x1)
		})
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		t.Cleanup(free)
		p := openOn(t, srv.URL, "/start.html") // (opening waits for the load)
		from := p.target().InnerWindowID
		p.js(`location.assign("/page.html")`)
		select {
		case <-asked:
		case <-time.After(10 * time.Second):
			t.Fatal("Firefox never asked for the page's image")
		}
		p.held = true
		if tg := p.waitJS(`location.pathname + " " + document.readyState`, "/page.html interactive"); tg != "/page.html interactive" {
			t.Fatalf("the page with its load held: %s (from window %d)", tg, from)
		}
		k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
		n := len(full(p).Elements)
		a := args
		a.Warm = true
		var w pagejs.SnapshotWarmResult
		for deadline := time.Now().Add(10 * time.Second); w.Warm != "walking" || w.Entries != n; time.Sleep(150 * time.Millisecond) {
			if err := p.call(k.actor, pagejs.Snapshot, a, &w); err != nil {
				t.Fatal(err)
			}
			if w.Warm == "done" || w.Warm == "skipped" || time.Now().After(deadline) {
				t.Fatalf("before the load: warm walk %+v; want its %d entries made and its walk waiting for the load", w, n)
			}
		}
		if state := p.js(`document.readyState`); state != "interactive" {
			t.Fatalf("the document is %s: want its load still held", state)
		}
		free()
		if st := p.waitJS(`document.readyState`, "complete"); st != "complete" {
			t.Fatalf("the page after its image was released: %s", st)
		}
		p.held = false
		if w := k.warmUntil(t, args); w.Warm != "done" || !w.Ready || w.Entries != n {
			t.Fatalf("after the load: warm walk %+v; want it done with its result ready", w)
		}
		want := full(p)
		got := first(k)
		if k.held.Seq != 1 || !reflect.DeepEqual(got, want) {
			t.Errorf("after the load: result %d (%d elements), want the one readied, as a full walk (%d elements)", k.held.Seq, len(got.Elements), len(want.Elements))
		}
	})
	t.Run("other arguments", func(t *testing.T) {
		p := open(t, "/forms.html")
		k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
		if w := k.warmUntil(t, args); !w.Ready {
			t.Fatalf("warm walk %+v", w)
		}
		a := args
		a.MaxElements = 3
		var got pagejs.SnapshotResult
		if err := p.call(k.actor, pagejs.Snapshot, a, &got); err != nil || got.Seq == 1 || len(got.Elements) != 3 {
			t.Errorf("other arguments: result %d with %d elements (%v)", got.Seq, len(got.Elements), err)
		}
	})
	t.Run("changes under way", func(t *testing.T) {
		p := open(t, "/mutate.html")
		k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
		a := args
		a.Warm, a.WarmChunk = true, 1
		// (more elements: more idle periods to make changes in)
		p.js(`(() => { const d = document.createElement("div"); for (let i = 0; i < 60; i++) d.append(Object.assign(document.createElement("button"), {type: "button", textContent: "Extra " + i})); document.body.append(d); return 1; })()`)
		var w pagejs.SnapshotWarmResult
		if err := p.call(k.actor, pagejs.Snapshot, a, &w); err != nil || w.Warm != "waiting" {
			t.Fatalf("warm walk asked: %+v, %v", w, err)
		}
		during := 0
		for _, st := range keepSteps {
			if err := p.call(k.actor, pagejs.Snapshot, a, &w); err != nil {
				t.Fatal(err)
			}
			if w.Warm == "done" {
				break
			}
			p.js(st.js)
			if w.Warm == "running" {
				during++
			}
			time.Sleep(150 * time.Millisecond) // (an idle period: Firefox gives one about every 100 ms while nothing else happens)
		}
		if w := k.warmUntil(t, args); w.Warm != "done" {
			t.Fatalf("warm walk %s", w.Warm)
		}
		if during < 3 {
			t.Fatalf("only %d changes were made while the warm walk ran", during)
		}
		// The changes noted while the entries were made stand after the walk that
		// readied a result: a call after one more change walks, reusing what stands.
		p.js(`document.getElementById("b1").setAttribute("aria-label", "Once more")`)
		if got, want := first(k), full(p); !reflect.DeepEqual(got, want) {
			t.Errorf("after %d changes under the warm walk, the first walk differs from a full walk (%d elements, want %d)", during, len(got.Elements), len(want.Elements))
		}
	})
	t.Run("walked first", func(t *testing.T) {
		p := open(t, "/forms.html")
		k := &keeper{p: p, actor: p.resident(pagejs.Snapshot)}
		first(k)
		if w := k.warmUntil(t, args); w.Warm != "skipped" || w.Entries != 0 {
			t.Errorf("a document walked first: warm walk %s with %d entries", w.Warm, w.Entries)
		}
	})
}
