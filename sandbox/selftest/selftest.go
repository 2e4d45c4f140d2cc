// Package selftest is the sandbox's self-test: in a child process it applies
// the exact production policy of one role (sandbox.ApplyServer or
// sandbox.ApplyBroker) and then attempts every operation that policy must
// forbid, with raw system calls so no library fallback hides what the kernel
// said. It reports one stderr line, Prefix followed by a JSON Result; the
// security-tests suite runs it through the real binary's hidden roles and
// checks every probe's errno.
//
// It lives beside the policy it checks, not in cmd, and is its own package
// because one probe needs package net, which package sandbox must not import.
package selftest

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/sandbox"
)

// Prefix starts the one stderr line that carries a self-test result as
// JSON.
const Prefix = "SELFTEST-RESULT "

// Probe is one attempted operation and the errno it got (0 = success).
type Probe struct {
	Name  string `json:"name"`
	Errno string `json:"errno"`
	Num   int    `json:"num"`
}

// Result is what one self-test run reports.
type Result struct {
	Role        string  `json:"role"`
	LandlockABI int     `json:"landlock_abi"`
	Syscalls    int     `json:"syscalls"`
	Error       string  `json:"error,omitempty"`
	Probes      []Probe `json:"probes"`
}

func errnoName(e unix.Errno) string {
	if e == 0 {
		return "OK"
	}
	if n := unix.ErrnoName(e); n != "" {
		return n
	}
	return "errno" + strconv.Itoa(int(e))
}

func report(res Result) int {
	b, _ := json.Marshal(res)
	fmt.Fprintf(os.Stderr, "%s%s\n", Prefix, b)
	if res.Error != "" {
		return 1
	}
	return 0
}

type probeFn struct {
	name string
	fn   func() unix.Errno
}

func runProbes(ps []probeFn) []Probe {
	out := make([]Probe, 0, len(ps))
	for _, p := range ps {
		e := p.fn()
		out = append(out, Probe{Name: p.name, Errno: errnoName(e), Num: int(e)})
	}
	return out
}

// Raw system calls, so no library fallback hides what the kernel said.

func sys(nr uintptr, a ...uintptr) (uintptr, unix.Errno) {
	var v [6]uintptr
	copy(v[:], a)
	r, _, e := unix.Syscall6(nr, v[0], v[1], v[2], v[3], v[4], v[5])
	return r, e
}

// closing runs nr and closes the fd it returns on success.
func closing(nr uintptr, a ...uintptr) unix.Errno {
	r, e := sys(nr, a...)
	if e == 0 {
		unix.Close(int(r))
	}
	return e
}

func cstr(s string) uintptr {
	b, _ := unix.BytePtrFromString(s)
	return uintptr(unsafe.Pointer(b))
}

func openat2(dirfd int, path string, flags uint64) unix.Errno {
	how := unix.OpenHow{Flags: flags}
	p, _ := unix.BytePtrFromString(path)
	r, _, e := unix.Syscall6(unix.SYS_OPENAT2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	runtime.KeepAlive(p)
	if e == 0 {
		unix.Close(int(r))
	}
	return e
}

func socketProbe(domain, typ, proto int) unix.Errno {
	return closing(unix.SYS_SOCKET, uintptr(domain), uintptr(typ), uintptr(proto))
}

// tcpOp makes an allowed TCP socket and runs op on it.
func tcpOp(op func(fd int) error) unix.Errno {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err.(unix.Errno)
	}
	defer unix.Close(fd)
	return errnoOf(op(fd))
}

func errnoOf(err error) unix.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EINVAL
}

