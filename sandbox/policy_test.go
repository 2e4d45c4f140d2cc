package sandbox

import (
	"encoding/binary"
	"github.com/firefox-rdp-mcp/firefox-rdp-mcp/internal/build"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// seccompData mirrors struct seccomp_data.
type seccompData struct {
	nr   uint32
	arch uint32
	args [6]uint64
}

func (d seccompData) bytes() []byte {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b[0:], d.nr)
	binary.LittleEndian.PutUint32(b[4:], d.arch)
	for i, a := range d.args {
		binary.LittleEndian.PutUint64(b[16+8*i:], a)
	}
	return b
}

// run interprets the subset of classic BPF that Compile emits. Anything
// else fails the test, so the interpreter cannot silently disagree with the
// kernel about an instruction it does not know.
func run(t *testing.T, prog []unix.SockFilter, d seccompData) uint32 {
	t.Helper()
	data := d.bytes()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case ldAbs:
			if in.K%4 != 0 || int(in.K)+4 > len(data) {
				t.Fatalf("pc %d: load at %d", pc, in.K)
			}
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case andK:
			acc &= in.K
		case jeqK:
			if acc == in.K {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case jgeK:
			if acc >= in.K {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case retK:
			return in.K
		default:
			t.Fatalf("pc %d: unexpected opcode %#x", pc, in.Code)
		}
	}
	t.Fatal("fell off the end of the program")
	return 0
}

const testPID = 4242

