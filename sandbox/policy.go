package sandbox

import (
	"fmt"
	"slices"

	"golang.org/x/sys/unix"
)

// Role names the process a policy is for.
type Role uint8

// The two sandboxed roles.
const (
	RoleServer Role = iota + 1 // speaks MCP on stdio and RDP over TCP
	RoleBroker                 // opens and streams upload files
)

func (r Role) String() string {
	switch r {
	case RoleServer:
		return "server"
	case RoleBroker:
		return "broker"
	}
	return fmt.Sprintf("Role(%d)", uint8(r))
}

// Options select and parameterise a seccomp policy. Every field changes the
// rules (a test enforces it).
type Options struct {
	Role Role
	// PID is the process's own id: kill and tgkill are allowed only towards it.
	PID int
	// Connector (broker only): the broker connects to Firefox's debugger
	// Unix socket for the server and passes the descriptor back.
	Connector bool
}

// DefaultErrno answers every system call that no table names. See doc.go
// for why this is an errno and not a kill.
const DefaultErrno = unix.ENOSYS

// Clone flags the Go runtime uses for a new thread (runtime/os_linux.go
// cloneFlags); on amd64 the runtime adds CLONE_SETTLS when it has an m and g.
const (
	goCloneFlags = unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND |
		unix.CLONE_SYSVSEM | unix.CLONE_THREAD
	goCloneFlagsTLS = goCloneFlags | unix.CLONE_SETTLS
)

const sockFlags = unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC

// futex operations (include/uapi/linux/futex.h); x/sys does not export them.
const (
	futexWait          = 0
	futexWake          = 1
	futexPrivateFlag   = 128
	futexClockRealtime = 256
	futexOpMask        = ^uint32(futexPrivateFlag | futexClockRealtime)
)

// runtimeAllow is what any Go 1.26 program here needs once it runs: the
// scheduler, memory, signals, timers and the netpoller. Hot calls first.
var runtimeAllow = []Allow{
	{Name: "futex", When: []Match{
		{Masked32(1, futexOpMask, futexWait)},
		{Masked32(1, futexOpMask, futexWake)},
	}, Reason: "runtime locks and thread parking; only WAIT/WAKE (no requeue/PI, the futex CVE surface)"},
	{Name: "read", Reason: "stdin, the broker socket, TCP; fd-based"},
	{Name: "write", Reason: "stdout (MCP), stderr (logs), TCP; fd-based"},
	{Name: "epoll_pwait", Reason: "netpoller wait (Go 1.26)"},
	{Name: "epoll_pwait2", Reason: "netpoller wait on newer runtimes"},
	{Name: "epoll_wait", Reason: "netpoller wait (amd64 legacy spelling)"},
	{Name: "epoll_ctl", Reason: "netpoller registration"},
	{Name: "epoll_create1", Reason: "netpoller start-up when the first pollable fd appears late"},
	{Name: "eventfd2", Reason: "netpoller wake-up fd, created with the poller"},
	{Name: "nanosleep", Reason: "runtime usleep (sysmon, spinning)"},
	{Name: "clock_nanosleep", Reason: "sleep on newer runtimes"},
	{Name: "clock_gettime", Reason: "time when the vDSO is unavailable"},
	{Name: "gettimeofday", Reason: "time fallback"},
	{Name: "sched_yield", Reason: "runtime osyield"},
	{Name: "sched_getaffinity", Reason: "runtime CPU count; read-only"},
	{Name: "getpid", Reason: "runtime signal delivery to self"},
	{Name: "gettid", Reason: "runtime signal delivery to a thread"},
	{Name: "tgkill", Reason: "goroutine preemption (SIGURG) and raise, only to our own thread group"},
	{Name: "kill", Reason: "runtime raiseproc (re-raise a fatal signal), only to ourselves"},
	{Name: "rt_sigreturn", Reason: "return from a signal handler"},
	{Name: "rt_sigprocmask", Reason: "signal masks on new threads"},
	{Name: "rt_sigaction", Reason: "os/signal.Notify installing handlers; affects only this process"},
	{Name: "sigaltstack", Reason: "per-thread signal stacks"},
	{Name: "clone", When: []Match{
		{Eq64(0, goCloneFlags)},
		{Eq64(0, goCloneFlagsTLS)},
	}, Reason: "new runtime threads only: exact Go flags (no fork, no namespaces, no vfork)"},
	{Name: "mmap", When: []Match{{Clear64(2, unix.PROT_EXEC)}},
		Reason: "heap and stacks; never PROT_EXEC (no new code)"},
	{Name: "mprotect", When: []Match{{Clear64(2, unix.PROT_EXEC)}},
		Reason: "guard pages; never PROT_EXEC"},
	{Name: "munmap", Reason: "return memory"},
	{Name: "madvise", Reason: "return memory to the kernel (MADV_DONTNEED/FREE, huge pages)"},
	{Name: "prctl", When: []Match{{Eq32(0, unix.PR_SET_VMA), Eq64(1, unix.PR_SET_VMA_ANON_NAME)}},
		Reason: "runtime names its anonymous mappings (PR_SET_VMA_ANON_NAME); nothing else"},
	{Name: "getrandom", Reason: "crypto/rand and map seeds"},
	{Name: "close", Reason: "closing our own fds"},
	{Name: "fcntl", When: []Match{
		{Eq32(1, unix.F_GETFD)}, {Eq32(1, unix.F_SETFD)},
		{Eq32(1, unix.F_GETFL)}, {Eq32(1, unix.F_SETFL)},
	}, Reason: "fd flags (close-on-exec, non-blocking); no dup, no locks, no leases, no F_SETOWN"},
	{Name: "fstat", Reason: "os.File.Stat on an fd we hold"},
	{Name: "restart_syscall", Reason: "kernel-restarted sleeps"},
	{Name: "exit", Reason: "thread exit"},
	{Name: "exit_group", Reason: "process exit"},
}

