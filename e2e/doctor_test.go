package e2e

import (
	"errors"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestDoctor runs `firefox-rdp-mcp doctor` against the real Firefox, and
// against a port nothing listens on.
func TestDoctor(t *testing.T) {
	ff := firefox.Get(t)
	run := func(env ...string) (string, int) {
		cmd := exec.Command(binary, "doctor")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	out, code := run("FIREFOX_RDP_SOCKET=" + ff.Socket)
	if code != 0 {
		t.Fatalf("doctor exit %d:\n%s", code, out)
	}
	for _, want := range []string{"[ok  ] endpoint reachable", "[ok  ] Firefox greeting", "[ok  ] Firefox version", "Firefox",
		"[ok  ] tab evaluation", "[ok  ] trusted input", "[ok  ] kernel sandbox", "Landlock ABI", "All checks passed."} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}

	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	out, code = run("FIREFOX_RDP_PORT="+strconv.Itoa(port), "FIREFOX_MCP_UPLOAD_ROOTS=/nonexistent/dir")
	if code == 0 || !strings.Contains(out, "[FAIL] endpoint reachable") || !strings.Contains(out, "--start-debugger-server ws:"+strconv.Itoa(port)) ||
		!strings.Contains(out, "[FAIL] upload root") {
		t.Errorf("doctor with nothing listening: exit %d:\n%s", code, out)
	}
	out, code = run("FIREFOX_RDP_HOST=192.168.1.1")
	if code == 0 || !strings.Contains(out, "FIREFOX_RDP_HOST") || !strings.Contains(out, "not loopback") {
		t.Errorf("doctor with a LAN host: exit %d:\n%s", code, out)
	}
}