func connectTCP(port int) unix.Errno {
	return tcpOp(func(fd int) error {
		return unix.Connect(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
	})
}

// commonProbes are forbidden for both roles. ppid is taken before the
// sandbox (getppid itself is not on the allowlist).
func commonProbes(tmp string, ppid int) []probeFn {
	return []probeFn{
		{"open /etc/passwd (openat)", func() unix.Errno {
			return closing(unix.SYS_OPENAT, atFDCWD, cstr("/etc/passwd"), unix.O_RDONLY|unix.O_CLOEXEC)
		}},
		{"create a file (openat O_CREAT)", func() unix.Errno {
			return closing(unix.SYS_OPENAT, atFDCWD, cstr(tmp+"/selftest-created"), unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC, 0o600)
		}},
		{"openat2 /etc/passwd from AT_FDCWD", func() unix.Errno { return openat2(unix.AT_FDCWD, "/etc/passwd", unix.O_RDONLY|unix.O_CLOEXEC) }},
		{"stat /etc/passwd (newfstatat)", func() unix.Errno {
			var st unix.Stat_t
			return errnoOf(unix.Fstatat(unix.AT_FDCWD, "/etc/passwd", &st, 0))
		}},
		{"statx /etc/passwd", func() unix.Errno {
			var st unix.Statx_t
			return errnoOf(unix.Statx(unix.AT_FDCWD, "/etc/passwd", 0, unix.STATX_BASIC_STATS, &st))
		}},
		{"access /etc/passwd (faccessat)", func() unix.Errno { return errnoOf(unix.Faccessat(unix.AT_FDCWD, "/etc/passwd", unix.R_OK, 0)) }},
		{"readlink /proc/self/exe", func() unix.Errno {
			buf := make([]byte, 256)
			_, err := unix.Readlinkat(unix.AT_FDCWD, "/proc/self/exe", buf)
			return errnoOf(err)
		}},
		{"mkdir", func() unix.Errno { return errnoOf(unix.Mkdirat(unix.AT_FDCWD, tmp+"/selftest-dir", 0o700)) }},
		{"unlink", func() unix.Errno { return errnoOf(unix.Unlinkat(unix.AT_FDCWD, tmp+"/victim", 0)) }},
		{"execve /bin/true", func() unix.Errno {
			argv := []*byte{mustPtr("/bin/true"), nil}
			envv := []*byte{nil}
			_, e := sys(unix.SYS_EXECVE, cstr("/bin/true"), uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
			runtime.KeepAlive(argv)
			return e
		}},
		{"execveat /bin/true", func() unix.Errno {
			argv := []*byte{mustPtr("/bin/true"), nil}
			envv := []*byte{nil}
			_, e := sys(unix.SYS_EXECVEAT, atFDCWD, cstr("/bin/true"), uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])), 0)
			runtime.KeepAlive(argv)
			return e
		}},
		{"fork (clone SIGCHLD)", func() unix.Errno {
			r, _, e := unix.RawSyscall6(unix.SYS_CLONE, uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
			if e == 0 && r == 0 {
				unix.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0) // the child, if the policy failed
			}
			if e == 0 {
				var ws unix.WaitStatus
				unix.Wait4(int(r), &ws, 0, nil)
			}
			return e
		}},
		{"clone3", func() unix.Errno { _, e := sys(unix.SYS_CLONE3, 0, 0); return e }},
		{"socket UDP", func() unix.Errno { return socketProbe(unix.AF_INET, unix.SOCK_DGRAM, 0) }},
		{"socket MPTCP", func() unix.Errno { return socketProbe(unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_MPTCP) }},
		{"socket netlink", func() unix.Errno { return socketProbe(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE) }},
		{"socket raw IP", func() unix.Errno { return socketProbe(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP) }},
		{"socket unix (pathname)", func() unix.Errno { return socketProbe(unix.AF_UNIX, unix.SOCK_STREAM, 0) }},
		{"socket unix (abstract, datagram)", func() unix.Errno { return socketProbe(unix.AF_UNIX, unix.SOCK_DGRAM, 0) }},
		{"socket packet", func() unix.Errno { return socketProbe(unix.AF_PACKET, unix.SOCK_RAW, 0) }},
		{"socketpair", func() unix.Errno {
			var fds [2]int32
			_, e := sys(unix.SYS_SOCKETPAIR, unix.AF_UNIX, unix.SOCK_STREAM, 0, uintptr(unsafe.Pointer(&fds)))
			if e == 0 {
				unix.Close(int(fds[0]))
				unix.Close(int(fds[1]))
			}
			return e
		}},
		{"ptrace TRACEME", func() unix.Errno { _, e := sys(unix.SYS_PTRACE, unix.PTRACE_TRACEME, 0, 0, 0); return e }},
		{"ptrace ATTACH parent", func() unix.Errno {
			_, e := sys(unix.SYS_PTRACE, unix.PTRACE_ATTACH, uintptr(ppid), 0, 0)
			return e
		}},
		{"kill parent (signal 0)", func() unix.Errno { _, e := sys(unix.SYS_KILL, uintptr(ppid), 0); return e }},
		{"tgkill parent", func() unix.Errno { _, e := sys(unix.SYS_TGKILL, uintptr(ppid), uintptr(ppid), 0); return e }},
		{"kill process group 0", func() unix.Errno { _, e := sys(unix.SYS_KILL, 0, 0); return e }},
		{"unshare user namespace", func() unix.Errno { _, e := sys(unix.SYS_UNSHARE, unix.CLONE_NEWUSER); return e }},
		{"mount tmpfs", func() unix.Errno {
			_, e := sys(unix.SYS_MOUNT, cstr("none"), cstr(tmp), cstr("tmpfs"), 0, 0)
			return e
		}},
		{"io_uring_setup", func() unix.Errno {
			var params [120]byte
			return closing(unix.SYS_IO_URING_SETUP, 4, uintptr(unsafe.Pointer(&params)))
		}},
		{"bpf", func() unix.Errno { _, e := sys(unix.SYS_BPF, 0, 0, 0); return e }},
		{"userfaultfd", func() unix.Errno { return closing(unix.SYS_USERFAULTFD, 0) }},
		{"perf_event_open", func() unix.Errno { return closing(unix.SYS_PERF_EVENT_OPEN, 0, 0, ^uintptr(0), ^uintptr(0), 0) }},
		{"mmap PROT_EXEC", func() unix.Errno {
			r, e := sys(unix.SYS_MMAP, 0, 4096, unix.PROT_READ|unix.PROT_EXEC, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS, ^uintptr(0), 0)
			if e == 0 {
				sys(unix.SYS_MUNMAP, r, 4096)
			}
			return e
		}},
		{"mprotect PROT_EXEC", func() unix.Errno {
			r, e := sys(unix.SYS_MMAP, 0, 4096, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS, ^uintptr(0), 0)
			if e != 0 {
				return unix.EFAULT // setup failed: reported as a failure
			}
			defer sys(unix.SYS_MUNMAP, r, 4096)
			_, e = sys(unix.SYS_MPROTECT, r, 4096, unix.PROT_READ|unix.PROT_EXEC)
			return e
		}},
		{"prctl PR_SET_DUMPABLE", func() unix.Errno { _, e := sys(unix.SYS_PRCTL, unix.PR_SET_DUMPABLE, 1); return e }},
		{"memfd_create", func() unix.Errno { return closing(unix.SYS_MEMFD_CREATE, cstr("x"), 0) }},
		{"ioctl TIOCSTI on stderr", func() unix.Errno {
			c := byte('x')
			_, e := sys(unix.SYS_IOCTL, 2, unix.TIOCSTI, uintptr(unsafe.Pointer(&c)))
			return e
		}},
		{"setuid 0", func() unix.Errno { _, e := sys(unix.SYS_SETUID, 0); return e }},
		{"unlisted syscall (syslog)", func() unix.Errno { _, e := sys(unix.SYS_SYSLOG, 3, 0, 0); return e }},
	}
}

