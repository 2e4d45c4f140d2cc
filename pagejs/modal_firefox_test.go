package pagejs_test

import (
	"slices"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxCoveredModals: an ARIA dialog that blocks the page around it
// without hiding it from assistive technology (lib.blocksPage) makes the rest of
// the page inert: one over a backdrop of its own (jQuery UI's overlay, Ant
// Design's mask), one filling the viewport (Bootstrap's .modal); a popup put on
// the page after it (a listbox in a portal of its own) is not inert. A dialog
// beside the page (a drawer, a chat box) leaves it usable.
func TestFirefoxCoveredModals(t *testing.T) {
	cases := []struct {
		name, html string
		inert      []string // the names of the inert elements, in page order
	}{
		{"backdrop", `<div style="position: fixed; inset: 0; background: rgba(0,0,0,.3)"></div>` +
			`<div role="dialog" style="position: fixed; left: 100px; top: 100px; width: 300px; height: 150px; background: #fff"><button>In the dialog</button></div>`,
			[]string{"Page button", "Page link"}},
		{"backdrop and a popup after it", `<div style="position: fixed; inset: 0"></div>` +
			`<div role="dialog" style="position: fixed; left: 100px; top: 100px; width: 300px; height: 150px; background: #fff"><button>In the dialog</button></div>` +
			`<div style="position: absolute; left: 120px; top: 200px; background: #fff"><div role="listbox"><div role="option" tabindex="-1">Bern</div></div></div>`,
			[]string{"Page button", "Page link"}},
		{"filling the viewport", `<div role="dialog" aria-modal="true" style="position: fixed; inset: 0; background: rgba(0,0,0,.3)">` +
			`<div style="margin: 100px; background: #fff"><button>In the dialog</button></div></div>`,
			[]string{"Page button", "Page link"}},
		{"drawer", `<div role="dialog" style="position: fixed; top: 0; right: 0; bottom: 0; width: 40%; background: #fff"><button>In the dialog</button></div>`,
			nil},
		{"chat box", `<div role="dialog" style="position: fixed; right: 0; bottom: 0; width: 200px; height: 200px; background: #fff"><button>In the dialog</button></div>`,
			nil},
	}
	for _, r := range realms {
		for _, c := range cases {
			t.Run(string(r)+"/"+c.name, func(t *testing.T) {
				p := open(t, "/labels.html")
				p.js(`(document.body.innerHTML = '<p><button>Page button</button> <a href="#x">Page link</a></p>` + c.html + `', 1)`)
				var s pagejs.SnapshotResult
				p.must(r, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100}, &s)
				var got []string
				for i, in := range s.InertRows() {
					if in {
						got = append(got, s.Elements[i].Name)
					}
				}
				if !slices.Equal(got, c.inert) {
					t.Errorf("inert %q, want %q", got, c.inert)
				}
			})
		}
	}
}
