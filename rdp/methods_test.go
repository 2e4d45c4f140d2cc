package rdp

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sendCalls are the functions a request goes out through, and the index of
// the request argument in each.
var sendCalls = map[string]int{"Request": 2, "RequestData": 2, "notify": 1, "encodeRequest": 1}

// TestMethodAllowlist compares Methods with every request type the code of
// rdp and browser can send: each call of Request, RequestData, notify or
// encodeRequest must name its type as a literal (in the call or in the
// variable it passes, set in the same function), every such type must be
// in Methods, and every row of Methods must be sent somewhere.
func TestMethodAllowlist(t *testing.T) {
	sent := map[string][]string{}
	for _, dir := range []string{".", "../browser"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for typ, at := range scanRequests(t, f) {
				sent[typ] = append(sent[typ], at...)
			}
		}
	}
	if len(sent) < 10 {
		t.Fatalf("the scan found %d request types: it no longer sees the code", len(sent))
	}
	for typ, at := range sent {
		if !allowed[typ] {
			t.Errorf("%q is sent at %v but is not in rdp.Methods", typ, at)
		}
	}
	for _, m := range Methods {
		if sent[m.Type] == nil {
			t.Errorf("rdp.Methods lists %q (%s), which the code never sends: remove the row", m.Type, m.Why)
		}
		if m.Why == "" || m.Actor == "" {
			t.Errorf("row %q needs its actor and its reason", m.Type)
		}
	}
}

// scanRequests finds the request types the calls in one file send.
func scanRequests(t *testing.T, file string) map[string][]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			idx, ok := sendCalls[calleeName(call.Fun)]
			if !ok || len(call.Args) <= idx {
				return true
			}
			at := fset.Position(call.Pos()).String()
			if isParam(fn, call.Args[idx]) {
				return true // a pass-through (Request to encodeRequest): its callers are scanned
			}
			typs := requestTypes(fn.Body, call.Args[idx])
			if len(typs) == 0 {
				t.Errorf("%s: cannot see the request type this call sends; give it as a literal Type field", at)
			}
			for _, typ := range typs {
				out[typ] = append(out[typ], at)
			}
			return true
		})
	}
	return out
}

func isParam(fn *ast.FuncDecl, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			if n.Name == id.Name {
				return true
			}
		}
	}
	return false
}

func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// requestTypes is the Type of a request argument: a composite literal's, or
// that of the literal a variable of the function was set to (its
// declaration and any later x.Type = "…").
func requestTypes(body *ast.BlockStmt, arg ast.Expr) []string {
	if lit, ok := arg.(*ast.CompositeLit); ok {
		return litType(lit)
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return nil
	}
	var typs []string
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, lhs := range as.Lhs {
			if i >= len(as.Rhs) {
				break
			}
			switch l := lhs.(type) {
			case *ast.Ident:
				if lit, ok := as.Rhs[i].(*ast.CompositeLit); ok && l.Name == id.Name {
					typs = append(typs, litType(lit)...)
				}
			case *ast.SelectorExpr:
				if x, ok := l.X.(*ast.Ident); ok && x.Name == id.Name && l.Sel.Name == "Type" {
					typs = append(typs, strLit(as.Rhs[i])...)
				}
			}
		}
		return true
	})
	return typs
}

func litType(lit *ast.CompositeLit) []string {
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Type" {
			return strLit(kv.Value)
		}
		if k, ok := kv.Key.(*ast.BasicLit); ok && k.Value == `"type"` {
			return strLit(kv.Value)
		}
	}
	return nil
}

func strLit(e ast.Expr) []string {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return nil
	}
	s, err := strconv.Unquote(b.Value)
	if err != nil {
		return nil
	}
	return []string{s}
}

// TestMethodRefusedBeforeSocket: a type the allowlist lacks never reaches
// the socket; the request fails at once with ErrMethodNotAllowed.
func TestMethodRefusedBeforeSocket(t *testing.T) {
	_, _, err := encodeRequest("root", map[string]string{"type": "getWalker"})
	if !errors.Is(err, ErrMethodNotAllowed) {
		t.Fatalf("getWalker: %v; want ErrMethodNotAllowed", err)
	}
	for _, m := range Methods {
		if _, typ, err := encodeRequest("a", map[string]string{"type": m.Type}); err != nil || typ != m.Type {
			t.Errorf("%s: %v", m.Type, err)
		}
	}
	if !slices.ContainsFunc(Methods, func(m Method) bool { return m.Type == "evaluateJSAsync" }) {
		t.Fatal("evaluateJSAsync is missing")
	}
}
