package config

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
)

type fakeResolver map[string][]netip.Addr

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	a, ok := f[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	return a, nil
}

var resolver = fakeResolver{
	"localhost":     {netip.MustParseAddr("::1"), netip.MustParseAddr("127.0.0.1")},
	"v6only":        {netip.MustParseAddr("::1")},
	"evil.example":  {netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.168.1.5")},
	"lan.example":   {netip.MustParseAddr("10.0.0.2")},
	"empty.example": {},
}

func load(t *testing.T, env map[string]string) (Config, error) {
	t.Helper()
	return Load(context.Background(), func(k string) string { return env[k] }, resolver)
}

func TestDefaults(t *testing.T) {
	c, err := load(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(os.TempDir(), "firefox-rdp-mcp-"+strconv.Itoa(os.Getuid()), "rdp.sock"); c.Socket != want || c.Addr.IsValid() {
		t.Errorf("Socket = %q, Addr = %v; want the Unix socket %s", c.Socket, c.Addr, want)
	}
	if c.MaxFileBytes != 26214400 || c.MaxUploadBytes != 52428800 || c.ChunkBytes != 131072 ||
		c.MaxElements != 500 || c.MaxTextChars != 50000 || c.RequestTimeout != 30*time.Second {
		t.Errorf("defaults wrong: %+v", c)
	}
	if c.Sandbox != build.SandboxEnforce {
		t.Errorf("Sandbox = %q", c.Sandbox)
	}
	if c.UploadsEnabled == build.Packaged {
		t.Errorf("UploadsEnabled = %v in a build with build.Packaged = %v", c.UploadsEnabled, build.Packaged)
	}
}

// The debugger's Unix socket is the default endpoint: in XDG_RUNTIME_DIR
// when there is one; FIREFOX_RDP_HOST or FIREFOX_RDP_PORT choose ws:
// instead, and naming both kinds is an error.
func TestSocket(t *testing.T) {
	c, err := load(t, map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"})
	if err != nil || c.Socket != "/run/user/1000/firefox-rdp-mcp/rdp.sock" || c.Endpoint() != "unix:/run/user/1000/firefox-rdp-mcp/rdp.sock" {
		t.Errorf("with XDG_RUNTIME_DIR: %q %v", c.Socket, err)
	}
	c, err = load(t, map[string]string{EnvSocket: "/home/me/.rdp/ff.sock"})
	if err != nil || c.Socket != "/home/me/.rdp/ff.sock" || c.DebuggerArg() != "/home/me/.rdp/ff.sock" {
		t.Errorf("explicit: %q %v", c.Socket, err)
	}
	c, err = load(t, map[string]string{EnvPort: "6001"})
	if err != nil || c.Socket != "" || c.Addr != netip.MustParseAddrPort("127.0.0.1:6001") || c.DebuggerArg() != "ws:6001" {
		t.Errorf("port: %q %v %v", c.Socket, c.Addr, err)
	}
	c, err = load(t, map[string]string{EnvHost: "localhost"})
	if err != nil || c.Socket != "" || c.Addr.Port() != 6000 {
		t.Errorf("host only: %q %v %v", c.Socket, c.Addr, err)
	}
	for _, bad := range []map[string]string{
		{EnvSocket: "rdp.sock"}, {EnvSocket: "/tmp/../tmp/x.sock"}, {EnvSocket: "/" + strings.Repeat("a", 120)},
		{EnvSocket: "/tmp/x.sock", EnvPort: "6000"},
	} {
		_, err := load(t, bad)
		var ce *Error
		if !errors.As(err, &ce) || ce.Var != EnvSocket {
			t.Errorf("%v: err = %v, want one naming %s", bad, err, EnvSocket)
		}
	}
}

// The socket's directory must be the user's alone: Firefox makes the
// socket itself mode 0666.
func TestCheckSocketDir(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700) // t.TempDir makes it 0755
	if err := CheckSocketDir(filepath.Join(dir, "missing", "rdp.sock")); err != nil {
		t.Errorf("missing directory: %v", err)
	}
	if err := CheckSocketDir(filepath.Join(dir, "rdp.sock")); err != nil {
		t.Errorf("0700 directory: %v", err)
	}
	os.Chmod(dir, 0o755)
	if err := CheckSocketDir(filepath.Join(dir, "rdp.sock")); err == nil || !strings.Contains(err.Error(), "chmod 700") {
		t.Errorf("0755 directory: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o600)
	if err := CheckSocketDir(filepath.Join(dir, "file", "rdp.sock")); err == nil {
		t.Error("a file as the directory: no error")
	}
}

func TestHosts(t *testing.T) {
	for host, want := range map[string]string{
		"127.0.0.1": "127.0.0.1", "127.3.4.5": "127.3.4.5", "::1": "::1", "[::1]": "::1",
		"localhost": "127.0.0.1", "v6only": "::1", "::ffff:127.0.0.1": "127.0.0.1",
	} {
		c, err := load(t, map[string]string{EnvHost: host, EnvPort: "6001"})
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		if c.Addr.Addr().String() != want || c.Addr.Port() != 6001 {
			t.Errorf("%s: Addr = %v, want %s:6001", host, c.Addr, want)
		}
	}
	for _, host := range []string{"0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "8.8.8.8",
		"evil.example", "lan.example", "empty.example", "nosuch.example", "127.0.0.1:6000", "unix:/tmp/x"} {
		_, err := load(t, map[string]string{EnvHost: host})
		var ce *Error
		if !errors.As(err, &ce) || ce.Var != EnvHost {
			t.Errorf("%s: err = %v, want an error naming %s", host, err, EnvHost)
		}
	}
}

func TestInvalidValuesNameTheirVariable(t *testing.T) {
	cases := map[string]string{
		EnvPort: "0", EnvMaxFileBytes: "-1", EnvMaxUploadBytes: "lots", EnvChunkBytes: "100",
		EnvMaxElements: "1e3", EnvMaxTextChars: "-5", EnvTimeoutMS: "10", EnvLogLevel: "verbose",
		EnvSandbox: "permissive", EnvUploadRoots: "relative/dir", EnvAllowHardlinks: "yes",
	}
	for name, value := range cases {
		_, err := load(t, map[string]string{name: value})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: err = %v, want it to name the variable", name, value, err)
		}
	}
	// All problems are reported at once.
	_, err := load(t, cases)
	for name := range cases {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("joined error lacks %s: %v", name, err)
		}
	}
}

func TestUploadRoots(t *testing.T) {
	c, err := load(t, map[string]string{EnvUploadRoots: "/home/u/Documents:/tmp/x"})
	if err != nil || len(c.UploadRoots) != 2 || c.UploadRoots[1] != "/tmp/x" || !c.UploadsEnabled {
		t.Fatalf("roots = %v, enabled = %v, err = %v", c.UploadRoots, c.UploadsEnabled, err)
	}
	for _, v := range []string{"/a::/b", "/a/", "/a/../b", "/", "/a:", "/a\x00b", "~/x"} {
		if _, err := load(t, map[string]string{EnvUploadRoots: v}); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}

// TestAllowHardlinks: off unless "1", in every build (packaged builds too:
// it is the user's own configuration, like the upload roots).
func TestAllowHardlinks(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "1": true, " 1 ": true} {
		c, err := load(t, map[string]string{EnvAllowHardlinks: v})
		if err != nil || c.AllowHardlinks != want {
			t.Errorf("%q: AllowHardlinks = %v, err = %v; want %v", v, c.AllowHardlinks, err, want)
		}
	}
	for _, v := range []string{"true", "2", "on", "-1"} {
		if _, err := load(t, map[string]string{EnvAllowHardlinks: v}); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
}

func TestSandboxOffOnlyInDevBuilds(t *testing.T) {
	c, err := load(t, map[string]string{EnvSandbox: "off"})
	if build.Packaged {
		if err == nil {
			t.Fatal("packaged build accepted sandbox off")
		}
		return
	}
	if err != nil || c.Sandbox != build.SandboxOff {
		t.Fatalf("dev build: Sandbox = %q, err = %v", c.Sandbox, err)
	}
}

// TestConfirmMode: window by default, elicit on request, off only in
// development builds; anything else names the variable.
func TestConfirmMode(t *testing.T) {
	for in, want := range map[string]build.ConfirmMode{"": build.ConfirmWindow, "window": build.ConfirmWindow, "elicit": build.ConfirmElicit} {
		if c, err := load(t, map[string]string{EnvConfirm: in}); err != nil || c.Confirm != want {
			t.Errorf("%q: %q, %v", in, c.Confirm, err)
		}
	}
	c, err := load(t, map[string]string{EnvConfirm: "off"})
	switch {
	case build.Packaged && (err == nil || !strings.Contains(err.Error(), EnvConfirm)):
		t.Errorf("packaged build: off gave %v", err)
	case !build.Packaged && (err != nil || c.Confirm != build.ConfirmOff):
		t.Errorf("dev build: off gave %q, %v", c.Confirm, err)
	}
	if _, err := load(t, map[string]string{EnvConfirm: "never"}); err == nil || !strings.Contains(err.Error(), EnvConfirm) {
		t.Errorf("never: %v", err)
	}
}

func TestLogLevel(t *testing.T) {
	c, err := load(t, map[string]string{EnvLogLevel: "DEBUG"})
	if err != nil || c.LogLevel.String() != "DEBUG" {
		t.Fatalf("level = %v, err = %v", c.LogLevel, err)
	}
}

func TestVarsCoverEveryVariable(t *testing.T) {
	names := map[string]bool{}
	for _, v := range Vars() {
		names[v.Name] = true
	}
	for _, n := range []string{EnvHost, EnvPort, EnvMaxFileBytes, EnvMaxUploadBytes, EnvChunkBytes,
		EnvMaxElements, EnvMaxTextChars, EnvTimeoutMS, EnvLogLevel, EnvUploadRoots, EnvSandbox, EnvAllowHardlinks, EnvConfirm} {
		if !names[n] {
			t.Errorf("Vars() lacks %s", n)
		}
	}
}