func mustPtr(s string) *byte {
	p, _ := unix.BytePtrFromString(s)
	return p
}

// Server applies the exact production server policy (the one
// enterSandbox applies) and then attempts every forbidden operation.
// Arguments: rdp-port other-port tmp-dir. other-port should have a
// listener, so only the sandbox can make the connect fail.
func Server(args []string) int {
	res := Result{Role: "server"}
	if len(args) != 3 {
		res.Error = "usage: rdp-port other-port tmp-dir"
		return report(res)
	}
	rdp, err1 := strconv.ParseUint(args[0], 10, 16)
	other, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil || rdp == 0 {
		res.Error = "bad port"
		return report(res)
	}
	tmp := args[2]
	ppid := os.Getppid()
	sandbox.PrepareRuntime()
	rep, err := sandbox.ApplyServer(uint16(rdp))
	if err != nil {
		res.Error = err.Error()
		return report(res)
	}
	res.LandlockABI, res.Syscalls = rep.LandlockABI, rep.Syscalls
	ps := []probeFn{
		{"control: kill self (signal 0)", func() unix.Errno { _, e := sys(unix.SYS_KILL, uintptr(os.Getpid()), 0); return e }},
		{"control: connect to the RDP port", func() unix.Errno { return connectTCP(int(rdp)) }},
		{"connect to another TCP port", func() unix.Errno { return connectTCP(other) }},
		{"connect IPv6 to another TCP port", func() unix.Errno {
			fd, err := unix.Socket(unix.AF_INET6, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				return errnoOf(err)
			}
			defer unix.Close(fd)
			return errnoOf(unix.Connect(fd, &unix.SockaddrInet6{Port: other, Addr: [16]byte{15: 1}}))
		}},
		{"socket Unix stream (the debugger socket comes from the broker)", func() unix.Errno {
			return socketProbe(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		}},
		{"bind TCP 127.0.0.1:0", func() unix.Errno {
			return tcpOp(func(fd int) error { return unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}) })
		}},
		{"listen TCP (unbound)", func() unix.Errno { return tcpOp(func(fd int) error { return unix.Listen(fd, 1) }) }},
		{"net.Listen tcp (Go default: MPTCP)", func() unix.Errno {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err == nil {
				l.Close()
				return 0
			}
			var e unix.Errno
			if ope, ok := err.(*net.OpError); ok {
				if se, ok := ope.Err.(*os.SyscallError); ok {
					e, _ = se.Err.(unix.Errno)
				}
			}
			if e == 0 {
				return unix.EINVAL
			}
			return e
		}},
	}
	res.Probes = runProbes(append(ps, commonProbes(tmp, ppid)...))
	return report(res)
}

