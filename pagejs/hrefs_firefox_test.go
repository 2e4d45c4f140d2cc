package pagejs_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/pagejs"
)

// TestFirefoxLinkHrefs: a link's href and fingerprint href, which the snapshot takes
// apart from the serialized href (or, for a plain path-absolute href, builds from the
// base URL without asking the element), agree with the URL API's origin, pathname,
// search and hash (computed here by test code in the page) for every shape of URL, in
// both realms, also under a <base> of another origin: credentials never appear,
// same-origin links are origin-relative.
func TestFirefoxLinkHrefs(t *testing.T) {
	p := open(t, "/forms.html")
	hrefs := []string{
		"http://user:pass@127.0.0.1:1/x?y=1#z",
		"https://a%40b:c@example.com:443/p?",
		"https://user@example.com",
		"http://example.com:80/p#",
		"http://example.com/p?#",
		"/same?x=1#frag",
		"#top",
		"?only=query",
		"HTTP://EXAMPLE.COM/Up/../x",
		"http://[::1]:8080/v6?a=b",
		"http://ñandú.example/ä?é#ü",
		"https://example.com/a?b=c?d#e#f",
		"mailto:x@y.example?subject=hi",
		"javascript:void(0)",
		"data:text/plain,hi?x#y",
		"ftp://example.com/p?x#y",
		"HTTPS://Example.com:8443",
		// Path-absolute: the plain ones are built from the base URL, the others
		// resolved by the element; both must read the same.
		"/", "/p", "/A/B_c-d.e~f?G=H&i=j#K", "/~u/(p)*!$,+:@;=&-._?q=(1)*!$,+:@;=&/?#f(1)*!$,+:@;=&/?",
		"/p?", "/p#", "/p?#", "/p?x#y#z", "/p#a?b", "/a/./b", "/a/../b", "/a/.", "/.hidden", "/a//b", "//host/p",
		"/x y", " /lead", "/trail ", "/a\tb", "/a\nb", "/ä?é#ü", "/p%20q", "/p%zz", "/p%2e%2E/q", "/p'q?r's#t'u",
		"/p\\q", "/p|q", "/p^q", "/p{q}", "/p`q", "/p\"q", "/p<q>", "/p[q]?[r]#[s]", "/p?a b#c d", "/a:b@c",
	}
	check := func(base string) {
		raw, _ := json.Marshal(hrefs)
		// Test code (not a product script): adds the links and computes the expected values.
		want := p.js(`(() => { document.getElementById("hrefs-box")?.remove(); const out = []; const box = document.createElement("div"); ` +
			`box.id = "hrefs-box"; document.body.prepend(box); ` +
			`for (const [i, h] of ` + string(raw) + `.entries()) { const a = document.createElement("a"); a.setAttribute("href", h); a.textContent = "L" + i; box.append(a, " "); ` +
			`let d, f; if (a.protocol === "http:" || a.protocol === "https:") { const rest = a.pathname + a.search + a.hash; ` +
			`d = a.origin === location.origin ? rest : a.origin + rest; f = a.origin + rest; } ` +
			`else if (a.protocol === "javascript:") { d = f = "javascript:"; } else { d = f = a.href; } ` +
			`out.push([d, f]); } return JSON.stringify(out); })()`)
		var expect [][2]string
		if err := json.Unmarshal([]byte(want), &expect); err != nil {
			t.Fatal(err)
		}
		for _, r := range realms {
			s := p.snapshot(r)
			byName := map[string]pagejs.Element{}
			for _, e := range s.Elements {
				byName[e.Name] = e
			}
			for i, h := range hrefs {
				e, ok := byName["L"+strconv.Itoa(i)]
				if !ok {
					t.Errorf("%s%s: no link for %q", r, base, h)
					continue
				}
				if e.Href != expect[i][0] || e.FP.Href != expect[i][1] {
					t.Errorf("%s%s: %q: href %q fp %q, want %q and %q", r, base, h, e.Href, e.FP.Href, expect[i][0], expect[i][1])
				}
			}
		}
	}
	check("")
	p.js(`(() => { const b = document.createElement("base"); b.href = "http://u:pw@Other.Example:8080/dir/x?q#f"; document.head.prepend(b); return document.baseURI; })()`)
	check(" (base of another origin)")
}
