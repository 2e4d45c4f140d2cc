package errcode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// declared lists the Code constants errcode.go declares, by value.
func declared(t *testing.T) []Code {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errcode.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []Code
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			t.Fatalf("constant %s is not a literal", vs.Names[0].Name)
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, Code(v))
		return true
	})
	return codes
}

// TestTableComplete: every declared code has its facts, the table holds
// nothing else, and no two constants share a value.
func TestTableComplete(t *testing.T) {
	codes := declared(t)
	if len(codes) < 30 {
		t.Fatalf("found only %d Code constants in errcode.go", len(codes))
	}
	seen := map[Code]bool{}
	for _, c := range codes {
		if seen[c] {
			t.Errorf("two constants are %q", c)
		}
		seen[c] = true
		if !c.Known() {
			t.Errorf("%s has no entry in the table", c)
		}
	}
	if len(table) != len(seen) {
		t.Errorf("the table has %d entries, errcode.go declares %d codes", len(table), len(seen))
	}
	if len(All()) != len(table) {
		t.Errorf("All returns %d codes, the table has %d", len(All()), len(table))
	}
}

// TestNonToolCodes: codes that never reach a tool result are not
// retryable and map to a tool code where a page script uses them.
func TestNonToolCodes(t *testing.T) {
	for _, c := range []Code{InvalidArgument, ResidentMissing, BrokerUnavailable, BrokerProtocol} {
		if c.Tool() || c.Retryable() {
			t.Errorf("%s: tool %v, retryable %v; want neither", c, c.Tool(), c.Retryable())
		}
		if got := FromScript(c); !got.Tool() {
			t.Errorf("FromScript(%s) = %s, not a tool code", c, got)
		}
	}
}

// TestFromScript: a script keeps the tool codes the scripts raise; its
// own spelling of invalid arguments is translated; anything else (the
// server's own claims among them) is page_script_failed.
func TestFromScript(t *testing.T) {
	for _, c := range All() {
		want := c
		if !c.Raised() {
			want = PageScriptFailed
		}
		if c == InvalidArgument {
			want = InvalidArguments
		}
		if got := FromScript(c); got != want {
			t.Errorf("FromScript(%s) = %s, want %s", c, got, want)
		}
	}
	for _, c := range []Code{NotConnected, ConnectionLost, UploadsDisabled, DialogOpen, Cancelled, PageUnresponsive, InternalError} {
		if c.Raised() {
			t.Errorf("%s is the server's claim, but a script may raise it", c)
		}
	}
	for _, c := range []Code{"", "made_up", "Stale_Element", "stale_element "} {
		if got := FromScript(c); got != PageScriptFailed {
			t.Errorf("FromScript(%q) = %s, want page_script_failed", c, got)
		}
	}
}
