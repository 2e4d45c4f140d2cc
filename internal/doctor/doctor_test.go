package doctor

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args           []string
		server         string
		port           int
		ws             bool
		profile, named string
	}{
		{[]string{"firefox-esr", "--start-debugger-server", "ws:6000"}, "ws:6000", 6000, true, "", ""},
		{[]string{"firefox", "-start-debugger-server", "6001", "-P", "work"}, "6001", 6001, false, "", "work"},
		{[]string{"firefox", "--start-debugger-server=ws:127.0.0.1:6002", "--profile", "/p"}, "ws:127.0.0.1:6002", 6002, true, "/p", ""},
		{[]string{"firefox", "--start-debugger-server", "--headless"}, "6000", 6000, false, "", ""},
		{[]string{"firefox", "https://example.com/"}, "", 0, false, "", ""},
	} {
		p := parseArgs(c.args)
		if p.Server != c.server || p.Port != c.port || p.WS != c.ws || p.Profile != c.profile || p.ProfNm != c.named {
			t.Errorf("parseArgs(%q) = %+v", c.args, p)
		}
	}
}

// TestPortOwnerAndSelf: /proc tells who listens on a port, and this
// process's own start time and command line are read back.
func TestPortOwnerAndSelf(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	if got := portOwner(port); !strings.Contains(got, "(pid "+strconv.Itoa(os.Getpid())+")") {
		t.Errorf("portOwner(%d) = %q, want this process", port, got)
	}
	if st, up := startTicks(os.Getpid()), uptime(); st <= 0 || up <= 0 || up < time.Duration(st)*time.Second/clockTicks {
		t.Errorf("start %d ticks, uptime %v", st, up)
	}
}

// TestFirefoxProcsByExecutable: processes whose command name says firefox
// but whose executable is not Firefox are never listed: this test binary
// run as "firefox-rdp-mcp" (an MCP server's name, command name
// "firefox-rdp-mc"), a program run as "firefox", and this process itself.
func TestFirefoxProcsByExecutable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var pids []int
	for name, target := range map[string]string{"firefox-rdp-mcp": self, "firefox": sleep} {
		link := filepath.Join(dir, name)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		args := []string{"30"}
		if target == self {
			args = []string{"-test.run=^$"}
		}
		cmd := exec.Command(link, args...)
		cmd.Env = append(os.Environ(), "DOCTOR_TEST_SLEEP=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		pids = append(pids, cmd.Process.Pid)
	}
	time.Sleep(200 * time.Millisecond) // both have exec'd
	for _, pid := range pids {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if !strings.HasPrefix(string(comm), "firefox") {
			t.Fatalf("pid %d has command name %q, want firefox…", pid, comm)
		}
	}
	for _, f := range firefoxProcs() {
		for _, pid := range append(pids, os.Getpid()) {
			if f.PID == pid {
				t.Errorf("pid %d (%s) listed as Firefox", pid, f.Comm)
			}
		}
	}
}

func TestMain(m *testing.M) {
	if os.Getenv("DOCTOR_TEST_SLEEP") == "1" {
		time.Sleep(30 * time.Second)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestParseArgsSocketAndSafeMode: a socket path is the endpoint; -safe-mode
// is named.
func TestParseArgsSocketAndSafeMode(t *testing.T) {
	p := parseArgs([]string{"firefox-esr", "--profile", "/p", "--start-debugger-server", "/run/user/1000/firefox-rdp-mcp/rdp.sock"})
	if p.Socket != "/run/user/1000/firefox-rdp-mcp/rdp.sock" || p.Port != 0 || p.WS || p.Profile != "/p" || p.Safe != "" {
		t.Errorf("socket: %+v", p)
	}
	if p := parseArgs([]string{"firefox", "-safe-mode", "--start-debugger-server", "ws:6000"}); p.Safe == "" || p.Port != 6000 {
		t.Errorf("safe mode: %+v", p)
	}
	env := map[string]string{"MOZ_CRASHREPORTER_RESTART_ARG_1": "--profile", "MOZ_CRASHREPORTER_RESTART_ARG_2": "/p",
		"MOZ_CRASHREPORTER_RESTART_ARG_3": "--start-debugger-server", "MOZ_CRASHREPORTER_RESTART_ARG_4": "/s/rdp.sock", "MOZ_CRASHREPORTER_RESTART_ARG_5": ""}
	if p := parseArgs(append([]string{"firefox-esr"}, restartArgs(env)...)); p.Socket != "/s/rdp.sock" || p.Profile != "/p" {
		t.Errorf("restart arguments: %+v", p)
	}
}
