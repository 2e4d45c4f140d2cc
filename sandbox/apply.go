package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
)

// Mode is the build's sandbox mode, defined once in internal/build.
type Mode = build.SandboxMode

// MinLandlockABI is the oldest Landlock ABI that provides the whole policy:
// TCP port rules (ABI 4) and signal/abstract-socket scoping (ABI 6).
const MinLandlockABI = 6

// Support is what the running kernel offers.
type Support struct {
	LandlockABI int
	Seccomp     bool
	Missing     []string // human-readable, empty when the full policy is possible
}

// Probe asks the kernel what it supports, without changing anything.
func Probe() Support {
	var s Support
	abi, err := ll.LandlockGetABIVersion()
	switch {
	case err != nil && (errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS)):
		s.Missing = append(s.Missing, "Landlock is not enabled in this kernel (needs CONFIG_SECURITY_LANDLOCK=y and \"landlock\" in the lsm= boot parameter)")
	case err != nil:
		s.Missing = append(s.Missing, "Landlock ABI query failed: "+err.Error())
	default:
		s.LandlockABI = abi
		if abi < MinLandlockABI {
			s.Missing = append(s.Missing, fmt.Sprintf("Landlock ABI %d or newer (kernel 6.12+) for TCP port rules and signal/abstract-socket scoping; this kernel has ABI %d", MinLandlockABI, abi))
		}
	}
	if ArchFor(runtime.GOARCH) == nil {
		s.Missing = append(s.Missing, "a seccomp policy for "+runtime.GOARCH+" (only amd64 and arm64 have one)")
	}
	// SECCOMP_GET_ACTION_AVAIL answers 0 for every action the filter uses
	// only where filter mode exists (CONFIG_SECCOMP_FILTER, Linux 4.14+).
	s.Seccomp = true
	for _, act := range []uint32{unix.SECCOMP_RET_KILL_PROCESS, unix.SECCOMP_RET_ERRNO, unix.SECCOMP_RET_ALLOW} {
		a := act
		_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&a)))
		if e != 0 {
			s.Seccomp = false
			s.Missing = append(s.Missing, fmt.Sprintf("seccomp filter action %#x (needs CONFIG_SECCOMP_FILTER, Linux 4.14+): %v", act, e))
			break
		}
	}
	return s
}

// UnsupportedError says the kernel cannot provide the policy.
type UnsupportedError struct{ Missing []string }

func (e *UnsupportedError) Error() string {
	return "sandbox: this kernel cannot provide the sandbox: " + strings.Join(e.Missing, "; ")
}

// Report describes an applied sandbox.
type Report struct {
	Mode        Mode
	LandlockABI int
	Seccomp     bool
	Syscalls    int // allowlist size on this architecture
}

// ApplyServer confines the calling process as the MCP/RDP server: Landlock
// with no filesystem rights, TCP connect to rdpPort only (none at all when
// rdpPort is 0: the debugger's Unix socket comes from the broker), no bind,
// scoped signals and abstract sockets; then the server seccomp allowlist on
// every thread. It verifies every thread's /proc status afterwards.
func ApplyServer(rdpPort uint16) (Report, error) {
	return apply(Options{Role: RoleServer}, func(cfg landlock.Config) error {
		if rdpPort == 0 {
			return cfg.Restrict()
		}
		return cfg.Restrict(landlock.ConnectTCP(rdpPort))
	})
}

// ApplyBroker confines the calling process as the upload broker: Landlock
// read-only (files and directory listing) beneath roots, or beneath "/" when
// roots is empty, no network, scoped signals and abstract sockets; then the
// broker seccomp allowlist (no socket, connect or exec) on every thread.
//
// With files false the broker reads nothing (uploads are off) and gets no
// path rights at all. With socket set it may connect to that Unix socket
// (Firefox's debugger): seccomp allows a Unix stream socket and connect;
// Landlock up to ABI 8 does not confine a pathname connect, ABI 9 and newer
// do, and then the broker gets the right to reach the socket's directory's
// sockets only.
func ApplyBroker(roots []string, files bool, socket string) (Report, error) {
	paths := roots
	if len(paths) == 0 {
		paths = []string{"/"}
	}
	for _, p := range append(slices.Clone(paths), socket) {
		if p != "" && !strings.HasPrefix(p, "/") {
			return Report{}, fmt.Errorf("sandbox: %q is not absolute", p)
		}
	}
	return apply(Options{Role: RoleBroker, Connector: socket != ""}, func(cfg landlock.Config) error {
		var rules []landlock.Rule
		if files {
			rules = append(rules, landlock.PathAccess(ll.AccessFSReadFile|ll.AccessFSReadDir, paths...))
		}
		if socket != "" && Probe().LandlockABI >= 9 {
			rules = append(rules, landlock.PathAccess(0, filepath.Dir(socket)).WithResolveUnix().IgnoreIfMissing())
		}
		return cfg.Restrict(rules...)
	})
}

