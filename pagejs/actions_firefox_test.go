package pagejs_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/rdp"
)

func TestFirefoxProbe(t *testing.T) {
	p := open(t, "/forms.html")
	var pr pagejs.ProbeResult
	p.must(isolatedRealm, pagejs.Probe, nil, &pr)
	if !pr.TrustedClick || !pr.TIP || !pr.MozSetFileArray {
		t.Errorf("probe = %+v, want all true on Firefox ESR", pr)
	}
	var info pagejs.PageInfoResult
	for _, r := range realms {
		p.must(r, pagejs.PageInfo, nil, &info)
		if info.Title != "Forms" || info.ReadyState != "complete" || !strings.HasSuffix(info.URL, "/forms.html") {
			t.Errorf("%s: pageInfo = %+v", r, info)
		}
	}
}

func TestFirefoxSnapshot(t *testing.T) {
	p := open(t, "/labels.html")
	want := []string{
		`heading "Names, roles and hidden things"`,
		`textbox "Name via for" value="Ada"`,
		`textbox "Name via wrapping" required`,
		`textbox "Name via aria-label"`,
		`textbox "Name via labelledby"`,
		`combobox "Country France" collapsed`,
		`combobox "Size" value="Large"`,
		`link "Profile picture" href="/profile"`,
		`button "Name via title"`,
		`textbox "Name via placeholder"`,
		`button "Name via text"`,
		`button "Send it"`,
		`textbox "Secret"`,
		`link "Credentialed link" href="http://127.0.0.1:1/x?y=1#z"`,
		`link "External link" href="https://example.com/far/away?utm=1"`,
		`combobox "Colour" value="Green"`,
		`checkbox "I agree" checked`,
		`switch "Dark mode" unchecked`,
		`tab "Tab one" selected`,
		`tab "Tab two" unselected`,
		`button "Menu" collapsed`,
		`button "Disabled button" disabled`,
		`textbox "Read only" value="fixed" readonly`,
		`button "More" collapsed`,
		`input/file "Upload résumé" accept=".pdf,.docx"`,
		`button "Shadow button"`,
		`link "Shadow link" href="/inner"`,
		`textbox "Notes" value="Some notes"`,
	}
	var first pagejs.SnapshotResult
	for _, r := range realms {
		s := p.snapshot(r)
		var got []string
		for _, e := range s.Elements {
			got = append(got, line(e))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s snapshot:\n%s\nwant:\n%s", r, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if s.Title != "Labels & ARIA" || s.Total != len(want) || s.TruncatedElements != 0 || s.Text != nil {
			t.Errorf("%s: title %q total %d truncated %d text %v", r, s.Title, s.Total, s.TruncatedElements, s.Text)
		}
		shadow := find(t, s, "button", "Shadow button")
		if len(shadow.Sel) != 2 || shadow.Sel[0] != "#host" {
			t.Errorf("%s: shadow selector %q", r, shadow.Sel)
		}
		if link := find(t, s, "link", "Profile picture"); link.FP.Href != fixtureServer.URL+"/profile" {
			t.Errorf("%s: fingerprint href %q", r, link.FP.Href)
		}
		// Every selector resolves to an element with the same fingerprint (in both realms).
		for _, e := range s.Elements {
			for _, r2 := range realms {
				var d pagejs.Element
				p.must(r2, pagejs.Describe, pagejs.DescribeArgs{Sel: e.Sel}, &d)
				if d.FP != e.FP {
					t.Errorf("%s→%s: describe %q: fp %+v, snapshot %+v", r, r2, e.Sel, d.FP, e.FP)
				}
			}
		}
		if r == pageRealm {
			first = s
		} else if !reflect.DeepEqual(first, s) {
			t.Errorf("page and isolated snapshots differ")
		}
	}
	// Limits.
	var s pagejs.SnapshotResult
	p.must(pageRealm, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 3, MaxTextChars: 20, IncludeAllText: true}, &s)
	if len(s.Elements) != 3 || s.Total != len(want) || s.TruncatedElements != len(want)-3 || s.Text == nil ||
		len([]rune(*s.Text)) != 20 || !strings.HasSuffix(*s.Text, "…") || s.TextTotal < 100 {
		t.Errorf("limits: %d elements, total %d, truncated %d, text %v (%d)", len(s.Elements), s.Total, s.TruncatedElements, s.Text, s.TextTotal)
	}
	// Paging and the filter, in both realms: the same elements as the full snapshot's.
	for _, r := range realms {
		var pg pagejs.SnapshotResult
		p.must(r, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 3, Offset: 4}, &pg)
		if len(pg.Elements) != 3 || pg.Total != len(want) || pg.All != len(want) || line(pg.Elements[0]) != want[4] || line(pg.Elements[2]) != want[6] {
			t.Errorf("%s: offset 4: total %d all %d, %d elements from %q", r, pg.Total, pg.All, len(pg.Elements), line(pg.Elements[0]))
		}
		var q pagejs.SnapshotResult
		p.must(r, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100, Query: "SHADOW"}, &q)
		if q.Total != 2 || q.All != len(want) || len(q.Elements) != 2 || q.Elements[0].Name != "Shadow button" || q.Elements[1].Name != "Shadow link" ||
			!reflect.DeepEqual(q.Elements[0], find(t, first, "button", "Shadow button")) {
			t.Errorf("%s: query: total %d all %d elements %v", r, q.Total, q.All, q.Elements)
		}
		p.must(r, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100, Query: "/inner"}, &q)
		if q.Total != 1 || q.Elements[0].Name != "Shadow link" {
			t.Errorf("%s: query on a link target: %v", r, q.Elements)
		}
		p.must(r, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100, Query: "checkbox", Offset: 1}, &q)
		if q.Total != 1 || len(q.Elements) != 0 || q.TruncatedElements != 1 {
			t.Errorf("%s: query past its matches: total %d, %d elements, truncated %d", r, q.Total, len(q.Elements), q.TruncatedElements)
		}
	}
}