// serverAllow is what the MCP/RDP server adds: one kind of TCP socket and the
// calls the net package makes on it, the broker socket, reaping the broker.
var serverAllow = []Allow{
	{Name: "recvmsg", Reason: "broker socket (SOCK_SEQPACKET) reads"},
	{Name: "sendmsg", Reason: "broker socket writes"},
	{Name: "recvfrom", Reason: "net package reads on sockets"},
	{Name: "sendto", Reason: "net package writes on sockets"},
	{Name: "socket", When: []Match{
		{Eq32(0, unix.AF_INET), Masked32(1, ^uint32(sockFlags), unix.SOCK_STREAM), Eq32(2, 0)},
		{Eq32(0, unix.AF_INET), Masked32(1, ^uint32(sockFlags), unix.SOCK_STREAM), Eq32(2, unix.IPPROTO_TCP)},
		{Eq32(0, unix.AF_INET6), Masked32(1, ^uint32(sockFlags), unix.SOCK_STREAM), Eq32(2, 0)},
		{Eq32(0, unix.AF_INET6), Masked32(1, ^uint32(sockFlags), unix.SOCK_STREAM), Eq32(2, unix.IPPROTO_TCP)},
	}, Else: unix.EACCES,
		Reason: "the RDP connection: TCP over IPv4/IPv6 only (no MPTCP, UDP, raw, netlink, unix)"},
	{Name: "connect", Reason: "the RDP connection; Landlock allows only the RDP port"},
	{Name: "getsockopt", When: []Match{
		{Eq32(1, unix.SOL_SOCKET)}, {Eq32(1, unix.IPPROTO_TCP)}, {Eq32(1, unix.IPPROTO_IPV6)},
	}, Reason: "SO_ERROR after a non-blocking connect, TCP options"},
	{Name: "setsockopt", When: []Match{
		{Eq32(1, unix.SOL_SOCKET)}, {Eq32(1, unix.IPPROTO_TCP)}, {Eq32(1, unix.IPPROTO_IPV6)},
	}, Reason: "TCP_NODELAY, keep-alive, IPV6_V6ONLY on the RDP socket"},
	{Name: "getsockname", Reason: "net package records the local address"},
	{Name: "getpeername", Reason: "net package records the remote address"},
	{Name: "shutdown", Reason: "closing the RDP connection and the broker socket"},
	{Name: "waitid", Reason: "reap the broker (our only child) via its pidfd"},
}