func compiled(t *testing.T, arch *Arch, role Role) []unix.SockFilter {
	t.Helper()
	allow, deny := Rules(Options{Role: role, PID: testPID})
	prog, err := Compile(arch, allow, deny, ActErrno(DefaultErrno))
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func call(arch *Arch, name string, args ...uint64) seccompData {
	d := seccompData{nr: arch.Nums[name], arch: arch.Audit}
	copy(d.args[:], args)
	return d
}

var (
	allowAct = uint32(ActAllow)
	eacces   = uint32(ActErrno(unix.EACCES))
	eperm    = uint32(ActErrno(unix.EPERM))
	enosys   = uint32(ActErrno(unix.ENOSYS))
	kill     = uint32(ActKillProcess)
)

func TestPolicyDecisions(t *testing.T) {
	const (
		stream  = unix.SOCK_STREAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC
		neg100  = uint64(0xffffffffffffff9c) // AT_FDCWD sign-extended
		rw      = unix.PROT_READ | unix.PROT_WRITE
		privAno = unix.MAP_PRIVATE | unix.MAP_ANONYMOUS
	)
	type tc struct {
		name string
		role Role
		call string
		args []uint64
		want uint32
	}
	cases := []tc{
		{"server read", RoleServer, "read", nil, allowAct},
		{"server tcp4", RoleServer, "socket", []uint64{unix.AF_INET, stream, 0}, allowAct},
		{"server tcp6 IPPROTO_TCP", RoleServer, "socket", []uint64{unix.AF_INET6, stream, unix.IPPROTO_TCP}, allowAct},
		{"server mptcp", RoleServer, "socket", []uint64{unix.AF_INET, stream, unix.IPPROTO_MPTCP}, eacces},
		{"server udp", RoleServer, "socket", []uint64{unix.AF_INET, unix.SOCK_DGRAM, 0}, eacces},
		{"server unix", RoleServer, "socket", []uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0}, eacces},
		{"server netlink", RoleServer, "socket", []uint64{unix.AF_NETLINK, unix.SOCK_RAW, 0}, eacces},
		{"server stream|packet bits", RoleServer, "socket", []uint64{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_SEQPACKET, 0}, eacces},
		{"server socket high bits ignored (int)", RoleServer, "socket", []uint64{1<<32 | unix.AF_INET, unix.SOCK_STREAM, 0}, allowAct},
		{"server bind", RoleServer, "bind", nil, eperm},
		{"server listen", RoleServer, "listen", nil, eperm},
		{"server execve", RoleServer, "execve", nil, eperm},
		{"server openat", RoleServer, "openat", []uint64{neg100}, eacces},
		{"server openat2", RoleServer, "openat2", []uint64{3}, eacces},
		{"server newfstatat", RoleServer, "newfstatat", nil, eacces},
		{"server statx", RoleServer, "statx", nil, eacces},
		{"server pread64", RoleServer, "pread64", nil, eperm},
		{"server clone thread", RoleServer, "clone", []uint64{goCloneFlags}, allowAct},
		{"server clone thread tls", RoleServer, "clone", []uint64{goCloneFlagsTLS}, allowAct},
		{"server fork", RoleServer, "clone", []uint64{uint64(unix.SIGCHLD)}, eperm},
		{"server vfork-style clone", RoleServer, "clone", []uint64{unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD)}, eperm},
		{"server clone newuser", RoleServer, "clone", []uint64{goCloneFlags | unix.CLONE_NEWUSER}, eperm},
		{"server clone3", RoleServer, "clone3", nil, enosys},
		{"server tgkill self", RoleServer, "tgkill", []uint64{testPID, 7, 23}, allowAct},
		{"server tgkill other", RoleServer, "tgkill", []uint64{1, 1, 9}, eperm},
		{"server kill self", RoleServer, "kill", []uint64{testPID, 0}, allowAct},
		{"server kill group", RoleServer, "kill", []uint64{0, 9}, eperm},
		{"server kill -1", RoleServer, "kill", []uint64{0xffffffffffffffff, 9}, eperm},
		{"server mmap rw", RoleServer, "mmap", []uint64{0, 4096, rw, privAno}, allowAct},
		{"server mmap exec", RoleServer, "mmap", []uint64{0, 4096, unix.PROT_READ | unix.PROT_EXEC, privAno}, eperm},
		{"server mmap exec in high bits", RoleServer, "mmap", []uint64{0, 4096, 1<<32 | unix.PROT_EXEC}, eperm},
		{"server mprotect exec", RoleServer, "mprotect", []uint64{0, 4096, unix.PROT_EXEC}, eperm},
		{"server mprotect none", RoleServer, "mprotect", []uint64{0, 4096, unix.PROT_NONE}, allowAct},
		{"server prctl vma name", RoleServer, "prctl", []uint64{unix.PR_SET_VMA, unix.PR_SET_VMA_ANON_NAME}, allowAct},
		{"server prctl vma other", RoleServer, "prctl", []uint64{unix.PR_SET_VMA, 1}, eperm},
		{"server prctl nnp", RoleServer, "prctl", []uint64{unix.PR_SET_NO_NEW_PRIVS, 1}, eperm},
		{"server prctl dumpable", RoleServer, "prctl", []uint64{unix.PR_SET_DUMPABLE, 1}, eperm},
		{"server fcntl setfd", RoleServer, "fcntl", []uint64{3, unix.F_SETFD, unix.FD_CLOEXEC}, allowAct},
		{"server fcntl dupfd", RoleServer, "fcntl", []uint64{3, unix.F_DUPFD_CLOEXEC, 0}, eperm},
		{"server fcntl setown", RoleServer, "fcntl", []uint64{3, unix.F_SETOWN, 1}, eperm},
		{"server futex wait private", RoleServer, "futex", []uint64{0, 128}, allowAct},
		{"server futex wake", RoleServer, "futex", []uint64{0, 1}, allowAct},
		{"server futex requeue", RoleServer, "futex", []uint64{0, 3}, eperm},
		{"server futex lock_pi", RoleServer, "futex", []uint64{0, 6 | 128}, eperm},
		{"server getsockopt SOL_SOCKET", RoleServer, "getsockopt", []uint64{3, unix.SOL_SOCKET, unix.SO_ERROR}, allowAct},
		{"server setsockopt SOL_IP", RoleServer, "setsockopt", []uint64{3, unix.SOL_IP, 1}, eperm},
		{"server ptrace", RoleServer, "ptrace", nil, eperm},
		{"server io_uring", RoleServer, "io_uring_setup", nil, eperm},
		{"server unknown", RoleServer, "syslog", nil, enosys},
		{"server waitid", RoleServer, "waitid", nil, allowAct},
		{"broker openat2 beneath fd", RoleBroker, "openat2", []uint64{5}, allowAct},
		{"broker openat2 AT_FDCWD", RoleBroker, "openat2", []uint64{neg100}, eacces},
		{"broker openat", RoleBroker, "openat", []uint64{5}, eacces},
		{"broker pread64", RoleBroker, "pread64", nil, allowAct},
		{"broker socket tcp", RoleBroker, "socket", []uint64{unix.AF_INET, unix.SOCK_STREAM, 0}, eperm},
		{"broker socket unix", RoleBroker, "socket", []uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0}, eperm},
		{"broker connect", RoleBroker, "connect", nil, eperm},
		{"broker execve", RoleBroker, "execve", nil, eperm},
		{"broker waitid", RoleBroker, "waitid", nil, eperm},
		{"broker recvmsg", RoleBroker, "recvmsg", nil, allowAct},
	}
	for _, arch := range []*Arch{ArchAMD64, ArchARM64} {
		progs := map[Role][]unix.SockFilter{RoleServer: compiled(t, arch, RoleServer), RoleBroker: compiled(t, arch, RoleBroker)}
		for _, c := range cases {
			if _, ok := arch.Nums[c.call]; !ok {
				continue
			}
			t.Run(arch.Name+"/"+c.name, func(t *testing.T) {
				got := run(t, progs[c.role], call(arch, c.call, c.args...))
				if got != c.want {
					t.Errorf("%s%v = %#x, want %#x", c.call, c.args, got, c.want)
				}
			})
		}
	}
}