// line renders an element compactly for comparisons.
func line(e pagejs.Element) string {
	kind := e.Role
	if kind == "" {
		kind = e.Tag + "/" + e.Type
	}
	out := fmt.Sprintf("%s %q", kind, e.Name)
	if e.Value != nil {
		out += fmt.Sprintf(" value=%q", *e.Value)
	}
	if e.Href != "" {
		out += fmt.Sprintf(" href=%q", e.Href)
	}
	if e.Accept != "" {
		out += fmt.Sprintf(" accept=%q", e.Accept)
	}
	flag := func(b *bool, yes, no string) {
		if b != nil {
			if *b {
				out += " " + yes
			} else {
				out += " " + no
			}
		}
	}
	flag(e.Checked, "checked", "unchecked")
	flag(e.Selected, "selected", "unselected")
	flag(e.Expanded, "expanded", "collapsed")
	for _, f := range []struct {
		on   bool
		name string
	}{{e.Disabled, "disabled"}, {e.Readonly, "readonly"}, {e.Required, "required"}, {e.Multiple, "multiple"}} {
		if f.on {
			out += " " + f.name
		}
	}
	return out
}

func TestFirefoxClickTrusted(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/forms.html")
			e := find(t, p.snapshot(r), "button", "Trusted only")
			var res pagejs.ActionResult
			p.must(r, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, &res)
			acc, ign := p.js(`document.getElementById("accepted").textContent`), p.js(`document.getElementById("ignored").textContent`)
			if r == isolatedRealm {
				if !res.Trusted || acc != "1" || ign != "0" {
					t.Errorf("isolated: trusted=%v accepted=%s ignored=%s", res.Trusted, acc, ign)
				}
			} else if res.Trusted || acc != "0" || ign != "1" {
				t.Errorf("page: trusted=%v accepted=%s ignored=%s", res.Trusted, acc, ign)
			}
			// A file input is refused; a disabled element too.
			p2 := open(t, "/labels.html")
			s := p2.snapshot(r)
			up := s.Elements[0]
			for _, e := range s.Elements {
				if e.Type == "file" {
					up = e
				}
			}
			if err := p2.run(r, pagejs.Click, pagejs.ClickArgs{Sel: up.Sel, FP: up.FP}, nil); !isCode(err, errcode.UnsupportedElement) {
				t.Errorf("click on file input: %v", err)
			}
			d := find(t, s, "button", "Disabled button")
			if err := p2.run(r, pagejs.Click, pagejs.ClickArgs{Sel: d.Sel, FP: d.FP}, nil); !isCode(err, errcode.ElementNotInteractable) {
				t.Errorf("click on disabled: %v", err)
			}
		})
	}
}

func TestFirefoxHostilePage(t *testing.T) {
	p := open(t, "/hostile.html")
	// The page realm's JSON.stringify is the page's: its results cannot be trusted.
	if err := p.run(pageRealm, pagejs.Snapshot, pagejs.SnapshotArgs{MaxElements: 100}, &pagejs.SnapshotResult{}); !errors.Is(err, pagejs.ErrMalformed) {
		t.Errorf("page realm on hostile page: %v, want ErrMalformed", err)
	}
	real, realIn := hostileElements(t, p.snapshot(isolatedRealm))
	var res pagejs.ActionResult
	p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: real.Sel, FP: real.FP}, &res)
	if got := p.js(`document.getElementById("real-log").textContent`); got != "click:true;" || !res.Trusted {
		t.Errorf("real button log %q (trusted %v), want exactly one trusted click", got, res.Trusted)
	}
	if got := p.js(`document.getElementById("decoy-log").textContent`); got != "" {
		t.Errorf("decoy got %q", got)
	}
	p.must(isolatedRealm, pagejs.Fill, pagejs.FillArgs{Sel: realIn.Sel, FP: realIn.FP, Value: "42"}, &res)
	if got := p.js(`document.getElementById("real-input-log").textContent`); got != "42:true;" {
		t.Errorf("real input log %q", got)
	}
	if got := p.js(`document.getElementById("decoy-input-log").textContent + "|" + document.getElementById("decoy-input").value`); got != "|" {
		t.Errorf("decoy input touched: %q", got)
	}
	p.must(isolatedRealm, pagejs.TypeText, pagejs.TypeTextArgs{Sel: realIn.Sel, FP: realIn.FP, Text: "7", FirstChunk: true}, &res)
	if got := p.js(`document.getElementById("real-input").value`); got != "427" {
		t.Errorf("typed into real input: %q", got)
	}
	if got := p.js(`document.getElementById("decoy-input-log").textContent`); got != "" {
		t.Errorf("decoy input got typing: %q", got)
	}
}

// hostileElements returns the real button and input of hostile.html's snapshot.
func hostileElements(t *testing.T, s pagejs.SnapshotResult) (real, realIn pagejs.Element) {
	t.Helper()
	for _, e := range s.Elements {
		switch e.Sel[0] {
		case "#real":
			real = e
		case "#real-input":
			realIn = e
		}
	}
	if real.Name != "Buy now" || realIn.Name != "Amount" {
		t.Fatalf("snapshot of the hostile page: %+v", s.Elements)
	}
	return real, realIn
}

