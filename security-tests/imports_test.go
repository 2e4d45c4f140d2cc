package securitytests

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/firefox-rdp-mcp/firefox-rdp-mcp"

// goList runs `go list` at the module root with CGO_ENABLED=0 (the build
// the project ships).
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %v: %v\n%s", args, err, ee.Stderr)
		}
		t.Fatal(err)
	}
	return strings.Fields(string(out))
}

// Banned imports, each with the reason it is banned. Checked over the full
// (transitive) dependency graph of each package.
var banned = []struct {
	pkgs   []string
	banned []string
	reason string
}{
	{[]string{"mcp", "rdp", "browser", "tools", "pagejs", "broker", "confirm", "sandbox", "sandbox/selftest"}, []string{"os/exec", "plugin"},
		"code that runs after the sandbox never starts programs; only cmd starts the broker, before sandboxing"},
	{[]string{"broker"}, []string{"net/http", "crypto/tls", "net/rpc", "net/smtp", "net/mail", "mime", "os/user", "os/signal"},
		"the broker is a minimal file reader: no network protocols, no lazy reads of /etc (mime.types, passwd)"},
	{[]string{"sandbox"}, []string{"net/http", "crypto/tls", "net", "mime", "os/user"},
		"the sandbox package only talks to the kernel"},
	{[]string{"mcp"}, []string{module + "/rdp", module + "/browser", module + "/tools", "net/http"},
		"mcp knows nothing of browsers; it speaks JSON-RPC on stdio"},
	{[]string{"rdp"}, []string{module + "/mcp", module + "/browser", module + "/tools"},
		"rdp knows packets and actors, never tools"},
	{[]string{"browser"}, []string{module + "/tools", module + "/mcp"},
		"the engine sits below the tool table: it knows no tool, schema or protocol of the client"},
}

func TestBannedImports(t *testing.T) {
	for _, rule := range banned {
		for _, p := range rule.pkgs {
			path := module + "/" + p
			if _, err := os.Stat(filepath.Join("..", p)); err != nil {
				// A rule about a folder that is gone checks nothing: the
				// rule must move with the code.
				t.Errorf("rule %q names package %s, which is not in the tree: %v", rule.reason, p, err)
				continue
			}
			deps := goList(t, "-deps", "-f", "{{.ImportPath}}", path)
			for _, b := range rule.banned {
				got := "no"
				if slices.Contains(deps, b) {
					got = "yes"
				}
				record(t, "imports", p+" depends on "+b, "no", got)
			}
		}
	}
}

// The dependency arrows of DESIGN.md: each room imports only the module
// packages and third-party modules listed here, plus the standard library.
// internal/errcode, the one definition of the error codes and their facts,
// is a standard-library-only leaf that every room naming a code may import.
var arrows = map[string][]string{
	"mcp":              {errcodePkg},
	"pagejs":           {errcodePkg},
	"rdp":              {"github.com/gorilla/websocket", "golang.org/x/sys/unix"},
	"broker":           {errcodePkg, "golang.org/x/sys/unix"},
	"sandbox":          {module + "/internal/build", "github.com/landlock-lsm/go-landlock/landlock", "github.com/landlock-lsm/go-landlock/landlock/syscall", "golang.org/x/sys/unix"},
	"sandbox/selftest": {module + "/sandbox", "golang.org/x/sys/unix"},
	"browser":          {module + "/rdp", module + "/pagejs", module + "/broker", module + "/confirm", errcodePkg},
	// The lock's vocabulary and the channel to the window helper; the
	// programs are started by cmd's helper role (only cmd imports os/exec).
	"confirm": {"golang.org/x/sys/unix"},
	// The tool table drives the engine and reads the record types the engine
	// hands it (rdp's console and network entries, tabs and captures;
	// pagejs's script arguments and results); it holds no connection.
	// (confirm: the categories of the intent argument.)
	"tools":            {module + "/browser", module + "/pagejs", module + "/rdp", module + "/confirm", errcodePkg},
	"internal/errcode": {},
}

const errcodePkg = module + "/internal/errcode"

// protocolFree are the packages that wire or report but speak no protocol
// of their own: what they learn from Firefox they learn through the engine
// (browser.Probe, browser.Greet), whose protocol code is tested there.
var protocolFree = struct {
	pkgs, banned []string
}{
	[]string{"./cmd/...", "./internal/doctor"},
	[]string{module + "/rdp", "github.com/gorilla/websocket"},
}

