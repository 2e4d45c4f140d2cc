package pagejs_test

import (
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// A trusted click on an element inside an open shadow root: the pres shell
// refuses such nodes, so the isolated realm dispatches the events itself,
// trusted all the same (the page's listener sees isTrusted true), with focus.
func TestShadowClickIsTrusted(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(window.seen = [], document.getElementById("host").shadowRoot.querySelector("button").addEventListener("click", (e) => seen.push(e.isTrusted + " " + (document.getElementById("host").shadowRoot.activeElement === e.target))), 1)`)
	s := p.snapshot(isolatedRealm)
	b := find(t, s, "button", "Shadow button")
	var r pagejs.ActionResult
	p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP}, &r)
	if !r.Trusted {
		t.Errorf("the click was not trusted: %+v", r)
	}
	if got := p.js(`seen.join(",")`); got != "true true" {
		t.Errorf("the page saw clicks %q, want one trusted click on the focused button", got)
	}
}

// An accessible name that comes from light-DOM text slotted into a shadow
// tree (as design-system components build them).
func TestSlottedNames(t *testing.T) {
	p := open(t, "/labels.html")
	p.js(`(() => {
		const box = document.createElement("x-check");
		box.textContent = "Accept the terms";
		document.body.append(box);
		box.attachShadow({mode: "open"}).innerHTML = '<label><input type="checkbox"><span><slot></slot></span></label>';
		const btn = document.createElement("x-button");
		btn.innerHTML = "<b>Send</b> now";
		document.body.append(btn);
		btn.attachShadow({mode: "open"}).innerHTML = '<button><slot name="icon">*</slot> <slot></slot></button>';
		return 1;
	})()`)
	for _, r := range realms {
		s := p.snapshot(r)
		find(t, s, "checkbox", "Accept the terms")
		find(t, s, "button", "* Send now")
	}
}