func TestFirefoxFillControlled(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/controlled.html")
			// The fixture behaves like React: a plain assignment is not a change.
			p.js(`(() => { const el = document.getElementById("name"); el.value = "plain"; el.dispatchEvent(new Event("input", {bubbles: true})); })()`)
			if got := p.js(`document.getElementById("changes").textContent`); got != "0" {
				t.Fatalf("fixture: plain assignment counted as a change (%s)", got)
			}
			s := p.snapshot(r)
			name := find(t, s, "textbox", "Full name")
			var res pagejs.ActionResult
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: name.Sel, FP: name.FP, Value: "Ada Lovelace"}, &res)
			if got := p.js(`document.getElementById("state-name").textContent`); got != "Ada Lovelace" {
				t.Errorf("tracked state %q", got)
			}
			if res.Value == nil || *res.Value != "Ada Lovelace" || res.Trusted != (r == isolatedRealm) {
				t.Errorf("result %+v", res)
			}
			if got := p.js(`document.getElementById("trusted").textContent`); got != fmt.Sprint(r == isolatedRealm) {
				t.Errorf("input event isTrusted %s", got)
			}
			bio := find(t, s, "textbox", "Bio")
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: bio.Sel, FP: bio.FP, Value: "line 1\nline 2"}, &res)
			if got := p.js(`document.getElementById("state-bio").textContent`); got != "line 1\nline 2" {
				t.Errorf("bio state %q", got)
			}
			pw := find(t, s, "textbox", "Password")
			if pw.Value != nil {
				t.Errorf("snapshot shows a password value")
			}
			res = pagejs.ActionResult{}
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: pw.Sel, FP: pw.FP, Value: "new-secret"}, &res)
			if res.Value != nil {
				t.Errorf("fill returned the password")
			}
			if got := p.js(`document.getElementById("pw").value`); got != "new-secret" {
				t.Errorf("password not set: %q", got)
			}
		})
	}
}

func TestFirefoxFillSelectAndSubmit(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/forms.html")
			s := p.snapshot(r)
			c := find(t, s, "combobox", "Country")
			var res pagejs.ActionResult
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: c.Sel, FP: c.FP, Value: "Germany"}, &res)
			if got := p.js(`document.getElementById("country").value`); got != "de" || res.Value == nil || *res.Value != "de" {
				t.Errorf("select by label: %q %+v", got, res)
			}
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: c.Sel, FP: c.FP, Value: "fr"}, &res)
			if got := p.js(`document.getElementById("country").value`); got != "fr" {
				t.Errorf("select by value: %q", got)
			}
			if err := p.run(r, pagejs.Fill, pagejs.FillArgs{Sel: c.Sel, FP: c.FP, Value: "Atlantis"}, nil); !isCode(err, errcode.OptionNotFound) {
				t.Errorf("unknown option: %v", err)
			}
			cb := find(t, s, "checkbox", "Remember me")
			if err := p.run(r, pagejs.Fill, pagejs.FillArgs{Sel: cb.Sel, FP: cb.FP, Value: "on"}, nil); !isCode(err, errcode.UnsupportedElement) {
				t.Errorf("fill checkbox: %v", err)
			}
			user := find(t, s, "textbox", "User")
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: user.Sel, FP: user.FP, Value: "ada"}, &res)
			if got := p.js(`document.getElementById("submits").textContent`); got != "0" {
				t.Errorf("fill without submit submitted (%s)", got)
			}
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: user.Sel, FP: user.FP, Value: "ada", Submit: true}, &res)
			if got := p.js(`document.getElementById("submits").textContent + " " + document.getElementById("submit-form").textContent`); got != "1 login;" || !res.Submitted {
				t.Errorf("fill with submit: %q %+v", got, res)
			}
		})
	}
}

func TestFirefoxTypeText(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/forms.html")
			s := p.snapshot(r)
			user := find(t, s, "textbox", "User")
			p.js(`document.getElementById("user").value = "x"`)
			var res pagejs.ActionResult
			p.must(r, pagejs.TypeText, pagejs.TypeTextArgs{Sel: user.Sel, FP: user.FP, Text: "héllo ", FirstChunk: true}, &res)
			p.must(r, pagejs.TypeText, pagejs.TypeTextArgs{Sel: user.Sel, FP: user.FP, Text: "🌍\n!"}, &res)
			if got := p.js(`document.getElementById("user").value`); got != "xhéllo 🌍!" {
				t.Errorf("typed value %q", got)
			}
			if res.Trusted != (r == isolatedRealm) || res.Value == nil || *res.Value != "xhéllo 🌍!" {
				t.Errorf("result %+v", res)
			}
			if got := p.js(`document.getElementById("submits").textContent`); got != "0" {
				t.Errorf("typing submitted the form (%s)", got)
			}
			notes := find(t, s, "textbox", "Notes")
			p.must(r, pagejs.TypeText, pagejs.TypeTextArgs{Sel: notes.Sel, FP: notes.FP, Text: "a\nb", FirstChunk: true}, &res)
			if got := p.js(`document.getElementById("notes").value`); got != "a\nb" {
				t.Errorf("textarea %q", got)
			}
		})
	}
}

func TestFirefoxEditor(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/editor.html")
			ed := find(t, p.snapshot(r), "textbox", "Message body")
			var res pagejs.ActionResult
			p.must(r, pagejs.Fill, pagejs.FillArgs{Sel: ed.Sel, FP: ed.FP, Value: "Hello <b>world</b>"}, &res)
			if got := p.js(`document.getElementById("model").textContent`); got != "Hello <b>world</b>" {
				t.Errorf("model after fill %q (events %s)", got, p.js(`document.getElementById("events").textContent`))
			}
			if got := p.js(`document.getElementById("editor").querySelector("b") === null`); got != "true" {
				t.Error("HTML in value became markup")
			}
			p.must(r, pagejs.TypeText, pagejs.TypeTextArgs{Sel: ed.Sel, FP: ed.FP, Text: "!", FirstChunk: true}, &res)
			if got := p.js(`document.getElementById("model").textContent`); got != "Hello <b>world</b>!" {
				t.Errorf("model after typing %q", got)
			}
			if r == isolatedRealm && p.js(`document.getElementById("trusted").textContent`) == "0" {
				t.Error("no trusted input event in the isolated realm")
			}
		})
	}
}

