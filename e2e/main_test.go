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
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

var (
	binary  string // the server binary under test
	firefox = &headless.Shared{}
	pages   *httptest.Server
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
	pages = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer pages.Close()
	firefox.Options.URL = pages.URL + "/"
	defer firefox.Stop()
	return m.Run()
}
