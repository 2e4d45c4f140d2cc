package securitytests

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// The server and its broker: every thread of both shows a seccomp filter
// and no_new_privs once the server answers initialize.
func TestThreadsConfined(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	s := initialized(t, serverEnv(t, root))
	pid := s.cmd.Process.Pid
	kids := brokerChildren(t, pid)
	if !record(t, "process", "server has exactly one broker child", "1", fmt.Sprint(len(kids))) {
		return
	}
	for _, p := range []struct {
		name string
		pid  int
	}{{"server", pid}, {"broker", kids[0]}} {
		st := threadStatus(t, p.pid)
		bad := 0
		var sample sandbox.ThreadStatus
		for _, v := range st {
			sample = v
			if !v.Confined() {
				bad++
			}
		}
		record(t, "process", fmt.Sprintf("%s: threads with Seccomp 2 + NoNewPrivs 1", p.name), fmt.Sprintf("%d of %d", len(st), len(st)), fmt.Sprintf("%d of %d", len(st)-bad, len(st)))
		t.Logf("%s pid %d: %d threads; e.g. Seccomp:\t%d Seccomp_filters:\t%d NoNewPrivs:\t%d", p.name, p.pid, len(st), sample.Seccomp, sample.SeccompFilters, sample.NoNewPrivs)
	}
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", kids[0]))
	record(t, "process", "broker runs the hidden broker role", "true", fmt.Sprint(strings.Contains(string(cmdline), roleBroker)))
	environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", kids[0]))
	record(t, "process", "broker environment is empty", "0 bytes", fmt.Sprintf("%d bytes", len(environ)))
}

// The broker holds only: /dev/null as stdin and stdout, the inherited
// stderr, its socket (fd 3), the runtime's epoll/eventfd, and its O_PATH
// root fds. In particular none of the server's pipes or sockets.
func TestBrokerFDs(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	s := initialized(t, serverEnv(t, root))
	kids := brokerChildren(t, s.cmd.Process.Pid)
	if len(kids) != 1 {
		t.Fatalf("children %v", kids)
	}
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", kids[0]))
	if err != nil {
		t.Fatal(err)
	}
	serverStderr, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/2", s.cmd.Process.Pid))
	var unexpected []string
	var seen []string
	sockets := 0
	for _, e := range ents {
		target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", kids[0], e.Name()))
		seen = append(seen, e.Name()+"→"+target)
		ok := false
		switch {
		case e.Name() == "0" || e.Name() == "1":
			ok = target == "/dev/null"
		case e.Name() == "2":
			ok = target == serverStderr
		case strings.HasPrefix(target, "socket:"):
			sockets++
			ok = sockets == 1 // the socketpair end, and nothing else
		default:
			// The runtime's poller, its cgroup CPU-limit files (Go ≥ 1.25,
			// opened by the broker's own runtime), and the O_PATH root.
			ok = target == "anon_inode:[eventpoll]" || target == "anon_inode:[eventfd]" || target == root ||
				strings.HasPrefix(target, "/sys/fs/cgroup/")
		}
		if !ok {
			unexpected = append(unexpected, e.Name()+"→"+target)
		}
	}
	sort.Strings(seen)
	t.Logf("broker fds: %v", seen)
	record(t, "process", "broker fds beyond stdio, socket, poller, roots", "none", strings.Join(append([]string{}, unexpected...), ",")+map[bool]string{true: "none", false: ""}[len(unexpected) == 0])
	// And the server's stdin pipe is not among them: compare inodes.
	in, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", s.cmd.Process.Pid))
	leaked := false
	for _, x := range seen {
		if strings.HasSuffix(x, "→"+in) {
			leaked = true
		}
	}
	record(t, "process", "server's stdin pipe reaches the broker", "false", fmt.Sprint(leaked))
}

// No orphans: killing the server (even with SIGKILL, no cleanup) makes the
// broker exit through socketpair EOF.
func TestBrokerExitsWhenServerDies(t *testing.T) {
	requireSandbox(t)
	s := initialized(t, serverEnv(t, t.TempDir()))
	kids := brokerChildren(t, s.cmd.Process.Pid)
	if len(kids) != 1 {
		t.Fatalf("children %v", kids)
	}
	s.cmd.Process.Signal(syscall.SIGKILL)
	record(t, "process", "broker exits after the server is SIGKILLed", "exited", map[bool]string{true: "exited", false: "still running"}[waitGone(kids[0], 5*time.Second)])
}