func TestFirefoxPressKey(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/forms.html")
			s := p.snapshot(r)
			user := find(t, s, "textbox", "User")
			var res pagejs.ActionResult
			p.must(r, pagejs.PressKey, pagejs.PressKeyArgs{Sel: user.Sel, FP: &user.FP, Key: "Tab"}, &res)
			if got := p.js(`document.activeElement.id`); got != "pass" || res.Focused != `textbox "Password"` {
				t.Errorf("Tab moved focus to %q (%q)", got, res.Focused)
			}
			p.must(r, pagejs.PressKey, pagejs.PressKeyArgs{Key: "Tab"}, &res)
			if got := p.js(`document.activeElement.id`); got != "remember" {
				t.Errorf("second Tab: focus on %q", got)
			}
			if got := p.js(`document.getElementById("submits").textContent`); got != "0" {
				t.Errorf("submitted before Enter (%s)", got)
			}
			q := find(t, s, "textbox", "Search")
			p.must(r, pagejs.PressKey, pagejs.PressKeyArgs{Sel: q.Sel, FP: &q.FP, Key: "Enter"}, &res)
			// requestSubmit's submit event is trusted in both realms (the browser fires it).
			want := "1 search; true;"
			if got := p.js(`document.getElementById("submits").textContent + " " + document.getElementById("submit-form").textContent + " " + document.getElementById("submit-trusted").textContent`); got != want {
				t.Errorf("Enter: %q, want %q", got, want)
			}
			if r == isolatedRealm && !strings.Contains(p.js(`document.getElementById("keys").textContent`), "Tab:true;") {
				t.Error("no trusted Tab keydown")
			}
			p.js(`document.getElementById("user").value = "abc"`)
			p.must(r, pagejs.PressKey, pagejs.PressKeyArgs{Sel: user.Sel, FP: &user.FP, Key: "End"}, &res)
			p.must(r, pagejs.PressKey, pagejs.PressKeyArgs{Key: "Backspace"}, &res)
			if got := p.js(`document.getElementById("user").value`); got != "ab" {
				t.Errorf("Backspace: %q", got)
			}
			if err := p.run(r, pagejs.PressKey, pagejs.PressKeyArgs{Key: "F13"}, nil); !isCode(err, errcode.InvalidArgument) {
				t.Errorf("F13: %v", err)
			}
			if err := p.run(r, pagejs.PressKey, pagejs.PressKeyArgs{Key: "k", Mods: []string{"Hyper"}}, nil); !isCode(err, errcode.InvalidArgument) {
				t.Errorf("Hyper+k: %v", err)
			}
		})
	}
}

func TestFirefoxStale(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/stale.html")
			s := p.snapshot(r)
			one := find(t, s, "button", "Item one")
			two := find(t, s, "button", "Item two")
			rep := find(t, s, "button", "Replace items")
			p.must(r, pagejs.Click, pagejs.ClickArgs{Sel: rep.Sel, FP: rep.FP}, nil)
			if got := p.js(`document.querySelector(".item").textContent`); got != "Delete account" {
				t.Fatalf("fixture did not replace: %q", got)
			}
			if err := p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: one.Sel, FP: one.FP}, nil); !isCode(err, errcode.StaleElement) {
				t.Errorf("click on replaced element: %v", err)
			}
			if got := p.js(`document.getElementById("clicked").textContent`); got != "" {
				t.Errorf("something was clicked: %q", got)
			}
			if err := p.run(r, pagejs.Describe, pagejs.DescribeArgs{Sel: one.Sel}, &pagejs.Element{}); err != nil {
				t.Errorf("describe: %v", err)
			}
			// An identical replacement is indistinguishable and acts.
			p.must(r, pagejs.Click, pagejs.ClickArgs{Sel: two.Sel, FP: two.FP}, nil)
			if got := p.js(`document.getElementById("clicked").textContent`); got != "Item two;" {
				t.Errorf("identical replacement: %q", got)
			}
			p.js(`document.getElementById("list").remove()`)
			if err := p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: two.Sel, FP: two.FP}, nil); !isCode(err, errcode.ElementNotFound) {
				t.Errorf("click on removed element: %v", err)
			}
			if err := p.run(r, pagejs.Click, pagejs.ClickArgs{Sel: pagejs.Sel{"[[["}, FP: two.FP}, nil); !isCode(err, errcode.InvalidSelector) {
				t.Errorf("bad selector: %v", err)
			}
		})
	}
}

func TestFirefoxWaitFor(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/delayed.html?ms=400")
			var w pagejs.WaitForResult
			poll := func(args pagejs.WaitForArgs) bool {
				deadline := time.Now().Add(5 * time.Second)
				for time.Now().Before(deadline) {
					p.must(r, pagejs.WaitFor, args, &w)
					if w.Met {
						return true
					}
					time.Sleep(50 * time.Millisecond)
				}
				return false
			}
			if !poll(pagejs.WaitForArgs{Selector: "#late"}) || !poll(pagejs.WaitForArgs{Text: "Results   ready"}) {
				t.Error("delayed content never present")
			}
			if !poll(pagejs.WaitForArgs{Selector: "#spinner", State: "absent"}) {
				t.Error("spinner never absent")
			}
			if !poll(pagejs.WaitForArgs{URLContains: "delayed.html"}) {
				t.Error("url condition")
			}
			if !poll(pagejs.WaitForArgs{URL: "http://*/delayed.html*"}) {
				t.Error("url glob")
			}
			if p.must(r, pagejs.WaitFor, pagejs.WaitForArgs{URL: "**/delayed"}, &w); w.Met {
				t.Error("url glob: want the whole URL matched")
			}
			p.must(r, pagejs.WaitFor, pagejs.WaitForArgs{Text: "Nowhere to be seen"}, &w)
			if w.Met {
				t.Error("absent text reported present")
			}
			if err := p.run(r, pagejs.WaitFor, pagejs.WaitForArgs{Selector: "div[["}, nil); !isCode(err, errcode.InvalidSelector) {
				t.Errorf("invalid selector: %v", err)
			}
		})
	}
}

