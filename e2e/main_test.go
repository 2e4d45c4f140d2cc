// Package e2e drives the real built firefox-rdp-mcp binary over stdio, as
// MCP hosts do, against a real headless Firefox ESR: interoperability with
// the official Go MCP SDK client, and start-up benchmarks.
package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/fixtures"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

var (
	binary       string // the server binary under test
	packagedPath string // where packagedBinary builds the -tags packaged one
	firefox      = &headless.Shared{}
	pages        *httptest.Server // the interop page
	fx           *httptest.Server // internal/fixtures
)

const page = `<!doctype html><html><head><meta charset="utf-8"><title>E2E fixture</title></head>
<body><h1>Hello from the e2e fixture</h1><label for="q">Query</label><input id="q"><button>Go</button></body></html>`

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "firefox-rdp-mcp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = os.Getenv("FIREFOX_MCP_BINARY")
	if binary == "" {
		binary = filepath.Join(dir, "firefox-rdp-mcp")
		build := exec.Command("go", "build", "-o", binary, "../cmd/firefox-rdp-mcp")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building the server: %v\n%s", err, out)
			return 1
		}
	}
	packagedPath = filepath.Join(dir, "firefox-rdp-mcp-packaged")
	pages = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer pages.Close()
	fx = fixtures.Server()
	defer fx.Close()
	firefox.Options.URL = pages.URL + "/"
	defer firefox.Stop()
	return m.Run()
}

var packagedOnce sync.Once

// packagedBinary builds the server with -tags packaged (once).
func packagedBinary(t testing.TB) string {
	t.Helper()
	var err error
	var out []byte
	packagedOnce.Do(func() {
		build := exec.Command("go", "build", "-tags", "packaged", "-o", packagedPath, "../cmd/firefox-rdp-mcp")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err = build.CombinedOutput()
	})
	if err != nil {
		t.Fatalf("building the packaged server: %v\n%s", err, out)
	}
	if _, err := os.Stat(packagedPath); err != nil {
		t.Fatalf("no packaged binary: %v", err)
	}
	return packagedPath
}
