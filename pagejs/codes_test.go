package pagejs

import (
	"regexp"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/errcode"
)

// codeUse finds where a page script names an error code: lib.fail(code, …)
// or fail(…), a thrown object's code (in any place of the literal), an
// object literal opening with code: (an envelope) or error: (the upload
// sink's actor replies), and comparisons with a caught error's .code. The
// capture is the expression named: a string literal, or anything else.
// (A KeyboardEvent's init dictionary also has a code, never first.)
var codeUse = regexp.MustCompile(`(?:\bfail\(\s*|\bthrow\s*\{[^}]*?\bcode:\s*|\{\s*(?:code|error):\s*|\.code\s*===?\s*)` +
	`("[^"]*"|'[^']*'|` + "`[^`]*`" + `|[^\s,)}]+)`)

// notCodes are the non-literal expressions codeUse finds that are not an
// error code a script picks, each with the reason.
var notCodes = map[string]string{
	"lib.js code": "fail's own parameter: its callers pass the literal",
}

// TestScriptCodesDefined: every error code a page script can report is one
// errcode defines, and one that becomes a tool code of its own (never the
// catch-all page_script_failed, which would hide what the script meant).
// A script that names its code through a variable fails the test: the
// codes a script reports must be readable where it reports them.
func TestScriptCodesDefined(t *testing.T) {
	entries, err := jsFS.ReadDir("js")
	if err != nil {
		t.Fatal(err)
	}
	found := map[errcode.Code]string{} // code → the first file naming it
	for _, e := range entries {
		raw, err := jsFS.ReadFile("js/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codeUse.FindAllStringSubmatch(string(raw), -1) {
			expr := m[1]
			if q := expr[0]; q != '"' && q != '\'' && q != '`' {
				if _, ok := notCodes[e.Name()+" "+expr]; !ok {
					t.Errorf("%s names an error code through %q: use the code's literal", e.Name(), m[0])
				}
				continue
			}
			code := errcode.Code(expr[1 : len(expr)-1])
			if _, seen := found[code]; !seen {
				found[code] = e.Name()
			}
		}
	}
	for code, file := range found {
		switch {
		case !code.Known():
			t.Errorf("%s reports %q, which errcode does not define", file, code)
		case errcode.FromScript(code) == errcode.PageScriptFailed:
			t.Errorf("%s reports %q, which becomes page_script_failed", file, code)
		}
	}
	// Every code errcode lets a script raise is one a script does raise (a
	// stale allowance would let a page-realm page put it in the server's
	// mouth); the wrapper's own target_replaced is in uploadFinish.js too.
	for _, c := range errcode.All() {
		if _, ok := found[c]; c.Raised() && !ok {
			t.Errorf("errcode lets scripts raise %s, but no script does", c)
		}
	}
	// The scan must see the scripts' codes at all (a regexp that matches
	// nothing would pass the loop above).
	for _, c := range []errcode.Code{errcode.StaleElement, errcode.TabNotFound, errcode.UploadTransferFailed, errcode.InvalidArgument, errcode.TargetReplaced} {
		if _, ok := found[c]; !ok {
			t.Errorf("the scan found no script reporting %s; found %v", c, found)
		}
	}
}

// TestScriptCodeScan: the scan's forms, on made-up script text.
func TestScriptCodeScan(t *testing.T) {
	src := `lib.fail("a_b", "m"); throw {code: "c_d", message: "m"}; const r = {error: 'e_f', message}; if (e.code === "g_h") fail(x, "m"); ` +
		`throw {message: "m", code: y}; return {code: "i_j", message}; new KeyboardEvent("", {key: "Enter", code: "Enter"}); const st = {name: n, error: ""};`
	var got []string
	for _, m := range codeUse.FindAllStringSubmatch(src, -1) {
		got = append(got, m[1])
	}
	if want := `"a_b" "c_d" 'e_f' "g_h" x y "i_j"`; strings.Join(got, " ") != want {
		t.Errorf("scan found %q, want %s", got, want)
	}
}
