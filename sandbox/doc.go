// Package sandbox confines the two processes of firefox-rdp-mcp with
// Landlock and a seccomp-BPF allowlist, so that a compromise of either one
// (through a malicious page's data, a hostile RDP peer or a hostile MCP
// client) cannot read or write the user's files, reach other network
// services, start programs or attack other processes.
//
// The server (MCP on stdio, RDP over TCP) gets no filesystem rights at all,
// TCP connect to the RDP port only, no bind, and signal and abstract-socket
// scoping; its seccomp allowlist (see [Rules]) admits one kind of socket
// (TCP over IPv4/IPv6, never MPTCP) and the calls the Go runtime makes.
// The broker (see package broker) may only read beneath the upload roots
// (the whole tree when none are configured) and has no network and no
// socket(2) at all.
//
// Policies are data: literal tables of system calls with a reason per
// entry, turned into rules by the pure function [Rules] and into a BPF
// program by [Compile]; [ApplyServer] and [ApplyBroker] load them on every
// thread and verify /proc/self/task/*/status afterwards.
//
// # Order and prerequisites
//
// Call [TidyFDs] before starting the broker, [PrepareRuntime] right before
// Apply*, and Apply* before reading any untrusted input. Build with
// CGO_ENABLED=0: go-landlock reaches all threads on ABI < 8 through
// syscall.AllThreadsSyscall, which fails in cgo binaries. The full policy
// needs Landlock ABI 6 (Linux 6.12) and seccomp filters; [Probe] reports
// what is missing and Apply* refuses to run with less ([UnsupportedError]).
//
// # Why Landlock and seccomp
//
// Landlock alone (ABI 7, measured) leaves open: stat(2) of any path, MPTCP
// sockets (Go ≥ 1.24 listens with MPTCP by default) reaching any port, UDP,
// netlink, pathname UNIX sockets, and ptrace(PTRACE_TRACEME). The seccomp
// tables close every one of them; Landlock in turn covers what seccomp
// cannot see (the path behind an openat2, the port behind a connect).
//
// # The default action: ENOSYS, not kill
//
// Calls the tables name are allowed (with argument checks where they
// matter), or answered with a chosen errno: EACCES for stray path-based
// filesystem calls (what Landlock would say, so a library probe degrades
// gracefully) and EPERM for the dangerous ones (exec, ptrace, bind/listen,
// io_uring, bpf, userfaultfd, namespaces, mounts, …). Everything else gets
// ENOSYS. Two actions kill the process: a foreign architecture in
// seccomp_data and the x32 ABI on amd64, which no legitimate code here uses.
//
// ENOSYS rather than SECCOMP_RET_KILL_PROCESS, because:
//   - It grants nothing: the call does not run. An attacker with code
//     execution inside the process learns only which calls are allowed, and
//     the tables are public. Killing buys no confidentiality or integrity.
//   - A kill breaks the user's session silently: the MCP client sees EOF and
//     no log line, because the process cannot write one. A new Go release or
//     library calling one unforeseen system call (clone3, epoll_pwait2,
//     pidfd_*, cachestat, …) would take the whole tool down in the field.
//   - ENOSYS is the answer the Go runtime, x/sys and libraries already
//     handle as "old kernel" and fall back from. A fallback can only reach
//     calls that pass the same filter, so it cannot widen access.
//
// The risk of an errno default is silent misbehaviour instead of a crash;
// it is bounded by deriving the allowlist from strace of the real binary
// under the whole test suite (see security-tests), which shows every
// ENOSYS answer.
//
// # Limitations
//
// IMPORTANT: the sandbox does not authenticate Firefox. The RDP endpoint is
// unauthenticated and any local process can connect to it; Landlock rules
// are per port, not per host, so the server may connect to that port on any
// address (the configuration only ever dials loopback). The sandbox does not
// limit what the server asks Firefox to do, and it does not limit which
// files inside the upload roots (or, without roots, anywhere the user can
// read) the MCP client asks to upload: that consent stays with the user.
// Already-open file descriptors (stdio, the broker socket) keep working.
package sandbox