// TestFirefoxWaitForWaits: with waitMs an unmet condition is checked again as the page
// changes, until it holds (woken by the mutation that makes it hold) or waitMs passed;
// a page that mutates all the time is checked at most every gapMs. The log prints how
// long after the element appeared the answer was back (FIGURE).
func TestFirefoxWaitForWaits(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/delayed.html?ms=200")
			p.js(`(() => { setTimeout(() => { const b = document.createElement("button"); b.id = "later"; b.textContent = "Later"; document.body.append(b); window.__at = performance.now(); }, 200); return 1; })()`)
			var w pagejs.WaitForResult
			p.must(r, pagejs.WaitFor, pagejs.WaitForArgs{Selector: "#later", WaitMS: 5000}, &w)
			after := p.js(`performance.now() - window.__at`)
			if !w.Met || w.Checks < 2 || len(w.Matched) != 1 {
				t.Fatalf("selector: %+v, want met after more than one check, with the match", w)
			}
			t.Logf("FIGURE %s: answer back %s ms after the element appeared (%d checks)", r, after, w.Checks)
			w = pagejs.WaitForResult{}
			p.must(r, pagejs.WaitFor, pagejs.WaitForArgs{Selector: "#spinner", State: "absent", WaitMS: 5000}, &w)
			if !w.Met || p.js(`document.querySelector("#spinner") === null`) != "true" {
				t.Errorf("absent: %+v, want met once the spinner went", w)
			}
			w = pagejs.WaitForResult{}
			p.must(r, pagejs.WaitFor, pagejs.WaitForArgs{URLContains: "nowhere", WaitMS: 200}, &w)
			if w.Met || w.Checks < 2 {
				t.Errorf("never met: %+v, want unmet after periodic checks", w)
			}
			if err := p.run(r, pagejs.WaitFor, pagejs.WaitForArgs{Selector: "div[[", WaitMS: 1000}, nil); !isCode(err, errcode.InvalidSelector) {
				t.Errorf("invalid selector: %v", err)
			}
			p.js(`(() => { let n = 0; window.__iv = setInterval(() => { document.body.dataset.n = String(n++); }, 2); return 1; })()`)
			w = pagejs.WaitForResult{}
			p.must(r, pagejs.WaitFor, pagejs.WaitForArgs{Text: "Nowhere to be seen", WaitMS: 300, GapMS: 25}, &w)
			p.js(`clearInterval(window.__iv)`)
			if w.Met || w.Checks < 2 || w.Checks > 300/25+3 {
				t.Errorf("busy page: %+v, want unmet, checked at most every 25 ms", w)
			}
		})
	}
}

