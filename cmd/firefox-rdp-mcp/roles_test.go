package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/config"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// TestMain lets the test binary play the hidden roles, exactly as the real
// binary does when startBroker re-executes /proc/self/exe.
func TestMain(m *testing.M) {
	if handled, code := runRole(os.Args); handled {
		os.Exit(code)
	}
	if path := os.Getenv("ROLES_TEST_LISTEN_UNIX"); path != "" {
		os.Exit(listenUnixChild(path))
	}
	if os.Getenv("ROLES_TEST_ENTER_SANDBOX") != "" {
		os.Exit(enterSandboxChild())
	}
	if os.Getenv(runAsCommand) == "1" { // the command itself, as its user runs it (readme_test.go)
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func TestBrokerArgsRoundTrip(t *testing.T) {
	for _, cfg := range []broker.Config{
		{Roots: []string{"/a", "/b c/-d"}, MaxFileBytes: 5, MaxCallBytes: 9},
		{Roots: []string{"/a"}, MaxFileBytes: 5, MaxCallBytes: 9, AllowHardlinks: true},
		{MaxFileBytes: 1 << 30, MaxCallBytes: 1 << 31},
		{MaxFileBytes: 1, MaxCallBytes: 1, NoFiles: true, RDPSocket: "/run/user/1000/firefox-rdp-mcp/rdp.sock"},
	} {
		args := brokerArgs(cfg, build.SandboxEnforce)
		if args[1] != roleBroker {
			t.Fatalf("args %q", args)
		}
		got, mode, err := brokerFlags(args[2:], io.Discard)
		if err != nil || mode != build.SandboxEnforce || !reflect.DeepEqual(got, cfg) {
			t.Errorf("round trip: %+v %v %v, want %+v", got, mode, err, cfg)
		}
	}
	if _, _, err := brokerFlags([]string{"-max-file-bytes=0", "-max-call-bytes=1"}, io.Discard); err == nil {
		t.Error("zero limit accepted")
	}
	if _, _, err := brokerFlags([]string{"-sandbox=maybe", "-max-file-bytes=1", "-max-call-bytes=1"}, io.Discard); err == nil {
		t.Error("bad mode accepted")
	}
}

// TestHardlinkHintNamesTheVariable: the broker's refusal tells the user
// the variable internal/config reads.
func TestHardlinkHintNamesTheVariable(t *testing.T) {
	if !strings.Contains(broker.HardlinkHint, config.EnvAllowHardlinks+"=1") {
		t.Errorf("broker.HardlinkHint %q does not name %s", broker.HardlinkHint, config.EnvAllowHardlinks)
	}
}

func TestRunRoleIgnoresOrdinaryArgs(t *testing.T) {
	for _, args := range [][]string{{"x"}, {"x", "serve"}, {"x", "doctor"}, {"x", "__broker"}, {"x", "__selftest-server"}} {
		if handled, _ := runRole(args); handled {
			t.Errorf("%q handled as a role", args)
		}
	}
}

// startBroker end to end: the test binary re-executed as a sandboxed broker.
func TestStartBroker(t *testing.T) {
	if len(sandbox.Probe().Missing) > 0 {
		t.Skip("kernel cannot sandbox")
	}
	root := t.TempDir()
	want := bytes.Repeat([]byte("upload "), 30000)
	if err := os.WriteFile(filepath.Join(root, "cv.txt"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	c, _, proc, err := startBroker(broker.Config{Roots: []string{root}, MaxFileBytes: 1 << 20, MaxCallBytes: 1 << 20}, build.SandboxEnforce)
	if err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", proc.Pid))
	if err != nil {
		t.Fatal(err)
	}
	st, err := sandbox.ParseStatus(status)
	if err != nil || !st.Confined() {
		t.Fatalf("broker not confined when startBroker returned: %+v %v", st, err)
	}
	ctx := context.Background()
	files, err := c.Stat(ctx, []string{filepath.Join(root, "cv.txt")})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := c.Stream(ctx, files[0].Handle, func(p []byte) error { got.Write(p); return nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) || files[0].MIME != "text/plain; charset=utf-8" {
		t.Fatalf("streamed %d bytes, MIME %q", got.Len(), files[0].MIME)
	}
	_, err = c.Stat(ctx, []string{"/etc/passwd"})
	if !errors.Is(err, broker.ErrFileInvalid) {
		t.Fatalf("outside root: %v", err)
	}
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", proc.Pid))
		if err != nil || strings.Contains(string(b), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("broker still running after Close")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A broker that cannot start (missing root) fails startBroker promptly.
func TestStartBrokerFailure(t *testing.T) {
	start := time.Now()
	_, _, _, err := startBroker(broker.Config{Roots: []string{"/nonexistent-upload-root"}, MaxFileBytes: 1, MaxCallBytes: 1}, build.SandboxEnforce)
	if err == nil {
		t.Fatal("started")
	}
	if d := time.Since(start); d > brokerStartTimeout/2 {
		t.Errorf("took %v", d)
	}
}

func TestExplainSandboxError(t *testing.T) {
	err := explainSandboxError(&sandbox.UnsupportedError{Missing: []string{"Landlock ABI 6 or newer"}})
	msg := err.Error()
	for _, want := range []string{"Landlock ABI 6 or newer", "To proceed", "Linux 6.12"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "FIREFOX_MCP_SANDBOX=off") != build.OffAllowed {
		t.Errorf("off advice does not match the build:\n%s", msg)
	}
	other := errors.New("x")
	if explainSandboxError(other) != other {
		t.Error("other errors must pass through")
	}
}

func TestEnterSandboxOff(t *testing.T) {
	var buf bytes.Buffer
	rep, err := enterSandbox(build.SandboxOff, 6000, slog.New(slog.NewTextHandler(&buf, nil)))
	if !build.OffAllowed {
		if err == nil {
			t.Fatal("off accepted in a packaged build")
		}
		return
	}
	if err != nil || rep.Mode != build.SandboxOff || !strings.Contains(buf.String(), "SANDBOX DISABLED") {
		t.Fatalf("%+v %v %q", rep, err, buf.String())
	}
}

// enterSandbox(enforce) in a child: afterwards files are gone.
func TestEnterSandboxEnforce(t *testing.T) {
	if len(sandbox.Probe().Missing) > 0 {
		t.Skip("kernel cannot sandbox")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ROLES_TEST_ENTER_SANDBOX=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "mode=enforce open=permission denied") {
		t.Fatalf("%v: %s", err, out)
	}
}

func enterSandboxChild() int {
	rep, err := enterSandbox(build.SandboxEnforce, 6000, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, err = os.Open("/etc/passwd")
	msg := "none"
	if err != nil {
		msg = errors.Unwrap(err).Error()
	}
	fmt.Fprintf(os.Stderr, "mode=%s open=%s syscalls=%d\n", rep.Mode, msg, rep.Syscalls)
	return 0
}
