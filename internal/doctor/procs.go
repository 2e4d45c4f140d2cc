package doctor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/setup"
)

// firefoxProc is a running Firefox main process, as /proc shows it.
type firefoxProc struct {
	PID    int
	Comm   string
	Server string // the --start-debugger-server argument ("" = none)
	Socket string // Server when it is a Unix socket's path ("" otherwise)
	Port   int    // its port, 0 when none or not a port
	WS     bool   // the server speaks WebSocket (ws:PORT)
	// Safe names why this Firefox runs in safe mode, where it ignores its
	// arguments and opens no debugger server ("" = not seen to).
	Safe string
	// noAutoSafe: MOZ_DISABLE_AUTO_SAFE_MODE is set, so start-up crashes
	// never put it in safe mode.
	noAutoSafe bool
	Profile    string // --profile DIR, "" when not given
	ProfNm     string // -P NAME, "" when not given
	Age        time.Duration
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat times: 100 on every
// Linux architecture Go supports (the kernel exports no other value).
const clockTicks = 100

// firefoxProcs lists the Firefox main processes of this user that /proc
// lets us see: processes whose executable is Firefox (setup.IsFirefox:
// never this program, nor an MCP server, whatever their names), without
// -contentproc (content processes run the same executable).
func firefoxProcs() []firefoxProc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	up := uptime()
	var out []firefoxProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !setup.IsFirefox(pid) {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		if contains(args, "-contentproc") || contains(procArgs(parentPID(pid)), "-contentproc") {
			continue // a content process, or one the fork server is making
		}
		env := procEnv(pid)
		p := parseArgs(args)
		if env["MOZ_SAFE_MODE_RESTART"] == "1" {
			// Firefox restarted itself into safe mode: the new process has
			// no arguments; the ones it was started with are kept for the
			// crash reporter, the profile in XRE_PROFILE_PATH.
			p = parseArgs(append([]string{args[0]}, restartArgs(env)...))
			if p.Profile == "" {
				p.Profile = env["XRE_PROFILE_PATH"]
			}
			p.Safe = "Firefox restarted itself in safe mode (MOZ_SAFE_MODE_RESTART=1 in its environment), without its arguments"
		}
		p.PID, p.Comm = pid, filepath.Base(setup.Executable(pid))
		p.noAutoSafe = env["MOZ_DISABLE_AUTO_SAFE_MODE"] != ""
		if st := startTicks(pid); st > 0 && up > 0 {
			p.Age = up - time.Duration(st)*time.Second/clockTicks
		}
		out = append(out, p)
	}
	return out
}

// procArgs is pid's command line (nil when it cannot be read).
func procArgs(pid int) []string {
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil || len(raw) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
}

// parentPID is field 4 of /proc/PID/stat (0 when unknown).
func parentPID(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// procEnv is pid's environment (empty when it cannot be read).
func procEnv(pid int) map[string]string {
	out := map[string]string{}
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
	if err != nil {
		return out
	}
	for _, kv := range strings.Split(string(raw), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	return out
}

// restartArgs are the arguments Firefox keeps for a restart in
// MOZ_CRASHREPORTER_RESTART_ARG_1, _2, … (an empty one ends the list).
func restartArgs(env map[string]string) []string {
	var out []string
	for i := 1; i < 256; i++ {
		a := env["MOZ_CRASHREPORTER_RESTART_ARG_"+strconv.Itoa(i)]
		if a == "" {
			break
		}
		out = append(out, a)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parseArgs reads the options that matter from a Firefox command line.
// Firefox accepts -opt and --opt alike, and --opt=value.
func parseArgs(args []string) firefoxProc {
	var p firefoxProc
	for i := 1; i < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		next := func() string {
			if hasVal {
				return val
			}
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				return args[i]
			}
			return ""
		}
		switch strings.ToLower(name) {
		case "start-debugger-server":
			p.Server = next()
			if p.Server == "" {
				p.Server = "6000" // Firefox's default
			}
			p.WS = strings.HasPrefix(p.Server, "ws:")
			if strings.HasPrefix(p.Server, "/") {
				p.Socket = filepath.Clean(p.Server)
				continue
			}
			port := strings.TrimPrefix(p.Server, "ws:")
			if i := strings.LastIndexByte(port, ':'); i >= 0 {
				port = port[i+1:]
			}
			p.Port, _ = strconv.Atoi(port)
		case "safe-mode":
			p.Safe = "it was started with -safe-mode"
		case "profile":
			p.Profile = next()
		case "p":
			p.ProfNm = next()
		}
	}
	return p
}

func uptime() time.Duration {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	s, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// startTicks is field 22 of /proc/PID/stat: the start time in clock ticks
// since boot.
func startTicks(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseInt(f[19], 10, 64)
	return n
}

// portOwner names the process listening on TCP port (loopback or any
// address), as far as /proc shows this user: "name (pid N)", "" unknown.
func portOwner(port int) string {
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 || fs[3] != "0A" { // 0A = LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fs[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); err == nil && int(p) == port {
				inodes["socket:["+fs[9]+"]"] = true
			}
		}
	}
	if len(inodes) == 0 {
		return ""
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", e.Name(), "fd"))
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join("/proc", e.Name(), "fd", fd.Name())); err == nil && inodes[l] {
				comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
				return fmt.Sprintf("%s (pid %s)", strings.TrimSpace(string(comm)), e.Name())
			}
		}
	}
	return "a process this user cannot see"
}