func TestFirefoxTargetReplaced(t *testing.T) {
	p := open(t, "/forms.html")
	old := p.target()
	after := p.w.Navigations()
	p.js(`(location.href = "/stale.html", "")`)
	if _, err := p.w.WaitNavigation(p.ctx, after, "complete"); err != nil {
		t.Fatal(err)
	}
	console, err := p.c.ContentProcessConsole(p.ctx, old.ProcessID)
	if err != nil {
		t.Skipf("old content process gone: %v", err)
	}
	expr, _ := pagejs.PageInfo.Isolated(old.InnerWindowID, nil)
	res, err := p.c.EvaluateString(p.ctx, console, expr, rdp.EvalOptions{Await: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := pagejs.Decode(res, nil); !isCode(err, errcode.TargetReplaced) {
		t.Errorf("old inner window: %v, want target_replaced", err)
	}
}

func TestFirefoxDialogs(t *testing.T) {
	p := open(t, "/dialogs.html")
	s := p.snapshot(isolatedRealm)
	cases := []struct {
		button, typ, text, action string
		answer                    *string
		result                    string
	}{
		{"Alert", "alert", "Session expires soon", "accept", nil, "alerted"},
		{"Confirm", "confirm", "Delete the draft?", "dismiss", nil, "confirm:false"},
		{"Prompt", "prompt", "Your nickname?", "accept", ptr("Zed"), "prompt:Zed"},
	}
	for _, c := range cases {
		b := find(t, s, "button", c.button)
		done := make(chan error, 1)
		go func() {
			console, expr := p.expr(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP})
			res, err := p.c.EvaluateString(p.ctx, console, expr, rdp.EvalOptions{Await: true})
			if err == nil {
				err = pagejs.Decode(res, nil)
			}
			done <- err
		}()
		var st pagejs.DialogStateResult
		deadline := time.Now().Add(10 * time.Second)
		for {
			if err := chrome(t, p.ctx, p.c, pagejs.DialogState, pagejs.DialogStateArgs{BrowserID: p.id}, &st); err != nil {
				t.Fatal(err)
			}
			if st.Open && st.Ready || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if st.Type != c.typ || st.Text != c.text {
			t.Errorf("%s: dialog %+v", c.button, st)
		}
		var ans pagejs.DialogAnswerResult
		if err := chrome(t, p.ctx, p.c, pagejs.DialogAnswer, pagejs.DialogAnswerArgs{BrowserID: p.id, Action: c.action, Text: c.answer}, &ans); err != nil || !ans.Answered {
			t.Fatalf("%s: answer %+v %v", c.button, ans, err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: click: %v", c.button, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: click never returned after the dialog closed", c.button)
		}
		if got := p.js(`document.getElementById("result").textContent`); got != c.result {
			t.Errorf("%s: result %q, want %q", c.button, got, c.result)
		}
		if err := chrome(t, p.ctx, p.c, pagejs.DialogState, pagejs.DialogStateArgs{BrowserID: p.id}, &st); err != nil || st.Open {
			t.Errorf("%s: still open %+v %v", c.button, st, err)
		}
	}
	if err := chrome(t, p.ctx, p.c, pagejs.DialogState, pagejs.DialogStateArgs{BrowserID: 987654321}, nil); !isCode(err, errcode.TabNotFound) {
		t.Errorf("unknown tab: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

type testFile struct {
	name, typ string
	data      []byte
}

func randomBytes(t testing.TB, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// upload runs the begin/chunk/finish protocol as the server does.
func (p *page) upload(r realm, e pagejs.Element, files []testFile, chunk int) (pagejs.UploadFinishResult, error) {
	p.t.Helper()
	key := hex.EncodeToString(randomBytes(p.t, 16))
	var meta []pagejs.UploadFile
	for _, f := range files {
		meta = append(meta, pagejs.UploadFile{Name: f.name, Type: f.typ, Size: int64(len(f.data)), LastModified: 1700000000000})
	}
	var br pagejs.UploadBeginResult
	if err := p.run(r, pagejs.UploadBegin, pagejs.UploadBeginArgs{Key: key, Sel: e.Sel, FP: e.FP, Files: meta}, &br); err != nil {
		return pagejs.UploadFinishResult{}, err
	}
	for fi, f := range files {
		for i, off := 0, 0; off < len(f.data) || (off == 0 && i == 0); i, off = i+1, off+chunk {
			end := min(off+chunk, len(f.data))
			var cr pagejs.UploadChunkResult
			args := pagejs.UploadChunkArgs{Key: key, File: fi, Index: i, Data: base64.StdEncoding.EncodeToString(f.data[off:end])}
			if err := p.run(r, pagejs.UploadChunk, args, &cr); err != nil {
				return pagejs.UploadFinishResult{}, err
			}
			if cr.File != fi || cr.Index != i || cr.Received != int64(end) {
				p.t.Fatalf("chunk confirmation %+v, want file %d index %d received %d", cr, fi, i, end)
			}
			if end == len(f.data) {
				break
			}
		}
	}
	var fr pagejs.UploadFinishResult
	err := p.run(r, pagejs.UploadFinish, pagejs.UploadFinishArgs{Key: key, Sel: e.Sel, FP: e.FP}, &fr)
	if len(br.Warnings) > 0 && err == nil && !reflect.DeepEqual(br.Warnings, fr.Warnings) {
		p.t.Errorf("begin warnings %q, finish warnings %q", br.Warnings, fr.Warnings)
	}
	// The staging is gone either way.
	var ar pagejs.UploadAbortResult
	p.must(r, pagejs.UploadAbort, pagejs.UploadAbortArgs{Key: key}, &ar)
	if ar.Removed {
		p.t.Error("staging survived uploadFinish")
	}
	return fr, err
}

func (p *page) received() map[string]string {
	p.t.Helper()
	p.waitJS(`document.body.dataset.pending === "0"`, "true")
	out := map[string]string{}
	list := p.js(`Array.from(document.querySelectorAll("#received li"), (li) => li.dataset.input + "/" + li.dataset.name + "=" + li.dataset.size + ":" + li.dataset.type + ":" + li.dataset.sha256).join("\n")`)
	for _, l := range strings.Split(list, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}

// checkReceived checks that the page's input named input received files, byte for byte
// (size, type and the SHA-256 the page computed).
func (p *page) checkReceived(input string, files []testFile) {
	p.t.Helper()
	got := p.received()
	for _, f := range files {
		sum := sha256.Sum256(f.data)
		want := fmt.Sprintf("%d:%s:%s", len(f.data), f.typ, hex.EncodeToString(sum[:]))
		if got[input+"/"+f.name] != want {
			p.t.Errorf("%s: page received %q, want %q", f.name, got[input+"/"+f.name], want)
		}
	}
}

func TestFirefoxUpload(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/upload.html")
			s := p.snapshot(r)
			var multi, resume, single, off pagejs.Element
			for _, e := range s.Elements {
				switch e.Sel[len(e.Sel)-1] {
				case "#multi":
					multi = e
				case "#resume":
					resume = e
				case "#single":
					single = e
				case "#off":
					off = e
				}
			}
			if resume.Name != "Attach résumé" || resume.Accept != ".pdf,.doc,.docx" || !multi.Multiple {
				t.Fatalf("file inputs: %+v %+v", resume, multi)
			}
			files := awkwardFiles(t)
			res, err := p.upload(r, multi, files, 64<<10)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Dispatched || res.Trusted != (r == isolatedRealm) || len(res.Files) != 3 || len(res.Warnings) != 0 {
				t.Errorf("result %+v", res)
			}
			p.checkReceived("multi", files)
			if ev := p.js(`document.getElementById("events").textContent`); ev != fmt.Sprintf("multi:input:%v;multi:change:%v;", r == isolatedRealm, r == isolatedRealm) {
				t.Errorf("events %q", ev)
			}
			// Hidden input behind a styled label; one file.
			pdf := testFile{"cv.pdf", "application/pdf", randomBytes(t, 1000)}
			if _, err := p.upload(r, resume, []testFile{pdf}, 256<<10); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(pdf.data)
			if got := p.received()["resume/cv.pdf"]; !strings.HasSuffix(got, hex.EncodeToString(sum[:])) {
				t.Errorf("resume received %q", got)
			}
			// accept mismatch warns; multiple files on a single input and disabled inputs are refused.
			res, err = p.upload(r, single, []testFile{{"a.txt", "text/plain", []byte("x")}}, 1024)
			if err != nil || len(res.Warnings) != 1 {
				t.Errorf("accept mismatch: %+v %v", res, err)
			}
			if _, err := p.upload(r, resume, []testFile{pdf, pdf}, 1024); !isCode(err, errcode.UploadTargetInvalid) {
				t.Errorf("two files on a single input: %v", err)
			}
			if _, err := p.upload(r, off, []testFile{pdf}, 1024); !isCode(err, errcode.UploadTargetInvalid) {
				t.Errorf("disabled input: %v", err)
			}
			if got := p.js(`document.getElementById("submitted").textContent`); got != "no" {
				t.Error("an upload submitted the form")
			}
		})
	}
}

func TestFirefoxUploadBrokenPage(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/upload-broken.html")
			multi := find(t, p.snapshot(r), "", "Attachments")
			f := testFile{"x.bin", "application/octet-stream", randomBytes(t, 5000)}
			res, err := p.upload(r, multi, []testFile{f}, 4096)
			if r == pageRealm {
				if !isCode(err, errcode.UploadAssignmentFailed) {
					t.Errorf("page realm on broken page: %+v %v, want upload_assignment_failed", res, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("isolated realm on broken page: %v", err)
			}
			sum := sha256.Sum256(f.data)
			if got := p.received()["multi/x.bin"]; !strings.HasSuffix(got, hex.EncodeToString(sum[:])) {
				t.Errorf("received %q", got)
			}
		})
	}
}

func TestFirefoxUploadIncomplete(t *testing.T) {
	p := open(t, "/upload.html")
	multi := find(t, p.snapshot(isolatedRealm), "", "Attachments")
	for _, r := range realms {
		key := hex.EncodeToString(randomBytes(t, 16))
		p.must(r, pagejs.UploadBegin, pagejs.UploadBeginArgs{Key: key, Sel: multi.Sel, FP: multi.FP,
			Files: []pagejs.UploadFile{{Name: "a.bin", Size: 10}}}, nil)
		p.must(r, pagejs.UploadChunk, pagejs.UploadChunkArgs{Key: key, Index: 1, Data: "AAAA"}, nil)
		err := p.run(r, pagejs.UploadFinish, pagejs.UploadFinishArgs{Key: key, Sel: multi.Sel, FP: multi.FP}, nil)
		if !isCode(err, errcode.UploadTransferFailed) {
			t.Errorf("%s: finish with a missing chunk: %v", r, err)
		}
		if err := p.run(r, pagejs.UploadChunk, pagejs.UploadChunkArgs{Key: key, Data: "AAAA"}, nil); !isCode(err, errcode.UploadTransferFailed) {
			t.Errorf("%s: chunk after finish: %v", r, err)
		}
		// Abort deletes a staging.
		p.must(r, pagejs.UploadBegin, pagejs.UploadBeginArgs{Key: key, Sel: multi.Sel, FP: multi.FP,
			Files: []pagejs.UploadFile{{Name: "a.bin", Size: 3}}}, nil)
		var ar pagejs.UploadAbortResult
		p.must(r, pagejs.UploadAbort, pagejs.UploadAbortArgs{Key: key}, &ar)
		if !ar.Removed {
			t.Errorf("%s: abort removed nothing", r)
		}
	}
	if got := p.js(`Object.getOwnPropertyNames(window).filter((k) => k.startsWith("fxmcp")).length`); got != "0" {
		t.Errorf("page-realm staging left on window: %s", got)
	}
}

// TestFirefoxNoFilePicker: a click that reaches a file input (through a label, or a page
// handler calling input.click()) is default-prevented and reported. Measured: the
// isolated click's trusted pointerdown/mousedown grant user activation (a bare pres-shell
// click event does not), so a page handler's input.click() could open the OS picker
// without the guard. A chrome preventDefault is invisible to the page (defaultPrevented
// stays false there), so the fixture cannot observe the prevention itself.
func TestFirefoxNoFilePicker(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/upload.html")
			s := p.snapshot(r)
			for _, name := range []string{"Choose attachments", "Browse photos"} {
				b := find(t, s, "button", name)
				var res pagejs.ActionResult
				p.must(r, pagejs.Click, pagejs.ClickArgs{Sel: b.Sel, FP: b.FP}, &res)
				if !res.FilePickerBlocked {
					t.Errorf("%s: filePickerBlocked not reported (%+v)", name, res)
				}
			}
			want := fmt.Sprint(r == isolatedRealm)
			if got := p.js(`navigator.userActivation.hasBeenActive`); got != want {
				t.Errorf("user activation after our clicks: %s, want %s", got, want)
			}
		})
	}
}