// TestCmdHoldsNoProtocol: cmd only wires (DESIGN, issue 11): neither it nor
// doctor imports the RDP client or the WebSocket library directly.
func TestCmdHoldsNoProtocol(t *testing.T) {
	lines := goList(t, append([]string{"-f", `{{.ImportPath}}:{{join .Imports ","}}`}, protocolFree.pkgs...)...)
	if len(lines) < len(protocolFree.pkgs) {
		t.Fatalf("go list %v found %d packages: a rule about a folder that is gone checks nothing", protocolFree.pkgs, len(lines))
	}
	var bad []string
	for _, l := range lines {
		pkg, imports, _ := strings.Cut(l, ":")
		for _, imp := range strings.Split(imports, ",") {
			if slices.Contains(protocolFree.banned, imp) {
				bad = append(bad, pkg+" imports "+imp)
			}
		}
	}
	got := strings.Join(bad, ",")
	if got == "" {
		got = "none"
	}
	record(t, "imports", "cmd and doctor import protocol packages", "none", got)
}

// stdlib reports whether an import path is in the standard library (its
// first element has no dot).
func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func TestDesignArrows(t *testing.T) {
	for p, allowed := range arrows {
		path := module + "/" + p
		imports := goList(t, "-f", `{{join .Imports " "}}`, path)
		var bad []string
		for _, imp := range imports {
			if !stdlib(imp) && !slices.Contains(allowed, imp) {
				bad = append(bad, imp)
			}
		}
		got := strings.Join(bad, ",")
		if got == "" {
			got = "none"
		}
		record(t, "imports", p+" imports beyond its DESIGN arrows", "none", got)
	}
}

// testSupport are the packages that exist only for tests (their package doc
// says so) and may import testing, each with what it is for.
var testSupport = []string{
	module + "/internal/benchutil", // the benchmarks' timing and figures
	module + "/internal/npmlibs",   // page libraries fetched from npm for tests
	module + "/rdp/rdptest",        // the fake Firefox peer of rdp's and browser's protocol edge-case tests
	module + "/internal/xwin",      // Xvfb and xdotool for the confirmation window's tests
}

// No production package imports testing: it would link test flags and
// helpers into the shipped binaries.
func TestNoTestingInProduction(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}}:{{range .Imports}}{{if eq . "testing"}}TESTING{{end}}{{end}}`, "./...")
	var users []string
	for _, l := range lines {
		if p, ok := strings.CutSuffix(l, ":TESTING"); ok && !slices.Contains(testSupport, p) {
			users = append(users, p)
		}
	}
	for _, bin := range []string{"./cmd/firefox-rdp-mcp", "./internal/demo"} {
		if slices.Contains(goList(t, "-deps", bin), "testing") {
			users = append(users, bin+" (transitively)")
		}
	}
	got := strings.Join(users, ",")
	if got == "" {
		got = "none"
	}
	record(t, "imports", "production packages importing testing", "none", got)
}

// Within the shipped binary, only cmd imports os/exec directly.
func TestOnlyCmdImportsExec(t *testing.T) {
	lines := goList(t, "-deps", "-f", `{{.ImportPath}}:{{range .Imports}}{{if eq . "os/exec"}}EXEC{{end}}{{end}}`, "./cmd/firefox-rdp-mcp")
	var users []string
	for _, l := range lines {
		if strings.HasSuffix(l, ":EXEC") && strings.HasPrefix(l, module) {
			users = append(users, strings.TrimSuffix(l, ":EXEC"))
		}
	}
	record(t, "imports", "module packages in the binary importing os/exec", module+"/cmd/firefox-rdp-mcp", strings.Join(users, ","))
}

// The broker uses package net only for its already-connected socketpair:
// no Dial, Listen or resolver.
func TestBrokerNetUsage(t *testing.T) {
	allowed := map[string]bool{"UnixConn": true, "ErrClosed": true}
	fset := token.NewFileSet()
	files, err := filepath.Glob("../broker/*.go")
	if err != nil || len(files) == 0 {
		t.Skip("broker sources not present")
	}
	var used []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "net" && !allowed[sel.Sel.Name] {
					used = append(used, "net."+sel.Sel.Name)
				}
			}
			return true
		})
	}
	got := strings.Join(used, ",")
	if got == "" {
		got = "none"
	}
	record(t, "imports", "broker uses net beyond UnixConn/ErrClosed", "none", got)
}