func TestForeignArchAndX32Killed(t *testing.T) {
	prog := compiled(t, ArchAMD64, RoleServer)
	d := call(ArchAMD64, "read")
	d.arch = unix.AUDIT_ARCH_I386
	if got := run(t, prog, d); got != kill {
		t.Errorf("i386 arch: %#x, want kill", got)
	}
	d = call(ArchAMD64, "read")
	d.nr |= x32Bit
	if got := run(t, prog, d); got != kill {
		t.Errorf("x32 read: %#x, want kill", got)
	}
	prog = compiled(t, ArchARM64, RoleServer)
	d = call(ArchARM64, "read")
	d.arch = unix.AUDIT_ARCH_X86_64
	if got := run(t, prog, d); got != kill {
		t.Errorf("amd64 data on arm64 filter: %#x, want kill", got)
	}
}

// Every syscall named anywhere gets exactly the decision its table gives,
// on both ABIs, and nothing unnamed is allowed.
func TestEveryNameDecided(t *testing.T) {
	for _, arch := range []*Arch{ArchAMD64, ArchARM64} {
		for _, role := range []Role{RoleServer, RoleBroker} {
			allow, deny := Rules(Options{Role: role, PID: testPID})
			prog, err := Compile(arch, allow, deny, ActErrno(DefaultErrno))
			if err != nil {
				t.Fatal(err)
			}
			named := map[string]bool{}
			for _, a := range allow {
				named[a.Name] = true
				if _, ok := arch.Nums[a.Name]; !ok {
					continue
				}
				if len(a.When) == 0 {
					if got := run(t, prog, call(arch, a.Name)); got != allowAct {
						t.Errorf("%s %s %s: %#x, want allow", arch.Name, role, a.Name, got)
					}
				}
				if a.Reason == "" {
					t.Errorf("%s has no reason", a.Name)
				}
			}
			for _, d := range deny {
				named[d.Name] = true
				if _, ok := arch.Nums[d.Name]; !ok {
					continue
				}
				if got := run(t, prog, call(arch, d.Name)); got != uint32(ActErrno(d.Errno)) {
					t.Errorf("%s %s %s: %#x, want errno %d", arch.Name, role, d.Name, got, d.Errno)
				}
				if d.Reason == "" {
					t.Errorf("%s has no reason", d.Name)
				}
			}
			for name, nr := range arch.Nums {
				if named[name] {
					continue
				}
				if got := run(t, prog, seccompData{nr: nr, arch: arch.Audit}); got != enosys {
					t.Errorf("%s %s unnamed %s: %#x, want ENOSYS", arch.Name, role, name, got)
				}
			}
		}
	}
}