// Broker applies the exact production broker policy with one root
// and attempts every forbidden operation. Arguments: root outside-file.
func Broker(args []string) int {
	res := Result{Role: "broker"}
	if len(args) != 2 {
		res.Error = "usage: root outside-file"
		return report(res)
	}
	root, outside := args[0], args[1]
	rootFD, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		res.Error = err.Error()
		return report(res)
	}
	ppid := os.Getppid()
	slashFD, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		res.Error = err.Error()
		return report(res)
	}
	sandbox.PrepareRuntime()
	rep, err := sandbox.ApplyBroker([]string{root}, true, "")
	if err != nil {
		res.Error = err.Error()
		return report(res)
	}
	res.LandlockABI, res.Syscalls = rep.LandlockABI, rep.Syscalls
	ps := []probeFn{
		{"control: read a file beneath the root", func() unix.Errno {
			return openat2(rootFD, "inside.txt", unix.O_RDONLY|unix.O_CLOEXEC)
		}},
		{"read a file outside the root (pre-opened / fd)", func() unix.Errno {
			return openat2(slashFD, outside[1:], unix.O_RDONLY|unix.O_CLOEXEC)
		}},
		{"write a file beneath the root", func() unix.Errno {
			return openat2(rootFD, "inside.txt", unix.O_WRONLY|unix.O_CLOEXEC)
		}},
		{"create a file beneath the root", func() unix.Errno {
			return openat2(rootFD, "new.txt", unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC)
		}},
		{"socket TCP", func() unix.Errno { return socketProbe(unix.AF_INET, unix.SOCK_STREAM, 0) }},
		{"connect the broker socket", func() unix.Errno {
			return errnoOf(unix.Connect(3, &unix.SockaddrInet4{Port: 1, Addr: [4]byte{127, 0, 0, 1}}))
		}},
		{"bind the broker socket", func() unix.Errno {
			return errnoOf(unix.Bind(3, &unix.SockaddrUnix{Name: "@selftest"}))
		}},
	}
	res.Probes = runProbes(append(ps, commonProbes(root, ppid)...))
	return report(res)
}

// atFDCWD is AT_FDCWD as a raw system-call argument.
var atFDCWD = func() uintptr { v := unix.AT_FDCWD; return uintptr(v) }()