// brokerAllow is what the broker adds: opening beneath pre-opened root
// directories and reading what it opened. No socket, connect or exec.
var brokerAllow = []Allow{
	{Name: "recvmsg", Reason: "requests on the inherited socketpair"},
	{Name: "sendmsg", Reason: "replies on the inherited socketpair"},
	{Name: "openat2", When: []Match{{Masked32(0, 0x80000000, 0)}}, Else: unix.EACCES,
		Reason: "open an upload file beneath a pre-opened root fd (never AT_FDCWD); Landlock bounds it to the roots"},
	{Name: "pread64", Reason: "stream a file at explicit offsets"},
}

// fsDeny answers stray path-based filesystem calls with EACCES, the answer
// Landlock would give, so a library probe degrades instead of dying.
var fsDeny = []Deny{
	{Name: "open", Errno: unix.EACCES, Reason: "no filesystem: a probe gets EACCES"},
	{Name: "openat", Errno: unix.EACCES, Reason: "no filesystem: a probe gets EACCES"},
	{Name: "creat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "stat", Errno: unix.EACCES, Reason: "Landlock does not cover stat; seccomp does"},
	{Name: "lstat", Errno: unix.EACCES, Reason: "Landlock does not cover stat; seccomp does"},
	{Name: "newfstatat", Errno: unix.EACCES, Reason: "Landlock does not cover stat; seccomp does"},
	{Name: "statx", Errno: unix.EACCES, Reason: "Landlock does not cover stat; seccomp does"},
	{Name: "access", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "faccessat", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "faccessat2", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "readlink", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "readlinkat", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "statfs", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "getxattr", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "lgetxattr", Errno: unix.EACCES, Reason: "no path probes"},
	{Name: "mkdir", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "mkdirat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "mknod", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "mknodat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "unlink", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "unlinkat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "rmdir", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "rename", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "renameat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "renameat2", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "link", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "linkat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "symlink", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "symlinkat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "chmod", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "fchmodat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "fchmodat2", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "chown", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "lchown", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "fchownat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "truncate", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "utimensat", Errno: unix.EACCES, Reason: "no filesystem writes"},
	{Name: "chdir", Errno: unix.EACCES, Reason: "no filesystem walks"},
	{Name: "inotify_add_watch", Errno: unix.EACCES, Reason: "no filesystem watches"},
}

// dangerDeny answers calls that would widen what a compromised process can
// do. EPERM, not a kill, so the self-test can observe each refusal.
var dangerDeny = []Deny{
	{Name: "execve", Errno: unix.EPERM, Reason: "no new programs"},
	{Name: "execveat", Errno: unix.EPERM, Reason: "no new programs"},
	{Name: "fork", Errno: unix.EPERM, Reason: "no new processes"},
	{Name: "vfork", Errno: unix.EPERM, Reason: "no new processes"},
	{Name: "clone3", Errno: unix.ENOSYS, Reason: "Go uses clone; ENOSYS makes any clone3 user fall back to the checked clone"},
	{Name: "ptrace", Errno: unix.EPERM, Reason: "no debugging of anything (Landlock leaves PTRACE_TRACEME open)"},
	{Name: "process_vm_readv", Errno: unix.EPERM, Reason: "no access to other processes' memory"},
	{Name: "process_vm_writev", Errno: unix.EPERM, Reason: "no access to other processes' memory"},
	{Name: "process_madvise", Errno: unix.EPERM, Reason: "no influence on other processes"},
	{Name: "pidfd_open", Errno: unix.EPERM, Reason: "no handles on other processes"},
	{Name: "pidfd_getfd", Errno: unix.EPERM, Reason: "no stealing of other processes' fds"},
	{Name: "pidfd_send_signal", Errno: unix.EPERM, Reason: "signals only through the self-checked kill/tgkill"},
	{Name: "kcmp", Errno: unix.EPERM, Reason: "no probing of other processes"},
	{Name: "bind", Errno: unix.EPERM, Reason: "never a server socket (Landlock misses MPTCP and, on ABI < 10, UDP)"},
	{Name: "listen", Errno: unix.EPERM, Reason: "never a server socket"},
	{Name: "accept", Errno: unix.EPERM, Reason: "never a server socket"},
	{Name: "accept4", Errno: unix.EPERM, Reason: "never a server socket"},
	{Name: "socketpair", Errno: unix.EPERM, Reason: "no new channels"},
	{Name: "sendmmsg", Errno: unix.EPERM, Reason: "datagram batching: never needed"},
	{Name: "recvmmsg", Errno: unix.EPERM, Reason: "datagram batching: never needed"},
	{Name: "io_uring_setup", Errno: unix.EPERM, Reason: "io_uring bypasses the syscall filter"},
	{Name: "io_uring_enter", Errno: unix.EPERM, Reason: "io_uring bypasses the syscall filter"},
	{Name: "io_uring_register", Errno: unix.EPERM, Reason: "io_uring bypasses the syscall filter"},
	{Name: "bpf", Errno: unix.EPERM, Reason: "kernel attack surface"},
	{Name: "perf_event_open", Errno: unix.EPERM, Reason: "kernel attack surface, side channels"},
	{Name: "userfaultfd", Errno: unix.EPERM, Reason: "classic exploit primitive"},
	{Name: "unshare", Errno: unix.EPERM, Reason: "no namespaces"},
	{Name: "setns", Errno: unix.EPERM, Reason: "no namespaces"},
	{Name: "mount", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "umount2", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "pivot_root", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "chroot", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "fsopen", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "fsconfig", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "fsmount", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "fspick", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "move_mount", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "open_tree", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "mount_setattr", Errno: unix.EPERM, Reason: "no mounts"},
	{Name: "name_to_handle_at", Errno: unix.EPERM, Reason: "file handles bypass path checks"},
	{Name: "open_by_handle_at", Errno: unix.EPERM, Reason: "file handles bypass path checks"},
	{Name: "memfd_create", Errno: unix.EPERM, Reason: "no anonymous executable files"},
	{Name: "memfd_secret", Errno: unix.EPERM, Reason: "not needed"},
	{Name: "pkey_mprotect", Errno: unix.EPERM, Reason: "mprotect without the PROT_EXEC check"},
	{Name: "mremap", Errno: unix.EPERM, Reason: "not used by Go; avoids mapping games"},
	{Name: "personality", Errno: unix.EPERM, Reason: "no ABI changes (READ_IMPLIES_EXEC)"},
	{Name: "seccomp", Errno: unix.EPERM, Reason: "the policy is final"},
	{Name: "landlock_create_ruleset", Errno: unix.EPERM, Reason: "the policy is final"},
	{Name: "landlock_add_rule", Errno: unix.EPERM, Reason: "the policy is final"},
	{Name: "landlock_restrict_self", Errno: unix.EPERM, Reason: "the policy is final"},
	{Name: "keyctl", Errno: unix.EPERM, Reason: "no kernel keyrings"},
	{Name: "add_key", Errno: unix.EPERM, Reason: "no kernel keyrings"},
	{Name: "request_key", Errno: unix.EPERM, Reason: "no kernel keyrings"},
	{Name: "init_module", Errno: unix.EPERM, Reason: "no kernel modules"},
	{Name: "finit_module", Errno: unix.EPERM, Reason: "no kernel modules"},
	{Name: "delete_module", Errno: unix.EPERM, Reason: "no kernel modules"},
	{Name: "kexec_load", Errno: unix.EPERM, Reason: "no kernel replacement"},
	{Name: "kexec_file_load", Errno: unix.EPERM, Reason: "no kernel replacement"},
	{Name: "ioctl", Errno: unix.EPERM, Reason: "no device control (TIOCSTI and friends); an isatty probe reports 'not a terminal'"},
	{Name: "setuid", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "setgid", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "setreuid", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "setregid", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "setresuid", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "setresgid", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "setgroups", Errno: unix.EPERM, Reason: "no credential changes"},
	{Name: "capset", Errno: unix.EPERM, Reason: "no credential changes"},
}

// brokerConnectorAllow is what the broker adds when it connects to
// Firefox's debugger Unix socket for the server (broker/connector.go).
var brokerConnectorAllow = []Allow{
	{Name: "socket", When: []Match{
		{Eq32(0, unix.AF_UNIX), Masked32(1, ^uint32(sockFlags), unix.SOCK_STREAM), Eq32(2, 0)},
	}, Else: unix.EPERM,
		Reason: "the debugger connection: a Unix stream socket only (no network family)"},
	{Name: "connect", Reason: "to the debugger socket fixed at start; the request names no path"},
	{Name: "getsockopt", When: []Match{{Eq32(1, unix.SOL_SOCKET), Eq32(2, unix.SO_PEERCRED)}},
		Reason: "SO_PEERCRED: the listener must be this user's"},
}

// brokerNetDeny closes the network completely for the broker.
var brokerNetDeny = []Deny{
	{Name: "socket", Errno: unix.EPERM, Reason: "the broker never creates a socket"},
	{Name: "connect", Errno: unix.EPERM, Reason: "the broker never connects"},
	{Name: "sendto", Errno: unix.EPERM, Reason: "the broker never sends datagrams"},
	{Name: "recvfrom", Errno: unix.EPERM, Reason: "the broker never receives datagrams"},
	{Name: "waitid", Errno: unix.EPERM, Reason: "the broker has no children"},
}

// Rules returns the allowlist and the explicit denials for o. The result is
// a fresh copy: callers may change it without touching the base tables.
func Rules(o Options) (allow []Allow, deny []Deny) {
	allow = copyAllow(runtimeAllow)
	deny = append(slices.Clone(fsDeny), dangerDeny...)
	switch o.Role {
	case RoleServer:
		allow = append(allow, copyAllow(serverAllow)...)
		deny = append(deny, Deny{Name: "openat2", Errno: unix.EACCES, Reason: "no filesystem: a probe gets EACCES"},
			Deny{Name: "pread64", Errno: unix.EPERM, Reason: "the server reads no files (GOMAXPROCS is frozen, so no cgroup reads)"})
	case RoleBroker:
		allow = append(allow, copyAllow(brokerAllow)...)
		netDeny := slices.Clone(brokerNetDeny)
		if o.Connector {
			allow = append(allow, copyAllow(brokerConnectorAllow)...)
			netDeny = slices.DeleteFunc(netDeny, func(d Deny) bool { return d.Name == "socket" || d.Name == "connect" })
		}
		deny = append(deny, netDeny...)
	default:
		return nil, nil
	}
	// Signals: only to ourselves. A PID of 0 (unknown) allows none.
	for i := range allow {
		switch allow[i].Name {
		case "tgkill", "kill":
			if o.PID <= 0 {
				allow[i].When = []Match{{Eq32(0, 0), Eq32(0, 1)}} // never true
			} else {
				allow[i].When = []Match{{Eq32(0, uint32(o.PID))}}
			}
		}
	}
	return allow, deny
}

func copyAllow(in []Allow) []Allow {
	out := make([]Allow, len(in))
	for i, a := range in {
		out[i] = a
		out[i].When = make([]Match, len(a.When))
		for j, m := range a.When {
			out[i].When[j] = slices.Clone(m)
		}
		if len(a.When) == 0 {
			out[i].When = nil
		}
	}
	return out
}