// The core allowlist exists on both ABIs (a typo or an amd64-only name
// would silently drop a rule on arm64).
func TestCoreNamesOnBothArches(t *testing.T) {
	amd64Only := map[string]bool{"epoll_wait": true}
	for _, role := range []Role{RoleServer, RoleBroker} {
		allow, _ := Rules(Options{Role: role, PID: 1})
		for _, a := range allow {
			for _, arch := range []*Arch{ArchAMD64, ArchARM64} {
				if _, ok := arch.Nums[a.Name]; !ok && !(amd64Only[a.Name] && arch == ArchARM64) {
					t.Errorf("%s: allowlisted %s missing on %s", role, a.Name, arch.Name)
				}
			}
		}
	}
}

func TestRulesCopies(t *testing.T) {
	a1, d1 := Rules(Options{Role: RoleServer, PID: 1})
	a1[0].When = append(a1[0].When, Match{Eq32(0, 99)})
	a1[0].Name = "mutated"
	d1[0].Errno = 0
	a2, d2 := Rules(Options{Role: RoleServer, PID: 1})
	if a2[0].Name == "mutated" || len(a2[0].When) != len(runtimeAllow[0].When) || d2[0].Errno == 0 {
		t.Fatal("Rules returned shared state")
	}
	// Conditions inside matches are copied too.
	for i := range a1 {
		for j := range a1[i].When {
			for k := range a1[i].When[j] {
				a1[i].When[j][k].Value = 12345
			}
		}
	}
	if reflect.DeepEqual(a1, a2) {
		t.Fatal("mutating conditions changed a fresh copy")
	}
	if !reflect.DeepEqual(a2, func() []Allow { a, _ := Rules(Options{Role: RoleServer, PID: 1}); return a }()) {
		t.Fatal("base tables were mutated")
	}
}

// Every Options field must change the rules: a field nobody reads is a
// policy knob that silently does nothing.
func TestEveryOptionsFieldHandled(t *testing.T) {
	v := reflect.ValueOf(Options{})
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		changed := false // for one role or the other (Connector is the broker's)
		for _, role := range []Role{RoleServer, RoleBroker} {
			base := Options{Role: role, PID: 100}
			ba, bd := Rules(base)
			o := base
			fv := reflect.ValueOf(&o).Elem().Field(i)
			switch fv.Kind() {
			case reflect.Int:
				fv.SetInt(fv.Int() + 1)
			case reflect.Uint8:
				if f.Type == reflect.TypeOf(Role(0)) {
					fv.SetUint(uint64(RoleServer + RoleBroker - role))
				} else {
					fv.SetUint(fv.Uint() + 1)
				}
			case reflect.Bool:
				fv.SetBool(!fv.Bool())
			default:
				t.Fatalf("field %s: kind %s not covered by this test; extend it", f.Name, fv.Kind())
			}
			a, d := Rules(o)
			changed = changed || !reflect.DeepEqual(a, ba) || !reflect.DeepEqual(d, bd)
		}
		if !changed {
			t.Errorf("Options.%s does not change the rules", f.Name)
		}
	}
	if a, d := Rules(Options{}); a != nil || d != nil {
		t.Error("zero Options (no role) must yield no rules")
	}
}

func TestCompileRejects(t *testing.T) {
	if _, err := Compile(ArchAMD64, []Allow{{Name: "read"}}, []Deny{{Name: "read", Errno: unix.EPERM}}, ActAllow); err == nil {
		t.Error("allow+deny of the same call accepted")
	}
	if _, err := Compile(ArchAMD64, []Allow{{Name: "no_such_call"}}, nil, ActAllow); err == nil {
		t.Error("unknown name accepted")
	}
	if _, err := Compile(ArchAMD64, nil, []Deny{{Name: "read"}}, ActAllow); err == nil {
		t.Error("deny without errno accepted")
	}
	if _, err := Compile(ArchAMD64, []Allow{{Name: "read", When: []Match{{}}}}, nil, ActAllow); err == nil {
		t.Error("empty match accepted")
	}
	if _, err := Compile(ArchAMD64, []Allow{{Name: "read", When: []Match{{Cond{Arg: 6, Mask: 1}}}}}, nil, ActAllow); err == nil {
		t.Error("argument 6 accepted")
	}
	if _, err := Compile(ArchAMD64, []Allow{{Name: "read", When: []Match{{Cond{Arg: 0, Mask: 1, Value: 2}}}}}, nil, ActAllow); err == nil {
		t.Error("impossible condition accepted")
	}
	if _, err := Compile(nil, nil, nil, ActAllow); err == nil {
		t.Error("nil arch accepted")
	}
}

