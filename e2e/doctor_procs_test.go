package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDoctorNeverTakesItselfForFirefox: with no Firefox on its socket,
// doctor names neither itself, nor a running MCP server (this binary), nor
// a program run under the name "firefox" (its command name says firefox,
// its executable does not), as Firefox.
func TestDoctorNeverTakesItselfForFirefox(t *testing.T) {
	sock := filepath.Join(privateDir(t), "rdp.sock")
	server := exec.Command(binary)
	server.Env = []string{"FIREFOX_RDP_SOCKET=" + sock, "HOME=" + t.TempDir()}
	stdin, err := server.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); server.Wait() }()
	fake := filepath.Join(t.TempDir(), "firefox")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sleep, fake); err != nil {
		t.Fatal(err)
	}
	named := exec.Command(fake, "60")
	if err := named.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { named.Process.Kill(); named.Wait() }()
	time.Sleep(300 * time.Millisecond) // the server has exec'd
	if comm, _ := os.ReadFile("/proc/" + strconv.Itoa(named.Process.Pid) + "/comm"); strings.TrimSpace(string(comm)) != "firefox" {
		t.Fatalf("the stand-in's command name is %q, want firefox", comm)
	}

	doctor := exec.Command(binary, "doctor")
	doctor.Env = []string{"FIREFOX_RDP_SOCKET=" + sock, "HOME=" + t.TempDir()}
	var out strings.Builder
	doctor.Stdout, doctor.Stderr = &out, &out
	if err := doctor.Start(); err != nil {
		t.Fatal(err)
	}
	doctor.Wait()
	for who, pid := range map[string]int{"doctor itself": doctor.Process.Pid, "the MCP server": server.Process.Pid, "a program named firefox": named.Process.Pid} {
		for _, form := range []string{"pid " + strconv.Itoa(pid) + ")", "pid " + strconv.Itoa(pid) + ","} {
			if strings.Contains(out.String(), form) {
				t.Errorf("doctor took %s (pid %d) for Firefox:\n%s", who, pid, out.String())
			}
		}
	}
	if !strings.Contains(out.String(), "there is no socket "+sock) {
		t.Errorf("doctor does not say the socket is missing:\n%s", out.String())
	}
}

// TestDoctorFirefoxInSafeMode: a Firefox that crashed while starting more
// than toolkit.startup.max_resumed_crashes (3) times in a row starts in
// safe mode by itself, restarts without its arguments and opens no
// debugger server; doctor says so instead of waiting for it or blaming the
// preferences. The crashes are real as far as Firefox can tell: its
// profile holds the lock of a run that never ended and four recent
// start-up crashes.
func TestDoctorFirefoxInSafeMode(t *testing.T) {
	// max_resumed_crashes 3 is Firefox's default (quietPrefs turn it off).
	crashed := map[string]any{"toolkit.startup.recent_crashes": 4, "toolkit.startup.last_success": 1000, "toolkit.startup.max_resumed_crashes": 3}
	for k, v := range goodPrefs {
		crashed[k] = v
	}
	staleLock := func(dir string) {
		if err := os.Symlink("127.0.0.1:+99999", filepath.Join(dir, "lock")); err != nil {
			t.Fatal(err)
		}
	}
	ff := startRawEnv(t, crashed, nil, staleLock, "about:blank", "--start-debugger-server", "SOCK")
	time.Sleep(time.Second)
	out, progress, code, took := runDoctor(t, ff)
	t.Logf("exit %d after %v", code, took.Round(10*time.Millisecond))
	if code != 1 || !strings.Contains(out, "runs in safe mode") || !strings.Contains(out, "ignores its arguments") ||
		!strings.Contains(out, "start it again the same way") {
		t.Errorf("exit %d, want safe mode named:\n%s\nstderr:\n%s", code, out, progress)
	}
	if strings.Contains(out, "setup --write") {
		t.Errorf("a Firefox in safe mode is blamed on the preferences:\n%s", out)
	}
}

// TestDoctorSocketFailures: each way the socket can be wrong is named,
// with no Firefox needed: its directory missing, open to others, the socket
// a regular file, or a socket nothing listens on (left by a Firefox that
// exited).
func TestDoctorSocketFailures(t *testing.T) {
	stale := func(t *testing.T, path string) {
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Close(fd)
		if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T, dir, sock string)
		want    []string
	}{
		{"no directory", func(t *testing.T, dir, sock string) { os.Remove(dir) },
			[]string{"[FAIL] socket directory", "does not exist", "mkdir -m 0700 -p"}},
		{"directory open to others", func(t *testing.T, dir, sock string) { os.Chmod(dir, 0o755) },
			[]string{"[FAIL] socket directory", "has mode 0755", "chmod 700"}},
		{"not a socket", func(t *testing.T, dir, sock string) { os.WriteFile(sock, nil, 0o600) },
			[]string{"[FAIL] endpoint reachable", "not a socket"}},
		{"stale socket", func(t *testing.T, dir, sock string) { stale(t, sock) },
			[]string{"[FAIL] endpoint reachable", "nothing listens on it (connection refused)", "a Firefox that has exited or crashed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "d")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			sock := filepath.Join(dir, "rdp.sock")
			c.prepare(t, dir, sock)
			out, progress, code, _ := runDoctor(t, rawFirefox{env: []string{"FIREFOX_RDP_SOCKET=" + sock}})
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s\nstderr:\n%s", w, out, progress)
				}
			}
		})
	}
}

// privateDir is a new 0700 directory (t.TempDir's are 0755).
func privateDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "firefox-rdp-mcp-doctor-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