// Closing stdin ends the server, and the broker with it.
func TestCleanShutdown(t *testing.T) {
	requireSandbox(t)
	s := initialized(t, serverEnv(t, t.TempDir()))
	kids := brokerChildren(t, s.cmd.Process.Pid)
	s.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	var code string
	select {
	case err := <-done:
		code = "exit 0"
		if err != nil {
			code = err.Error()
		}
	case <-time.After(10 * time.Second):
		code = "still running"
	}
	record(t, "process", "server exits when stdin closes", "exit 0", code)
	if len(kids) == 1 {
		record(t, "process", "broker exits with the server", "exited", map[bool]string{true: "exited", false: "still running"}[waitGone(kids[0], 5*time.Second)])
	}
}

// Mode handling: packaged builds refuse "off"; development builds run
// unconfined with a loud warning.
func TestSandboxOffMode(t *testing.T) {
	env := serverEnv(t, t.TempDir(), "FIREFOX_MCP_SANDBOX=off")
	if packaged {
		cmd := exec.Command(binary)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		record(t, "modes", "packaged build refuses FIREFOX_MCP_SANDBOX=off", "refused", map[bool]string{true: "refused", false: "started"}[err != nil && strings.Contains(string(out), "packaged")])
		return
	}
	s := initialized(t, env)
	st := threadStatus(t, s.cmd.Process.Pid)
	confined := false
	for _, v := range st {
		confined = confined || v.Seccomp != 0
	}
	record(t, "modes", "dev build with off: no filter", "false", fmt.Sprint(confined))
	record(t, "modes", "dev build with off: loud warning on stderr", "true", fmt.Sprint(strings.Contains(s.stderr.String(), "WARNING")))
}

// A kernel without Landlock: enforce mode refuses to start and says what is
// missing and how to proceed. Simulated by running the binary under a
// seccomp filter that answers the Landlock system calls with ENOSYS.
func TestEnforceRefusesWithoutLandlock(t *testing.T) {
	requireSandbox(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(serverEnv(t, t.TempDir()), helperEnv+"=no-landlock", "HELPER_BINARY="+binary)
	cmd.Stdin = strings.NewReader(initialize + "\n")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	record(t, "modes", "enforce without Landlock: refuses to start", "exit≠0", map[bool]string{true: "exit≠0", false: "exit 0"}[code != 0])
	msg := string(out)
	record(t, "modes", "refusal names what is missing", "true", fmt.Sprint(strings.Contains(msg, "Landlock is not enabled")))
	want := "FIREFOX_MCP_SANDBOX=off"
	if packaged {
		want = "cannot run without the sandbox"
	}
	record(t, "modes", "refusal says how to proceed", "true", fmt.Sprint(strings.Contains(msg, want)))
	if t.Failed() {
		t.Logf("output:\n%s", msg)
	}
}

const helperEnv = "SECURITY_TESTS_HELPER"

// helperMain runs in a re-executed test binary.
func helperMain() int {
	switch os.Getenv(helperEnv) {
	case "no-landlock":
		arch := sandbox.ArchFor(runtime.GOARCH)
		prog, err := sandbox.Compile(arch, nil, []sandbox.Deny{
			{Name: "landlock_create_ruleset", Errno: unix.ENOSYS, Reason: "simulate a kernel without Landlock"},
			{Name: "landlock_add_rule", Errno: unix.ENOSYS, Reason: "simulate a kernel without Landlock"},
			{Name: "landlock_restrict_self", Errno: unix.ENOSYS, Reason: "simulate a kernel without Landlock"},
		}, sandbox.ActAllow)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 100
		}
		runtime.LockOSThread()
		if err := sandbox.LoadFilter(prog); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 100
		}
		bin := os.Getenv("HELPER_BINARY")
		err = syscall.Exec(bin, []string{bin}, os.Environ())
		fmt.Fprintln(os.Stderr, "exec:", err)
		return 100
	}
	return 100
}

// brokerChildren are the server's children that run the hidden broker role
// (the confirmation window's helper is the other child, started before the
// sandbox; docs/confirmation.md).
func brokerChildren(t *testing.T, pid int) []int {
	t.Helper()
	var out []int
	for _, k := range children(t, pid) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", k))
		if strings.Contains(string(cmdline), roleBroker) {
			out = append(out, k)
		}
	}
	return out
}
