package pagejs_test

import (
	"reflect"
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