// TestFirefoxUploadTriggers: upload_files on what a person clicks to choose a file — a
// label with role=button wrapping a hidden input, a button inside a label, a button whose
// handler clicks an input elsewhere, a Dropzone-style zone with a hidden input appended to
// the body, a button calling showPicker() on an input never put in the document — reaches
// the input the page opens the chooser for, with no chooser shown (the click and
// showPicker are recorded, not run). Submit buttons and links are refused, not clicked.
func TestFirefoxUploadTriggers(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/upload.html")
			s := p.snapshot(r)
			pdf := testFile{name: "letter.pdf", typ: "application/pdf", data: randomBytes(t, 10<<10)}
			for _, tc := range []struct{ role, name, input string }{
				{"button", "Add cover letter", "letter"},
				{"button", "Browse photos", "single"},
				{"button", "Choose attachments", "multi"},
				{"button", "Drop files here or click to upload", "dz-hidden"},
				{"button", "Pick with showPicker", "detached"},
			} {
				el := find(t, s, tc.role, tc.name)
				res, err := p.upload(r, el, []testFile{pdf}, 4096)
				if err != nil {
					t.Errorf("%s: %v", tc.name, err)
					continue
				}
				if len(res.Files) != 1 || res.Files[0].Name != "letter.pdf" || !res.Dispatched {
					t.Errorf("%s: result %+v", tc.name, res)
				}
				p.checkReceived(tc.input, []testFile{pdf})
			}
			if got := p.js(`document.getElementById("submitted").textContent`); got != "no" {
				t.Errorf("a trigger submitted the form: %s", got)
			}
			// The page's own click and showPicker are back.
			if got := p.js(`HTMLInputElement.prototype.click.toString().includes("[native code]") && HTMLInputElement.prototype.showPicker.toString().includes("[native code]")`); got != "true" {
				t.Errorf("the page's HTMLInputElement methods were not restored")
			}
			// Refused: a submit button and a link (never clicked), a button that opens no
			// chooser, one that opens two.
			for _, tc := range []struct{ role, name, why string }{
				{"button", "Send application", "link or a submit"},
				{"link", "Upload help", "link or a submit"},
				{"button", "Preview", "opened no file chooser"},
				{"button", "Choose both", "more than one"},
			} {
				_, err := p.upload(r, find(t, s, tc.role, tc.name), []testFile{pdf}, 4096)
				if !isCode(err, errcode.UploadTargetInvalid) || !strings.Contains(err.Error(), tc.why) {
					t.Errorf("%s: %v, want upload_target_invalid (%s)", tc.name, err, tc.why)
				}
			}
			if got := p.js(`location.hash`); got != "" {
				t.Errorf("the link was followed: %q", got)
			}
		})
	}
}

