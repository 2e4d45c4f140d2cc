package pagejs_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

// resident installs s as a resident of the current document's page realm.
func (p *page) resident(s pagejs.Script) string {
	p.t.Helper()
	src, err := s.PageResident()
	if err != nil {
		p.t.Fatal(err)
	}
	actor, err := p.c.EvaluateObject(p.ctx, p.target().ConsoleActor, src, rdp.EvalOptions{})
	if err != nil {
		p.t.Fatalf("install %s: %v", s.Name(), err)
	}
	return actor
}

// call calls a resident and decodes its envelope.
func (p *page) call(actor string, s pagejs.Script, args, out any) error {
	p.t.Helper()
	src, err := s.PageCall(args)
	if err != nil {
		p.t.Fatal(err)
	}
	res, err := p.c.EvaluateString(p.ctx, p.target().ConsoleActor, src, rdp.EvalOptions{Await: true, Self: actor})
	if err != nil {
		p.t.Fatalf("call %s: %v", s.Name(), err)
	}
	return pagejs.Decode(res, out)
}

// TestFirefoxResident: a resident snapshot returns exactly what the per-evaluation
// script returns, call after call, without leaving anything the page can see.
func TestFirefoxResident(t *testing.T) {
	for _, path := range []string{"/large.html", "/labels.html", "/forms.html", "/editor.html"} {
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			p := open(t, path)
			args := pagejs.SnapshotArgs{MaxElements: 5000, MaxTextChars: 300000, IncludeAllText: true}
			globals := p.js(`Object.getOwnPropertyNames(window).length + Object.getOwnPropertySymbols(window).length`)
			var want pagejs.SnapshotResult
			p.must(pageRealm, pagejs.Snapshot, args, &want)
			actor := p.resident(pagejs.Snapshot)
			for i := 0; i < 3; i++ {
				var got pagejs.SnapshotResult
				if err := p.call(actor, pagejs.Snapshot, args, &got); err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if got.Seq != i+1 {
					t.Errorf("call %d: seq %d, want %d", i, got.Seq, i+1)
				}
				got.Seq = 0
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("call %d: the resident's snapshot differs from the script's (%d elements, want %d)", i, len(got.Elements), len(want.Elements))
				}
			}
			if path == "/large.html" && want.Total != fixtures.LargeListed {
				t.Errorf("total %d, want %d", want.Total, fixtures.LargeListed)
			}
			if now := p.js(`Object.getOwnPropertyNames(window).length + Object.getOwnPropertySymbols(window).length`); now != globals {
				t.Errorf("window has %s own properties after the resident, %s before", now, globals)
			}
			// Arguments reach the resident as they are: a limit is applied.
			var cut pagejs.SnapshotResult
			if err := p.call(actor, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 1}, &cut); err != nil {
				t.Fatal(err)
			}
			if len(cut.Elements) != 1 || cut.Total != want.Total || cut.Text != nil {
				t.Errorf("max 1 element, no text: got %d of %d, text %v", len(cut.Elements), cut.Total, cut.Text != nil)
			}
		})
	}
}

// TestFirefoxResidentMissing: a call without its resident, or with one of an earlier
// document, gets resident_missing, never another document's function.
func TestFirefoxResidentMissing(t *testing.T) {
	p := open(t, "/forms.html")
	if err := p.call("", pagejs.Snapshot, pagejs.SnapshotArgs{}, &pagejs.SnapshotResult{}); !isCode(err, errcode.ResidentMissing) {
		t.Errorf("call without a resident: %v, want %s", err, errcode.ResidentMissing)
	}
	actor := p.resident(pagejs.Snapshot)
	before := p.target()
	p.assign("/labels.html", before.InnerWindowID)
	if err := p.call(actor, pagejs.Snapshot, pagejs.SnapshotArgs{}, &pagejs.SnapshotResult{}); !isCode(err, errcode.ResidentMissing) {
		t.Errorf("call with the previous document's resident: %v, want %s", err, errcode.ResidentMissing)
	}
	var s pagejs.SnapshotResult
	if err := p.call(p.resident(pagejs.Snapshot), pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100}, &s); err != nil || !strings.HasSuffix(s.URL, "/labels.html") {
		t.Errorf("new resident: %v, url %q", err, s.URL)
	}
}

// TestFirefoxResidentCaller: page code the resident calls (a monkeypatched DOM method)
// cannot reach the resident through Function.prototype.caller: it is strict code.
func TestFirefoxResidentCaller(t *testing.T) {
	p := open(t, "/forms.html")
	p.js(`(() => { const orig = Element.prototype.checkVisibility; window.__seen = "none"; ` +
		`Element.prototype.checkVisibility = function spy(o) { ` +
		`try { const c = spy.caller; window.__seen = c === null ? "null" : typeof c + ":" + String(c).slice(0, 40); } catch (e) { window.__seen = "threw"; } ` +
		`return orig.call(this, o); }; return 1; })()`)
	actor := p.resident(pagejs.Snapshot)
	var s pagejs.SnapshotResult
	if err := p.call(actor, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100}, &s); err != nil {
		t.Fatal(err)
	}
	seen := p.js(`window.__seen`)
	if seen == "none" {
		t.Fatal("the snapshot never called the page's checkVisibility; the test proves nothing")
	}
	if seen != "null" && seen != "threw" {
		t.Errorf("page code saw its caller: %q", seen)
	}
}
