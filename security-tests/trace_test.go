package securitytests

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/broker"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// traced is what one process did after loading its seccomp filter.
type traced struct {
	role   string
	calls  map[string]int
	denied map[string]string // syscall → errno the filter (or Landlock) gave
}

var (
	startRe  = regexp.MustCompile(`^(\d+)\s+(\w+)\((.*)$`)
	resumeRe = regexp.MustCompile(`^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$`)
	retRe    = regexp.MustCompile(`\)\s+=\s+(-?\d+|\?|0x[0-9a-f]+)(?:\s+(E[A-Z0-9]+))?`)
)

// parseTrace reads an `strace -f -qq` log and returns, per thread group
// that loaded a seccomp filter, the calls made afterwards. Same logic as
// tools/seccomp-trace.py.
func parseTrace(t *testing.T, path string) []traced {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	group := map[int]int{}
	roles := map[int]string{}
	out := map[int]*traced{}
	pending := map[int]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		var tid int
		var name, rest string
		if m := resumeRe.FindStringSubmatch(line); m != nil {
			tid, _ = strconv.Atoi(m[1])
			name, rest = m[2], pending[tid]+m[3]
			delete(pending, tid)
		} else if m := startRe.FindStringSubmatch(line); m != nil {
			tid, _ = strconv.Atoi(m[1])
			name, rest = m[2], m[3]
			if r, ok := strings.CutSuffix(rest, "<unfinished ...>"); ok {
				pending[tid] = r
				continue
			}
		} else {
			continue
		}
		g, ok := group[tid]
		if !ok {
			g = tid
			group[tid] = tid
		}
		var ret, errno string
		if m := retRe.FindStringSubmatch(rest); m != nil {
			ret, errno = m[1], m[2]
		}
		if (name == "clone" || name == "clone3" || name == "fork" || name == "vfork") && ret != "" {
			if child, err := strconv.Atoi(ret); err == nil && child > 0 {
				if strings.Contains(rest, "CLONE_THREAD") {
					group[child] = g
				} else {
					group[child] = child
				}
			}
		}
		if name == "execve" && ret == "0" {
			switch {
			case strings.Contains(rest, "__broker"):
				roles[g] = "broker"
			case strings.Contains(rest, "__selftest"):
				roles[g] = "selftest"
			default:
				roles[g] = "server"
			}
		}
		if name == "seccomp" && strings.Contains(rest, "SECCOMP_SET_MODE_FILTER") && ret == "0" {
			out[g] = &traced{role: roles[g], calls: map[string]int{}, denied: map[string]string{}}
			continue
		}
		if tr := out[g]; tr != nil {
			tr.calls[name]++
			if errno == "ENOSYS" || errno == "EPERM" || errno == "EACCES" {
				tr.denied[name] = errno
			}
		}
	}
	var res []traced
	for _, tr := range out {
		res = append(res, *tr)
	}
	return res
}

// The allowlists are derived from traces of the real binary; this test
// re-derives them on every run: a server session and a broker session run
// under strace, and every system call made after seccomp must be on the
// role's allowlist, with none refused by the sandbox.
func TestTraceWithinAllowlist(t *testing.T) {
	requireSandbox(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("FIREFOX_MCP_REQUIRE_STRACE") != "" {
			t.Fatal("strace not installed")
		}
		t.Skip("strace not installed (apt-get install strace)")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "cv.pdf"), make([]byte, 3*broker.MaxData+5), 0o644)

	// 1. A server session.
	serverTrace := filepath.Join(dir, "server.trace")
	cmd := exec.Command(strace, "-f", "-qq", "-o", serverTrace, binary)
	cmd.Env = serverEnv(t, root)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	send := func(s string) { stdin.Write([]byte(s + "\n")) }
	send(initialize)
	lines.Scan()
	for i, req := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"browser_status","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_tabs","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	} {
		send(req)
		if i > 0 {
			lines.Scan()
		}
	}
	time.Sleep(1500 * time.Millisecond) // let sysmon, timers and the scavenger run
	stdin.Close()
	cmd.Wait()

	// 2. A broker session: stat, stream, errors, release, EOF.
	brokerTrace := filepath.Join(dir, "broker.trace")
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
	bcmd := exec.Command(strace, "-f", "-qq", "-o", brokerTrace, binary, roleBroker, "-sandbox=enforce",
		"-max-file-bytes=1048576", "-max-call-bytes=1048576", "--", root)
	bcmd.Env = []string{}
	bcmd.ExtraFiles = []*os.File{theirs}
	if err := bcmd.Start(); err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		t.Fatal(err)
	}
	conn := fc.(*net.UnixConn)
	if _, err := broker.ReadHello(conn, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	c := broker.NewClient(conn)
	ctx := context.Background()
	files, err := c.Stat(ctx, []string{root + "/cv.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stream(ctx, files[0].Handle, func([]byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	c.Stat(ctx, []string{root + "/missing"})
	c.Stat(ctx, []string{root})
	c.Release(ctx, []uint32{files[0].Handle})
	c.Close()
	bcmd.Wait()

	arch := sandbox.ArchFor(runtime.GOARCH)
	allowed := map[string][]string{}
	for role, r := range map[string]sandbox.Role{"server": sandbox.RoleServer, "broker": sandbox.RoleBroker} {
		a, _ := sandbox.Rules(sandbox.Options{Role: r, PID: 1})
		allowed[role] = sandbox.Names(arch, a)
	}
	seen := map[string]bool{}
	for _, session := range []struct{ name, path string }{{"server session", serverTrace}, {"broker session", brokerTrace}} {
		for _, tr := range parseTrace(t, session.path) {
			if tr.role != "server" && tr.role != "broker" {
				continue
			}
			seen[tr.role] = true
			var names, outside []string
			for n := range tr.calls {
				names = append(names, n)
				if !slices.Contains(allowed[tr.role], n) {
					outside = append(outside, n)
				}
			}
			sort.Strings(names)
			sort.Strings(outside)
			var denied []string
			for n, e := range tr.denied {
				denied = append(denied, n+"="+e)
			}
			sort.Strings(denied)
			who := tr.role + " (" + session.name + ")"
			t.Logf("%s: %d distinct syscalls after seccomp: %s", who, len(names), strings.Join(names, " "))
			record(t, "trace", who+": syscalls outside its allowlist", "none", orNone(outside))
			record(t, "trace", who+": calls refused by the sandbox", "none", orNone(denied))
		}
	}
	record(t, "trace", "both processes traced after seccomp", "true", strconv.FormatBool(seen["server"] && seen["broker"]))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}