func TestNamesSorted(t *testing.T) {
	allow, _ := Rules(Options{Role: RoleServer, PID: 1})
	n := Names(ArchAMD64, allow)
	if !slices.IsSorted(n) || len(n) == 0 {
		t.Fatal(n)
	}
	if slices.Contains(n, "execve") || !slices.Contains(n, "socket") {
		t.Fatal(n)
	}
	ba, _ := Rules(Options{Role: RoleBroker, PID: 1})
	if slices.Contains(Names(ArchAMD64, ba), "socket") {
		t.Fatal("broker allows socket")
	}
}

func TestParseStatus(t *testing.T) {
	st, err := ParseStatus([]byte("Name:\tx\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n"))
	if err != nil || !st.Confined() {
		t.Fatal(st, err)
	}
	st, err = ParseStatus([]byte("NoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n"))
	if err != nil || st.Confined() {
		t.Fatal(st, err)
	}
	if _, err := ParseStatus([]byte("Name: x\n")); err == nil {
		t.Fatal("missing lines accepted")
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": build.SandboxEnforce, "enforce": build.SandboxEnforce} {
		if m, err := build.ParseSandboxMode(in); err != nil || m != want {
			t.Errorf("%q: %v %v", in, m, err)
		}
	}
	m, err := build.ParseSandboxMode("off")
	if build.OffAllowed != (err == nil) || (err == nil && m != build.SandboxOff) {
		t.Errorf("off: %v %v (build.OffAllowed %v)", m, err, build.OffAllowed)
	}
	if _, err := build.ParseSandboxMode("Enforce"); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Error("case-folded mode accepted")
	}
}

// The broker that connects to Firefox's debugger socket for the server
// (Options.Connector) may make a Unix stream socket, connect it and read
// its peer's credentials; no other family, no other socket option.
func TestBrokerConnectorRules(t *testing.T) {
	allow, deny := Rules(Options{Role: RoleBroker, PID: testPID, Connector: true})
	prog, err := Compile(ArchAMD64, allow, deny, ActErrno(DefaultErrno))
	if err != nil {
		t.Fatal(err)
	}
	const flags = unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC
	for _, c := range []struct {
		name string
		call string
		args []uint64
		want uint32
	}{
		{"unix stream", "socket", []uint64{unix.AF_UNIX, unix.SOCK_STREAM | flags, 0}, allowAct},
		{"unix datagram", "socket", []uint64{unix.AF_UNIX, unix.SOCK_DGRAM, 0}, eperm},
		{"tcp", "socket", []uint64{unix.AF_INET, unix.SOCK_STREAM, 0}, eperm},
		{"tcp6", "socket", []uint64{unix.AF_INET6, unix.SOCK_STREAM, 0}, eperm},
		{"connect", "connect", nil, allowAct},
		{"SO_PEERCRED", "getsockopt", []uint64{5, unix.SOL_SOCKET, unix.SO_PEERCRED}, allowAct},
		{"SO_ERROR", "getsockopt", []uint64{5, unix.SOL_SOCKET, unix.SO_ERROR}, eperm},
		{"bind", "bind", nil, eperm},
		{"listen", "listen", nil, eperm},
		{"sendto", "sendto", nil, eperm},
		{"execve", "execve", nil, eperm},
	} {
		if got := run(t, prog, call(ArchAMD64, c.call, c.args...)); got != c.want {
			t.Errorf("%s: %s%v = %#x, want %#x", c.name, c.call, c.args, got, c.want)
		}
	}
}