// TestFirefoxLoadStateWaits: LoadState with until waits in the document for that
// readyState (woken by readystatechange), at most waitMs; without it, it reads the
// state as it is. The document is rewritten (document.open) with an image the
// server answers 450 ms late, so it stays interactive until then.
func TestFirefoxLoadStateWaits(t *testing.T) {
	p := open(t, "/forms.html")
	p.js(`(() => { document.open(); document.write('<!doctype html><title>Slow</title><img src="/api/jobs?q=slow">'); document.close(); return document.readyState; })()`)
	for _, r := range []realm{isolatedRealm, pageRealm} {
		var now, short, long pagejs.LoadStateResult
		p.must(r, pagejs.LoadState, pagejs.LoadStateArgs{}, &now)
		start := time.Now()
		p.must(r, pagejs.LoadState, pagejs.LoadStateArgs{Until: "complete", WaitMS: 50}, &short)
		shortTook := time.Since(start)
		p.must(r, pagejs.LoadState, pagejs.LoadStateArgs{Until: "complete", WaitMS: 5000}, &long)
		longTook := time.Since(start)
		if r == isolatedRealm && (now.ReadyState == "complete" || short.ReadyState == "complete" || shortTook < 50*time.Millisecond) {
			t.Errorf("%v: while the image loads: now %q, after waiting 50 ms %q (%v): want not complete, after ≥ 50 ms", r, now.ReadyState, short.ReadyState, shortTook)
		}
		if long.ReadyState != "complete" || long.Title != "Slow" || longTook > 4*time.Second {
			t.Errorf("%v: waiting for complete: %+v after %v", r, long, longTook)
		}
	}
}

// TestFirefoxClickChanged: a click says whether the page changed while it was
// dispatched (lib.changes): an attribute flipped, an element added, not an
// attribute set again to the value it had;
// and a page realm whose MutationObserver the page broke says "changed" (the
// settle after it then holds for no timer), the click itself unharmed.
func TestFirefoxClickChanged(t *testing.T) {
	for _, r := range realms {
		t.Run(string(r), func(t *testing.T) {
			p := open(t, "/observe.html")
			snap := p.snapshot(r)
			p.js(`(document.getElementById("nothing").onclick = () => { const b = document.getElementById("toggle"); b.setAttribute("aria-expanded", b.getAttribute("aria-expanded")); }, 1)`)
			for _, c := range []struct {
				name string
				want bool
			}{{"Details", true}, {"Add item", true}, {"Do nothing", false}} {
				e := find(t, snap, "button", c.name)
				var res pagejs.ActionResult
				p.must(r, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, &res)
				if res.Changed == nil || *res.Changed != c.want {
					t.Errorf("click %q: changed %s, want %v", c.name, boolPtr(res.Changed), c.want)
				}
			}
			if r != pageRealm {
				return
			}
			p.js(`(window.MutationObserver = function () { throw new Error("no observers here"); }, 1)`)
			e := find(t, snap, "button", "Add item")
			var res pagejs.ActionResult
			p.must(r, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP}, &res)
			if res.Changed == nil || !*res.Changed || p.js(`document.querySelectorAll("#items button").length`) != "2" {
				t.Errorf("click with the page's MutationObserver broken: changed %s, items %s; want changed, the click done", boolPtr(res.Changed), p.js(`document.querySelectorAll("#items button").length`))
			}
		})
	}
}

// boolPtr shows a *bool: "nil", "true" or "false".
func boolPtr(b *bool) string {
	if b == nil {
		return "nil"
	}
	return strconv.FormatBool(*b)
}

// TestFirefoxClickWatch: a click watches the page's timers only when a settle
// follows (ClickArgs.Watch): with it, the settle after a click that changed
// nothing but made the page set a timer holds to its cap and says so
// (TimerUnchanged); without it no watch was left, and the same settle holds
// for nothing.
func TestFirefoxClickWatch(t *testing.T) {
	p := open(t, "/timers.html")
	e := find(t, p.snapshot(isolatedRealm), "button", "Show late")
	for _, watch := range []bool{false, true} {
		began := time.Now().UnixMilli()
		var res pagejs.ActionResult
		p.must(isolatedRealm, pagejs.Click, pagejs.ClickArgs{Sel: e.Sel, FP: e.FP, Watch: watch}, &res)
		if res.Changed == nil || *res.Changed {
			t.Fatalf("watch %v: the click changed %s, want false", watch, boolPtr(res.Changed))
		}
		var sr pagejs.SettleResult
		p.must(isolatedRealm, pagejs.Settle, pagejs.SettleArgs{QuietMS: 10, CapMS: 150, LongMS: 30, Began: began, Unchanged: true}, &sr)
		if sr.TimerLeft != watch || sr.TimerUnchanged != watch || !sr.Quiet {
			t.Errorf("watch %v: settle %+v, want quiet, timerLeft and timerUnchanged %v", watch, sr, watch)
		}
	}
}
