package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/headless"
)

// TestDemoPiped runs the whole demo with its output going to a pipe, as in
// a CI log: it succeeds and writes no terminal escape codes.
func TestDemoPiped(t *testing.T) {
	_, err := headless.Find()
	headless.SkipOrFail(t, err)
	if testing.Short() {
		t.Skip("the demo builds the server and starts Firefox")
	}
	bin := filepath.Join(t.TempDir(), "demo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the demo: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Dir = "../.." // the demo builds ./cmd/firefox-rdp-mcp from the repository root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "TERM=xterm-256color")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("demo: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	if i := bytes.IndexByte(out.Bytes(), 0x1b); i >= 0 {
		t.Errorf("escape code in piped stdout at byte %d: %q", i, out.Bytes()[max(0, i-20):min(out.Len(), i+20)])
	}
	if bytes.IndexByte(errb.Bytes(), 0x1b) >= 0 {
		t.Errorf("escape code in piped stderr:\n%q", errb.String())
	}
	for _, want := range []string{"▶ Building the server", "first build compiles everything", "▶ tools/list", "upload_files"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
}
