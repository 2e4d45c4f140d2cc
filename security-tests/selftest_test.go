package securitytests

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type selftest struct {
	Role        string `json:"role"`
	LandlockABI int    `json:"landlock_abi"`
	Syscalls    int    `json:"syscalls"`
	Error       string `json:"error"`
	Probes      []struct {
		Name  string `json:"name"`
		Errno string `json:"errno"`
	} `json:"probes"`
}

func runSelftest(t *testing.T, role string, args ...string) selftest {
	t.Helper()
	cmd := exec.Command(binary, append([]string{role}, args...)...)
	cmd.Env = []string{}
	out, err := cmd.CombinedOutput()
	var res selftest
	found := false
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), selftestPrefix); ok {
			if err := json.Unmarshal([]byte(rest), &res); err != nil {
				t.Fatal(err)
			}
			found = true
		}
	}
	if !found {
		t.Fatalf("no self-test result (err %v); output:\n%s", err, out)
	}
	if res.Error != "" {
		t.Fatalf("self-test could not apply the policy: %s", res.Error)
	}
	return res
}

// Expected errno per probe. EACCES = a stray filesystem call or a socket
// kind seccomp refuses, or Landlock; EPERM = a forbidden operation;
// ENOSYS = not in any table (or clone3, answered ENOSYS on purpose).
var commonWant = map[string]string{
	"open /etc/passwd (openat)":         "EACCES",
	"create a file (openat O_CREAT)":    "EACCES",
	"openat2 /etc/passwd from AT_FDCWD": "EACCES",
	"stat /etc/passwd (newfstatat)":     "EACCES",
	"statx /etc/passwd":                 "EACCES",
	"access /etc/passwd (faccessat)":    "EACCES",
	"readlink /proc/self/exe":           "EACCES",
	"mkdir":                             "EACCES",
	"unlink":                            "EACCES",
	"execve /bin/true":                  "EPERM",
	"execveat /bin/true":                "EPERM",
	"fork (clone SIGCHLD)":              "EPERM",
	"clone3":                            "ENOSYS",
	"socketpair":                        "EPERM",
	"ptrace TRACEME":                    "EPERM",
	"ptrace ATTACH parent":              "EPERM",
	"kill parent (signal 0)":            "EPERM",
	"tgkill parent":                     "EPERM",
	"kill process group 0":              "EPERM",
	"unshare user namespace":            "EPERM",
	"mount tmpfs":                       "EPERM",
	"io_uring_setup":                    "EPERM",
	"bpf":                               "EPERM",
	"userfaultfd":                       "EPERM",
	"perf_event_open":                   "EPERM",
	"mmap PROT_EXEC":                    "EPERM",
	"mprotect PROT_EXEC":                "EPERM",
	"prctl PR_SET_DUMPABLE":             "EPERM",
	"memfd_create":                      "EPERM",
	"ioctl TIOCSTI on stderr":           "EPERM",
	"setuid 0":                          "EPERM",
	"unlisted syscall (syslog)":         "ENOSYS",
	"socket UDP":                        "",
	"socket MPTCP":                      "",
	"socket netlink":                    "",
	"socket raw IP":                     "",
	"socket unix (pathname)":            "",
	"socket unix (abstract, datagram)":  "",
	"socket packet":                     "",
}

func checkProbes(t *testing.T, area string, res selftest, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, p := range res.Probes {
		got[p.Name] = p.Errno
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		w := want[name]
		g, ok := got[name]
		if !ok {
			g = "not run"
		}
		record(t, area, name, w, g)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("probe %q has no expectation", name)
		}
	}
}

// The server role's exact production policy, then every forbidden
// operation. Two controls must succeed (or fail for a non-sandbox reason),
// proving the probes can tell the difference.
func TestSelftestServer(t *testing.T) {
	requireSandbox(t)
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	otherPort := strconv.Itoa(other.Addr().(*net.TCPAddr).Port)
	rdpPort := strconv.Itoa(freePort(t))
	tmp := t.TempDir()
	victim := filepath.Join(tmp, "victim")
	os.WriteFile(victim, []byte("x"), 0o600)
	res := runSelftest(t, roleSelftestServer, rdpPort, otherPort, tmp)
	want := map[string]string{
		"control: kill self (signal 0)":                                  "OK",
		"control: connect to the RDP port":                               "ECONNREFUSED",
		"connect to another TCP port":                                    "EACCES",
		"connect IPv6 to another TCP port":                               "EACCES",
		"bind TCP 127.0.0.1:0":                                           "EPERM",
		"listen TCP (unbound)":                                           "EPERM",
		"socket Unix stream (the debugger socket comes from the broker)": "EACCES",
		"net.Listen tcp (Go default: MPTCP)":                             "EPERM",
	}
	for k, v := range commonWant {
		if v == "" {
			v = "EACCES" // socket() kinds other than TCP: seccomp answers EACCES
		}
		want[k] = v
	}
	checkProbes(t, "server policy", res, want)
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("the sandboxed self-test removed a file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "selftest-created")); err == nil {
		t.Error("the sandboxed self-test created a file")
	}
	t.Logf("server: Landlock ABI %d, %d syscalls allowed", res.LandlockABI, res.Syscalls)
}

func TestSelftestBroker(t *testing.T) {
	requireSandbox(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "inside.txt"), []byte("in"), 0o644)
	os.WriteFile(filepath.Join(root, "victim"), []byte("x"), 0o644)
	outside := filepath.Join(dir, "outside.txt")
	os.WriteFile(outside, []byte("secret"), 0o644)
	res := runSelftest(t, roleSelftestBroker, root, outside)
	want := map[string]string{
		"control: read a file beneath the root":          "OK",
		"read a file outside the root (pre-opened / fd)": "EACCES",
		"write a file beneath the root":                  "EACCES",
		"create a file beneath the root":                 "EACCES",
		"socket TCP":                                     "EPERM",
		"connect the broker socket":                      "EPERM",
		"bind the broker socket":                         "EPERM",
	}
	for k, v := range commonWant {
		if v == "" {
			v = "EPERM" // the broker may create no socket at all
		}
		want[k] = v
	}
	checkProbes(t, "broker policy", res, want)
	if b, _ := os.ReadFile(filepath.Join(root, "inside.txt")); string(b) != "in" {
		t.Error("the sandboxed self-test changed a file")
	}
	t.Logf("broker: Landlock ABI %d, %d syscalls allowed", res.LandlockABI, res.Syscalls)
}

// Hidden roles are not advertised, and a near-miss name is just an
// unknown command.
func TestRolesHidden(t *testing.T) {
	out, _ := exec.Command(binary, "-h").CombinedOutput()
	record(t, "roles", "usage mentions no hidden role", "false", strconvB(strings.Contains(string(out), "__")))
	cmd := exec.Command(binary, "__broker")
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	record(t, "roles", "a guessed role name (__broker) is rejected", "exit 2", "exit "+strconv.Itoa(code))
}

func strconvB(b bool) string { return strconv.FormatBool(b) }