func apply(o Options, landlockFn func(landlock.Config) error) (Report, error) {
	sup := Probe()
	if len(sup.Missing) > 0 {
		return Report{}, &UnsupportedError{Missing: sup.Missing}
	}
	arch := ArchFor(runtime.GOARCH)
	o.PID = os.Getpid()
	allow, deny := Rules(o)
	prog, err := Compile(arch, allow, deny, ActErrno(DefaultErrno))
	if err != nil {
		return Report{}, err
	}
	// Open every thread's status before Landlock takes the filesystem away;
	// read them after the filter is in place.
	status, err := openThreadStatus()
	if err != nil {
		return Report{}, err
	}
	defer func() {
		for _, fd := range status {
			unix.Close(fd)
		}
	}()
	if err := landlockFn(presetFor(sup.LandlockABI)); err != nil {
		return Report{}, fmt.Errorf("sandbox: landlock: %w", err)
	}
	if err := loadFilter(prog); err != nil {
		return Report{}, err
	}
	if err := verifyThreads(status); err != nil {
		return Report{}, err
	}
	return Report{Mode: build.SandboxEnforce, LandlockABI: sup.LandlockABI, Seccomp: true, Syscalls: len(Names(arch, allow))}, nil
}

// presetFor is the strictest go-landlock preset the kernel supports: newer
// ABIs add restrictions (UDP and pathname UNIX sockets at 9/10), never rights.
func presetFor(abi int) landlock.Config {
	presets := []landlock.Config{landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}
	i := abi - MinLandlockABI
	if i >= len(presets) {
		i = len(presets) - 1
	}
	return presets[i]
}

// LoadFilter installs a compiled program on every thread of the process.
// NO_NEW_PRIVS is set first on the calling thread; TSYNC copies it to every
// thread together with the filter. ApplyServer and ApplyBroker use it; it
// is exported for tests that need a custom filter.
func LoadFilter(prog []unix.SockFilter) error {
	return loadFilter(prog)
}

func loadFilter(prog []unix.SockFilter) error {
	if len(prog) == 0 {
		return errors.New("sandbox: empty filter")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r1, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return fmt.Errorf("sandbox: seccomp(SET_MODE_FILTER, TSYNC): %w", e)
	}
	if r1 != 0 {
		// With TSYNC a positive return is the id of a thread that could
		// not be synchronised: nothing was installed.
		return fmt.Errorf("sandbox: seccomp TSYNC failed on thread %d", r1)
	}
	return nil
}

// openThreadStatus opens /proc/self/task/*/status for every current thread.
// Threads created later inherit the filter from their creator; threads that
// appear between this listing and the filter are covered by TSYNC.
func openThreadStatus() ([]int, error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("sandbox: list threads: %w", err)
	}
	var fds []int
	for _, e := range ents {
		fd, err := unix.Open("/proc/self/task/"+e.Name()+"/status", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue // the thread exited
			}
			for _, f := range fds {
				unix.Close(f)
			}
			return nil, fmt.Errorf("sandbox: open thread status: %w", err)
		}
		fds = append(fds, fd)
	}
	return fds, nil
}

// ThreadStatus is the sandbox part of one /proc/PID/task/TID/status.
type ThreadStatus struct {
	Seccomp        int // 2 = filter mode
	SeccompFilters int
	NoNewPrivs     int
}

// ParseStatus extracts the sandbox lines of a /proc status file.
func ParseStatus(b []byte) (ThreadStatus, error) {
	st := ThreadStatus{Seccomp: -1, SeccompFilters: -1, NoNewPrivs: -1}
	for _, line := range bytes.Split(b, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		var dst *int
		switch string(k) {
		case "Seccomp":
			dst = &st.Seccomp
		case "Seccomp_filters":
			dst = &st.SeccompFilters
		case "NoNewPrivs":
			dst = &st.NoNewPrivs
		default:
			continue
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
		if err != nil {
			return st, fmt.Errorf("bad %s line %q", k, line)
		}
		*dst = n
	}
	if st.Seccomp < 0 || st.NoNewPrivs < 0 {
		return st, errors.New("status lacks Seccomp or NoNewPrivs")
	}
	return st, nil
}

// Confined reports whether the status shows a filter and no_new_privs.
func (s ThreadStatus) Confined() bool {
	return s.Seccomp == 2 && s.NoNewPrivs == 1 && s.SeccompFilters != 0
}

func verifyThreads(fds []int) error {
	if len(fds) == 0 {
		return errors.New("sandbox: verify: no threads listed")
	}
	buf := make([]byte, 8192)
	for _, fd := range fds {
		n, err := unix.Read(fd, buf)
		if err != nil {
			if errors.Is(err, unix.ESRCH) {
				continue // the thread exited after the filter; it had it
			}
			return fmt.Errorf("sandbox: verify: read thread status: %w", err)
		}
		if n == 0 {
			continue // the thread exited
		}
		st, err := ParseStatus(buf[:n])
		if err != nil {
			return fmt.Errorf("sandbox: verify: %w", err)
		}
		if !st.Confined() {
			return fmt.Errorf("sandbox: verify: a thread is not confined (Seccomp %d, Seccomp_filters %d, NoNewPrivs %d)",
				st.Seccomp, st.SeccompFilters, st.NoNewPrivs)
		}
	}
	return nil
}
