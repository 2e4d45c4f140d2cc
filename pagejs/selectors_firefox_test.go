package pagejs_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestSelectorSteps pins the selector steps to exact strings: a tag alone when no
// sibling shares it, :nth-of-type(k) counted among the siblings of that tag only
// (other tags in between), the same at a shadow root's top level (:host>), and an
// ancestor path reused by its descendants. Each selector must also find its element.
func TestSelectorSteps(t *testing.T) {
	p := open(t, "/forms.html")
	p.js(`(() => {
		const d = document.createElement("div");
		d.id = "steps";
		d.innerHTML = '<button>S1</button><a href="/s">S2</a><span>x</span><button>S3</button>' +
			'<p><button>S4</button></p><div><a href="/t">S5</a><a href="/u">S6</a></div><div id="sh"></div>';
		document.body.append(d);
		const r = d.querySelector("#sh").attachShadow({mode: "open"});
		r.innerHTML = '<button>S7</button><i>y</i><button>S8</button><a href="/v">S9</a>';
		return "";
	})()`)
	want := map[string][]string{
		"S1": {"#steps>button:nth-of-type(1)"},
		"S2": {"#steps>a"},
		"S3": {"#steps>button:nth-of-type(2)"},
		"S4": {"#steps>p>button"},
		"S5": {"#steps>div:nth-of-type(1)>a:nth-of-type(1)"},
		"S6": {"#steps>div:nth-of-type(1)>a:nth-of-type(2)"},
		"S7": {"#sh", ":host>button:nth-of-type(1)"},
		"S8": {"#sh", ":host>button:nth-of-type(2)"},
		"S9": {"#sh", ":host>a"},
	}
	for _, r := range realms {
		s := p.snapshot(r)
		for name, sel := range want {
			e := find(t, s, "", name)
			if !reflect.DeepEqual([]string(e.Sel), sel) {
				t.Errorf("%s: %s selector %q, want %q", r, name, e.Sel, sel)
				continue
			}
			var got pagejs.Element
			if err := p.run(r, pagejs.Describe, pagejs.DescribeArgs{Sel: e.Sel}, &got); err != nil || got.Name != name {
				t.Errorf("%s: %s selector %q finds %q (%v)", r, name, e.Sel, got.Name, err)
			}
		}
	}
}

// TestSelectorStepsManyTags: steps among siblings of many distinct tags (more than a
// parent's small tag table holds: its map takes over), an only child (no count), and
// :nth-of-type counted past the fortieth distinct tag. Exact strings, in both realms.
func TestSelectorStepsManyTags(t *testing.T) {
	p := open(t, "/forms.html")
	p.js(`(() => {
		const d = document.createElement("div");
		d.id = "many";
		let h = "";
		for (let i = 0; i < 40; i++) h += '<x-t' + i + ' role="button">M' + i + '</x-t' + i + '>';
		h += '<x-t3 role="button">M40</x-t3><x-t39 role="button">M41</x-t39><x-t40 role="button">M42</x-t40>';
		d.innerHTML = h + '<p><button>Only</button></p>';
		document.body.append(d);
		return "";
	})()`)
	want := map[string]string{
		"M0":   "#many>x-t0",
		"M3":   "#many>x-t3:nth-of-type(1)",
		"M39":  "#many>x-t39:nth-of-type(1)",
		"M40":  "#many>x-t3:nth-of-type(2)",
		"M41":  "#many>x-t39:nth-of-type(2)",
		"M42":  "#many>x-t40",
		"Only": "#many>p>button",
	}
	for _, r := range realms {
		s := p.snapshot(r)
		for name, sel := range want {
			if e := find(t, s, "", name); len(e.Sel) != 1 || e.Sel[0] != sel {
				t.Errorf("%s: %s selector %q, want %q", r, name, e.Sel, sel)
			}
		}
	}
}

// TestLabelsWithoutIDs: an element without an id takes its name only from the labels
// it sits in whose control it is (a label's first labelable descendant, when the label
// has no "for"); one with an id from every label whose control it is. Exact names, in
// both realms, in tree order of the elements; the same in a shadow root, where the
// first of them is named before an element with an id has made the tree's label map
// (closest()), the others after (the map).
func TestLabelsWithoutIDs(t *testing.T) {
	p := open(t, "/forms.html")
	p.js(`(() => {
		const d = document.createElement("div");
		d.id = "lab2";
		d.innerHTML = '<label for="elsewhere">Outer <input placeholder="P1"></label><input id="elsewhere" placeholder="E">' +
			'<label>First <button>B1</button><input placeholder="P2"></label>' +
			'<label>Second <span><input type="checkbox"></span></label>' +
			'<label>Third <label>Inner <input type="checkbox"></label></label>' +
			'<label for="twice">One</label><label>Two <input id="twice" type="checkbox"></label>';
		document.body.append(d);
		const h = document.createElement("div");
		h.id = "lab2host";
		document.body.append(h);
		h.attachShadow({mode: "open"}).innerHTML = d.innerHTML;
		return "";
	})()`)
	want := []string{"textbox P1", "textbox Outer", "button First", "textbox P2", "checkbox Second",
		"checkbox Third Inner Inner", "checkbox One Two"}
	for _, r := range realms {
		s := p.snapshot(r)
		var got, shadow []string
		for _, e := range s.Elements {
			if strings.HasPrefix(e.Sel[0], "#lab2>") || e.Sel[0] == "#elsewhere" || e.Sel[0] == "#twice" {
				got = append(got, e.Role+" "+e.Name)
			}
			if e.Sel[0] == "#lab2host" {
				shadow = append(shadow, e.Role+" "+e.Name)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: names %q, want %q", r, got, want)
		}
		if !reflect.DeepEqual(shadow, want) {
			t.Errorf("%s: names in the shadow root %q, want %q", r, shadow, want)
		}
	}
}
