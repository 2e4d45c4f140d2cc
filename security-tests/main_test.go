// Package securitytests is the audit suite a reviewer runs against the real
// firefox-rdp-mcp binary: `go test -v ./security-tests/...` (or without -v,
// with SECURITY_TESTS_SUMMARY=/path/summary.txt). TestMain builds the binary
// from this tree (CGO_ENABLED=0; SECURITY_TESTS_TAGS=packaged for the
// packaged build), or uses FIREFOX_MCP_BINARY (e.g. /usr/bin/firefox-rdp-mcp
// from the installed .deb), and prints a summary table of every check at
// the end. Tests skip when the kernel cannot sandbox, unless
// FIREFOX_MCP_REQUIRE_SANDBOX is set; the trace test needs strace
// (FIREFOX_MCP_REQUIRE_STRACE makes its absence a failure).
package securitytests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// Hidden role names (cmd/firefox-rdp-mcp/roles.go). If they drift, the
// binary answers "unknown command" and every test using them fails.
const (
	roleBroker         = "__broker-7d3f9a1c5e2b"
	roleSelftestServer = "__selftest-server-7d3f9a1c5e2b"
	roleSelftestBroker = "__selftest-broker-7d3f9a1c5e2b"
	selftestPrefix     = "SELFTEST-RESULT "
)

var (
	binary   string // the binary under test
	packaged bool   // built with -tags packaged
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	code := func() int {
		binary = os.Getenv("FIREFOX_MCP_BINARY")
		if binary == "" {
			dir, err := os.MkdirTemp("", "security-tests-")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			binary = filepath.Join(dir, "firefox-rdp-mcp")
			args := []string{"build", "-o", binary}
			if tags := os.Getenv("SECURITY_TESTS_TAGS"); tags != "" {
				args = append(args, "-tags", tags)
			}
			cmd := exec.Command("go", append(args, "../cmd/firefox-rdp-mcp")...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil {
				fmt.Fprintln(os.Stderr, "security-tests: cannot build the binary:", err)
				return 1
			}
		}
		out, err := exec.Command(binary, "version").Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "security-tests: cannot run", binary, err)
			return 1
		}
		packaged = strings.Contains(string(out), "packaged")
		fmt.Fprintf(os.Stderr, "security-tests: binary %s: %s", binary, out)
		code := m.Run()
		printSummary(os.Stderr)
		// `go test ./security-tests/` hides a passing package's output; the
		// table is also written where SECURITY_TESTS_SUMMARY says.
		if p := os.Getenv("SECURITY_TESTS_SUMMARY"); p != "" {
			if f, err := os.Create(p); err == nil {
				printSummary(f)
				f.Close()
			}
		}
		return code
	}()
	os.Exit(code)
}

// The summary table.
type row struct {
	area, check, want, got string
	ok                     bool
}

var (
	rowsMu sync.Mutex
	rows   []row
)

// record adds a row and fails t when got != want.
func record(t *testing.T, area, check, want, got string) bool {
	t.Helper()
	ok := want == got
	rowsMu.Lock()
	rows = append(rows, row{area, check, want, got, ok})
	rowsMu.Unlock()
	if !ok {
		t.Errorf("%s: %s: got %s, want %s", area, check, got, want)
	}
	return ok
}

func printSummary(w io.Writer) {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	if len(rows) == 0 {
		return
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].area < rows[j].area })
	wa, wc, ww := len("AREA"), len("CHECK"), len("EXPECTED")
	for _, r := range rows {
		wa, wc, ww = max(wa, len(r.area)), max(wc, len(r.check)), max(ww, len(r.want))
	}
	wc, ww = min(wc, 64), min(ww, 22)
	pass := 0
	fmt.Fprintf(w, "\n%-*s  %-*s  %-*s  %s\n", wa, "AREA", wc, "CHECK", ww, "EXPECTED", "RESULT")
	fmt.Fprintf(w, "%s\n", strings.Repeat("-", wa+wc+ww+24))
	for _, r := range rows {
		mark := "PASS"
		if r.ok {
			pass++
		} else {
			mark = "FAIL got " + r.got
		}
		fmt.Fprintf(w, "%-*s  %-*s  %-*s  %s\n", wa, r.area, wc, clip(r.check, wc), ww, clip(r.want, ww), mark)
	}
	fmt.Fprintf(w, "%s\n%d of %d checks passed (binary %s, %s)\n\n", strings.Repeat("-", wa+wc+ww+24), pass, len(rows), binary,
		map[bool]string{true: "packaged build", false: "development build"}[packaged])
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, module+"/", "./")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// requireSandbox skips (or, with FIREFOX_MCP_REQUIRE_SANDBOX set, fails)
// when the kernel cannot provide the policy.
func requireSandbox(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("linux only")
	}
	if s := sandbox.Probe(); len(s.Missing) > 0 {
		if os.Getenv("FIREFOX_MCP_REQUIRE_SANDBOX") != "" {
			t.Fatalf("kernel lacks: %v", s.Missing)
		}
		t.Skipf("kernel lacks: %v", s.Missing)
	}
}

// freePort returns a TCP port nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return p
}

// server is a running firefox-rdp-mcp serving MCP on pipes.
type server struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // stdout lines
	stderr *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serverEnv is a clean environment: an unused RDP port, uploads enabled
// beneath root (packaged builds need a root for the broker to start).
func serverEnv(t *testing.T, root string, extra ...string) []string {
	env := []string{
		"PATH=/usr/bin:/bin",
		"FIREFOX_RDP_PORT=" + strconv.Itoa(freePort(t)),
		"FIREFOX_MCP_UPLOAD_ROOTS=" + root,
		"FIREFOX_MCP_LOG_LEVEL=debug",
	}
	return append(env, extra...)
}

func startServer(t *testing.T, env []string) *server {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stdin: stdin, lines: make(chan string, 100), stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

func (s *server) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		t.Fatalf("write to server: %v", err)
	}
}

// next returns the next stdout line.
func (s *server) next(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatalf("server closed stdout; stderr:\n%s", s.stderr.String())
		}
		return l
	case <-time.After(15 * time.Second):
		t.Fatalf("no reply from the server; stderr:\n%s", s.stderr.String())
	}
	return ""
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"security-tests","version":"1"}}}`

// initialized starts a server and waits for its initialize answer, which
// comes after the sandbox is in place.
func initialized(t *testing.T, env []string) *server {
	t.Helper()
	s := startServer(t, env)
	s.send(t, initialize)
	var resp struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(s.next(t)), &resp); err != nil || resp.ID != 1 || resp.Result == nil {
		t.Fatalf("bad initialize answer: %v", err)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// children returns the child pids of pid.
func children(t *testing.T, pid int) []int {
	t.Helper()
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// threadStatus reads every thread's sandbox lines.
func threadStatus(t *testing.T, pid int) map[string]sandbox.ThreadStatus {
	t.Helper()
	out := map[string]sandbox.ThreadStatus{}
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, task.Name()))
		if err != nil {
			continue
		}
		st, err := sandbox.ParseStatus(b)
		if err != nil {
			t.Fatal(err)
		}
		out[task.Name()] = st
	}
	return out
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
